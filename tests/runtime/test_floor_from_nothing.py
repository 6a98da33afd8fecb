"""A floor set up without the demo: games and tables made by `flask floor game|table …` or declared in
the configuration and applied by `flask floor setup`, every change audited; a device process refuses
devices for tables the floor does not have."""
from __future__ import annotations

import subprocess
import sys

import pytest
from sqlalchemy import func, select

from floor.models import AuditRecord, Game, Seat, Staff, Table
from tests.conftest import Login, make_config
from tests.conftest import app_session as db_session
from tests.servers import ROOT


@pytest.fixture
def fresh(tmp_path):
    """An app on a database that has nothing yet (SQLite file created by `flask floor setup`)."""
    from app import create_app
    from floor.web.extensions import db

    def build(**cfg):
        config = make_config(f"sqlite:///{tmp_path / 'floor.db'}", tmp_path)
        config.update(cfg)
        app = create_app(config)
        app.config["TESTING"] = True
        built.append(app)
        return app
    built: list = []
    yield build
    for app in built:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def run(app, *args, **kw):
    return app.test_cli_runner().invoke(args=["floor", *args], **kw)


def test_an_admin_makes_a_floor_from_nothing_with_the_commands(fresh):
    app = fresh()
    assert run(app, "setup").exit_code == 0
    with db_session(app) as s:
        assert s.execute(select(func.count(Table.id))).scalar() == 0
    # a dealer with a PIN needs no password and is never asked for one (nothing on standard input)
    dan = run(app, "user", "create", "dan", "--role", "dealer", "--name", "Dan Keller", "--pin", "2468", input="")
    assert dan.exit_code == 0 and "created dealer dan" in dan.output and "assword" not in dan.output
    before = run(app, "token", "create", "dan", "--table", "12")
    assert before.exit_code == 1 and "no table number 12" in before.output

    game = run(app, "game", "create", "Roulette 5-500", "--kind", "roulette", "--min-bet", "500", "--max-bet", "50000")
    assert game.exit_code == 0, game.output
    table = run(app, "table", "create", "12", "--game", "Roulette 5-500", "--name", "Roulette", "--seats", "8")
    assert table.exit_code == 0, table.output
    assert "created table 12: Roulette, 8 seats, closed" in table.output
    token = run(app, "token", "create", "dan", "--table", "12")
    assert token.exit_code == 0 and token.output.startswith("fm_")

    listed = run(app, "table", "list").output
    assert listed.strip() == "12\tRoulette\tRoulette 5-500\t8 seats\tclosed"
    assert "bets 5.00-500.00" in run(app, "game", "list").output

    # changed: more seats and another limit; every change audited, by the console
    assert run(app, "table", "change", "12", "--seats", "10", "--name", "Roulette (big)").exit_code == 0
    assert run(app, "game", "change", "Roulette 5-500", "--name", "Roulette 10-1000", "--min-bet", "1000",
               "--max-bet", "100000").exit_code == 0
    with db_session(app) as s:
        t = s.execute(select(Table).where(Table.number == 12)).scalar_one()
        assert (t.name, t.seat_count, t.kind, t.status) == ("Roulette (big)", 10, "roulette", "closed")
        assert [seat.number for seat in t.seats] == list(range(1, 11))
        g = s.get(Game, t.game_id)
        assert (g.name, g.min_bet, g.max_bet) == ("Roulette 10-1000", 1000, 100000)
        audited = s.execute(select(AuditRecord.action, AuditRecord.terminal).where(
            AuditRecord.action.in_(("game.create", "game.change", "table.create", "table.change")))
            .order_by(AuditRecord.id)).all()
        assert audited == [("game.create", "console"), ("table.create", "console"),
                           ("table.change", "console"), ("game.change", "console")]

    # the dealer's PIN works at the new table (with his token, and at the terminal)
    Login(app.test_client()).dealer(12, "dan", "2468")


def test_the_commands_refuse_what_would_break_the_floor_and_change_nothing(fresh):
    app = fresh()
    run(app, "setup")
    run(app, "game", "create", "Baccarat 10-1000", "--kind", "baccarat", "--min-bet", "1000", "--max-bet", "100000")
    run(app, "table", "create", "10", "--game", "Baccarat 10-1000", "--seats", "7")
    refused = {
        "limits upside down": ("game", "create", "B2", "--kind", "baccarat", "--min-bet", "500", "--max-bet", "100"),
        "poker without blinds": ("game", "create", "NL", "--kind", "poker", "--variant", "holdem",
                                 "--structure", "no_limit"),
        "absurd amount": ("game", "create", "B3", "--kind", "baccarat", "--min-bet", "1", "--max-bet", str(10**12)),
        "same name": ("game", "create", "Baccarat 10-1000", "--kind", "baccarat", "--min-bet", "1", "--max-bet", "2"),
        "same number": ("table", "create", "10", "--game", "Baccarat 10-1000"),
        "thirteen seats": ("table", "create", "11", "--game", "Baccarat 10-1000", "--seats", "13"),
        "unknown game": ("table", "create", "11", "--game", "Craps"),
        "number zero": ("table", "create", "0", "--game", "Baccarat 10-1000"),
        "name of spaces": ("table", "change", "10", "--name", "   "),
    }
    for what, args in refused.items():
        out = run(app, *args)
        assert out.exit_code == 1 and out.output.startswith("error: "), (what, out.output)
    with db_session(app) as s:
        assert s.execute(select(func.count(Game.id))).scalar() == 1
        assert [(t.number, t.seat_count) for t in s.execute(select(Table)).scalars()] == [(10, 7)]
        assert s.execute(select(func.count(AuditRecord.id)).where(AuditRecord.action.like("table.%"))).scalar() == 1


