"""The demo floor as `make run` serves it: one server process with the scheduler, the readers and
the simulators on ptys, and the demo dealers. Unattended, every live game plays rounds through the
real device path and settles them; the books balance; nothing strays or is held."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
import requests
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from floor import ledger
from floor.models import Alert, Round, Settlement
from tests.e2e_devices.conftest import make_engine
from tests.servers import Server, browser_login

KINDS = ("roulette", "baccarat", "blackjack", "casino_holdem")
STRAY = ("card_no_round", "result_without_no_more_bets", "impossible_card", "round_held", "device_fault")
DEMO_ENV = {"FLOOR_APP_RUN_DEVICES": "true", "FLOOR_APP_SIMULATE_DEVICES": "true", "FLOOR_APP_RUN_SCHEDULER": "true",
            "FLOOR_APP_SIMULATOR_SPEED": "8"}


def start_demo(db_url: str, instance: Path) -> Server:
    return Server(db_url, instance, **DEMO_ENV).wait()   # the hang guard of every server (120 s)


def settled_with_bets(session: Session) -> dict[str, int]:
    rows = session.execute(select(Round.kind, func.count(Round.id)).join(Settlement, Settlement.round_id == Round.id)
                           .where(Round.status == "settled", Settlement.bets > 0).group_by(Round.kind)).all()
    return dict(rows)


def wait_for_every_game(engine, rounds_each: int = 1, timeout: float = 240.0) -> dict[str, int]:
    deadline = time.monotonic() + timeout
    while True:
        with Session(engine) as s:
            done = settled_with_bets(s)
        if all(done.get(k, 0) >= rounds_each for k in KINDS):
            return done
        if time.monotonic() > deadline:
            raise AssertionError(f"after {timeout} s the demo floor settled only {done}")
        time.sleep(0.5)


@pytest.fixture
def demo(db_url, tmp_path):
    server = start_demo(db_url, tmp_path / "instance")
    engine = make_engine(db_url)
    yield server, engine
    server.stop()
    engine.dispose()


def test_the_demo_floor_plays_every_game_through_the_devices(demo):
    server, engine = demo
    done = wait_for_every_game(engine, rounds_each=2)
    assert set(done) >= set(KINDS)
    with Session(engine) as s:
        check = ledger.check(s)
        assert check.ok, check
        alerts = s.execute(select(Alert.kind, Alert.message).where(Alert.kind.in_(STRAY))).all()
        assert alerts == []
        assert s.execute(select(func.count(Round.id)).where(Round.status == "held")).scalar_one() == 0

    # what the pit boss and the board see through the web
    web = requests.Session()
    token = browser_login(web, server.url, "pitboss")
    check = web.get(server.url + "/api/ledger/check", headers={"X-CSRFToken": token}).json()
    assert check["ok"] and check["total"] == 0
    games = {g["kind"]: g for g in web.get(server.url + "/api/board/games").json()}
    assert games["roulette"]["last"] and games["roulette"]["spins"] >= 2
    assert games["baccarat"]["beads"] and games["baccarat"]["shoe"]["status"] in ("active", "last_coup")
    # the demo dealer confirmed the shoe to the device (GP 00) and the devices are all connected
    health = {d["name"]: d for d in web.get(server.url + "/api/devices").json()}
    assert {"wheel-12", "shoe-10", "scanner-14", "scanner-15"} <= set(health)
    assert all(health[n]["connected"] for n in ("wheel-12", "shoe-10", "scanner-14", "scanner-15"))
    # the pit's numbers: a dealer at every live table, each round his, players rated from their seats
    rotation = web.get(server.url + "/api/rotation").json()
    assert all(t["dealer"] for t in rotation["tables"]) and len(rotation["breaks"]) == 1
    with Session(engine) as s:
        assert s.execute(select(func.count(Round.id)).where(Round.status == "settled",
                                                            Round.dealer_id.is_(None))).scalar_one() == 0
    rated = web.get(server.url + "/api/pit/ratings").json()
    assert rated["players"] and rated["totals"]["staked"] > 0 and rated["totals"]["theo"] > 0
    server.stop()
    log = Path(server.log.name).read_text()
    assert "demo dealer at table" not in log and "bridge:" not in log, log[-3000:]
    # a shutdown is no line fault: the devices stop without "disconnected" alerts
    with Session(engine) as s:
        assert s.execute(select(Alert.message).where(Alert.kind.like("device_%"))).all() == []