def test_an_open_table_keeps_its_game_and_seats_and_a_used_seat_stays(app, session):
    """On the demo floor: roulette table 12 is open; poker table 2 is closed but its seats have a history."""
    from floor import layout
    from floor.actors import Actor
    from floor.errors import Conflict
    admin = Actor("Ada Admin", "admin", "test", 1)
    baccarat = session.execute(select(Game).where(Game.kind == "baccarat")).scalars().first()
    with pytest.raises(Conflict) as exc:
        layout.change_table(session, admin, 12, game_id=baccarat.id)
    assert exc.value.code == "table_not_closed"
    with pytest.raises(Conflict):
        layout.change_table(session, admin, 12, seats=4)
    renamed = layout.change_table(session, admin, 12, name="Roulette by the bar")   # a name at any time
    assert renamed.name == "Roulette by the bar"
    with pytest.raises(Conflict) as exc:   # a game's kind stays while tables deal it
        layout.change_game(session, admin, renamed.game_id, {"kind": "baccarat", "min_bet": 100, "max_bet": 200})
    assert exc.value.code == "game_in_use"
    # a closed table whose top seats were sat in: they stay (their history names them)
    from floor.models import Player, SeatAssignment
    t2 = layout.table_by_number(session, 2)
    top = session.execute(select(Seat).where(Seat.table_id == t2.id, Seat.number == 10)).scalar_one()
    player = session.execute(select(Player)).scalars().first()
    from datetime import datetime, timezone
    now = datetime.now(timezone.utc)
    session.add(SeatAssignment(seat_id=top.id, table_id=t2.id, player_id=player.id, sat_at=now, left_at=now))
    session.flush()
    with pytest.raises(Conflict) as exc:
        layout.change_table(session, admin, 2, seats=8)
    assert exc.value.code == "seats_in_use"
    assert layout.change_table(session, admin, 2, seats=12).seat_count == 12


DECLARED = """
[[games]]
name = "Roulette 5-500"
kind = "roulette"
min_bet = 500
max_bet = 50000

[[games]]
name = "NL Hold'em 2/5"
kind = "poker"
variant = "holdem"
structure = "no_limit"
small_blind = 200
big_blind = 500

[[tables]]
number = 12
name = "Roulette"
game = "Roulette 5-500"
seats = {seats}

[[tables]]
number = 1
name = "Hold'em 1"
game = "NL Hold'em 2/5"
"""


def test_setup_applies_the_declared_layout_once_and_then_its_changes(fresh, tmp_path):
    import tomllib
    layout_cfg = tomllib.loads(DECLARED.format(seats=8))
    app = fresh(**layout_cfg)
    first = run(app, "setup")
    assert first.exit_code == 0, first.output
    assert "created game Roulette 5-500, game NL Hold'em 2/5, table 12, table 1; changed nothing" in first.output
    again = run(app, "setup")
    assert "created nothing; changed nothing" in again.output
    app = fresh(**tomllib.loads(DECLARED.format(seats=9)))
    changed = run(app, "setup")
    assert "created nothing; changed table 12" in changed.output
    with db_session(app) as s:
        tables = {t.number: (t.name, t.kind, t.seat_count, t.status) for t in s.execute(select(Table)).scalars()}
        assert tables == {12: ("Roulette", "roulette", 9, "closed"), 1: ("Hold'em 1", "poker", 10, "closed")}
        assert s.execute(select(func.count(AuditRecord.id)).where(AuditRecord.action == "table.change")).scalar() == 1
        assert s.execute(select(Staff.id)).first() is None   # no demo, no default account


@pytest.mark.parametrize("device, says", [
    ({"name": "wheel-77", "table": 77, "kind": "wheel", "port": "/dev/null"},
     "device 'wheel-77' is configured for table 77, which this floor does not have"),
    ({"name": "shoe-12", "table": 12, "kind": "shoe", "port": "/dev/null"},
     "device 'shoe-12' (shoe) is configured for table 12, which deals roulette"),
])
def test_the_device_process_refuses_devices_for_tables_the_floor_does_not_have(sqlite_url, tmp_path, device, says):
    cfg = tmp_path / "floor.toml"
    cfg.write_text("[[devices]]\n" + "".join(f"{k} = {v!r}\n".replace("'", '"') if isinstance(v, str)
                                             else f"{k} = {v}\n" for k, v in device.items()))
    env = {"PATH": "/usr/bin:/bin", "FLOOR_CONFIG": str(cfg), "FLOOR_SECRET_KEY": "test",
           "FLOOR_APP_DATABASE_URL": sqlite_url, "FLOOR_APP_INSTANCE_PATH": str(tmp_path / "instance"),
           "FLOOR_APP_DEMO": "false", "FLOOR_APP_SIMULATE_DEVICES": "false", "FLOOR_APP_RUN_SCHEDULER": "false"}
    try:
        done = subprocess.run([sys.executable, "-m", "flask", "--app", "app:create_app", "floor", "devices"], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        raise AssertionError("the device process started with a device for a table it cannot serve") from None
    assert done.returncode == 1, done.stderr[-2000:]
    assert "devices: refusing to start" in done.stderr and says in done.stderr
