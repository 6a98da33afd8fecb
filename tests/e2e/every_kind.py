"""A floor with something of every kind to show, made through the floor's own paths (its routes, and
the domain functions the device bridge, the scheduler and the jobs call), and the lists of those
kinds read from the code, so a kind added to the code and not made here fails the browser test that
uses this floor (tests/e2e/test_every_language.py).

Kinds read from the code: every alert kind (``AlertKind``), every reason a round is held for (the
``Msg`` templates handed to a hold), every entry of a round's timeline (``floor.pit.timeline``), and
every page a person opens (the app's GET routes that answer with a page)."""
from __future__ import annotations

import ast
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import requests
from sqlalchemy import create_engine, insert, select
from sqlalchemy.orm import Session

from floor import rounds
from floor.actors import Actor
from floor.errors import Msg
from floor.models import AlertKind, Ban, Player, Round, Seat, Staff, Table
from floor.pit import game_pace, wheel_watch
from floor.poker import mustmove, seating
from floor.poker import table as poker_table
from floor.rounds import bets as round_bets
from floor.rounds import cards as round_cards
from floor.rounds import line
from floor.settings import HouseSettings
from floor.tables import table_by_number
from floor import device_health
from tests.money import cash_in
from tests.servers import ROOT, browser_login

HOUSE = HouseSettings()
WHEEL, SHOE, BJ, CH = 12, 10, 14, 15          # the demo floor's live tables
TOURNAMENT_TABLES = (21, 22)                  # tables of their own: table 2 is the must-move table
SPARE = 4                                     # a closed Hold'em table
# A reason no browser test can make through a real path: the settlement of a round failing (a bug
# in a payout) is what holds it; its template is in the catalog like every other.
NOT_MADE = {"settlement failed: {error}"}


# --- the kinds, read from the code ---------------------------------------------------------------

def alert_kinds() -> set[str]:
    return {k.value for k in AlertKind}


def hold_templates() -> set[str]:
    """Every template a round is held with: the first argument of a ``Msg`` handed to ``hold``,
    ``_hold`` or an engine's ``Hold`` anywhere in floor/."""
    found = set()
    for path in (ROOT / "floor").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name not in ("hold", "_hold", "Hold"):
                continue
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                for sub in ast.walk(arg):
                    if (isinstance(sub, ast.Call) and getattr(sub.func, "id", "") == "Msg" and sub.args
                            and isinstance(sub.args[0], ast.Constant)):
                        found.add(sub.args[0].value)
                        break
    return found


def timeline_kinds() -> set[str]:
    """The kinds of entry a round's timeline lays out (``entries.append((..., ("frame", item)))``)."""
    text = (ROOT / "floor" / "pit" / "timeline.py").read_text()
    return set(re.findall(r"entries\.append\(\(.*?\(\"(\w+)\",", text, re.S))


def page_rules(app) -> set[str]:
    """The rules of the GET routes that answer with a page (not the API, files, exports or probes)."""
    out = set()
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static" or rule.rule.startswith(("/api", "/static", "/vendor")):
            continue
        if rule.rule.endswith((".csv", "/capture")) or rule.rule in ("/healthz", "/", "/openapi.json", "/favicon.ico") \
                or "swagger" in rule.rule or "redoc" in rule.rule or rule.rule.startswith("/docs"):
            continue
        out.add(rule.rule)
    return out


# --- the floor --------------------------------------------------------------------------------------

class Api:
    """A person logged in through the real login form, calling the JSON API."""

    def __init__(self, base: str, username: str, table: int | None = None, pin: str | None = None):
        self.base, self.s = base, requests.Session()
        if table is None:
            self.h = {"X-CSRFToken": browser_login(self.s, base, username)}
        else:
            html = self.s.get(f"{base}/dealer/{table}/login").text
            token = html.split('name="csrf-token" content="', 1)[1].split('"', 1)[0]
            r = self.s.post(f"{base}/dealer/{table}/login", data={"username": username, "pin": pin, "csrf_token": token},
                            allow_redirects=False)
            assert r.status_code == 302, r.text
            html = self.s.get(f"{base}/dealer/{table}").text
            self.h = {"X-CSRFToken": html.split('name="csrf-token" content="', 1)[1].split('"', 1)[0]}

    def post(self, path: str, body: dict | None = None, ok=(200, 201)):
        r = self.s.post(self.base + path, json=body or {}, headers=self.h)
        assert r.status_code in ok, (path, r.status_code, r.text)
        return r.json() if r.content else None

    def get(self, path: str):
        r = self.s.get(self.base + path)
        assert r.status_code == 200, (path, r.text)
        return r.json()


def _who(db: Session, username: str) -> Actor:
    s = db.execute(select(Staff).where(Staff.username == username)).scalar_one()
    return Actor(s.name, s.role, "e2e", s.id)


def _tid(db: Session, number: int) -> int:
    return table_by_number(db, number).id


def _ev(db: Session, fn, *args, **kw):
    """One device event in its own transaction, settled in the next when it gave a result."""
    out = fn(db, *args, **kw)
    rounds.commit_then_settle(db, out, house=HOUSE, at=kw.get("at"))
    return out


def seed(base: str, url: str) -> dict:
    """Fill the floor; returns what the pages need (round ids, the pass links)."""
    manager, pit, pit2 = Api(base, "manager"), Api(base, "pitboss"), Api(base, "pitboss2")
    made: dict = {}
    engine = create_engine(url)
    now = datetime.now(timezone.utc)
    with Session(engine) as db:
        # tables of the tournament's own (the demo room's tournament tables), so table 2 stays the
        # room's must-move table; a Hold'em table closed, which the floor may open beside the others
        game = table_by_number(db, 1).game_id
        for number, name, status in [*((n, f"Tournament {n}", "open") for n in TOURNAMENT_TABLES),
                                     (SPARE, "Hold'em 2/5 spare", "closed")]:
            t = Table(number=number, name=name, kind="poker", game_id=game, seat_count=10, status=status)
            t.seats = [Seat(number=n) for n in range(1, 11)]
            db.add(t)
        db.commit()

    # --- the poker room ---
    for seat, player in ((4, 5), (7, 6), (9, 21), (2, 4)):
        manager.post(f"/api/seating/tables/1/seats/{seat}/sit", {"player_id": player, "buy_in": 20_000})
    manager.post("/api/poker/tables/1/button", {"seat": 4, "new_game": True})
    for player in (3, 8):
        manager.post("/api/waitlists/1/entries", {"player_id": player})
    for player in (7, 21):      # three warnings ban: one with no seat, one whose seat is freed
        for _ in range(3):
            manager.post("/api/conduct/warnings", {"player_id": player, "reason": "electronic_device",
                                                   "ban_confirmed": True})
    manager.post("/api/conduct/bans", {"player_id": 1, "reason": "abusive to the dealer"})
    made["pass"] = manager.post("/api/waitlists/players/3/pass")["link"]
    ended = manager.post("/api/waitlists/players/8/pass")["link"]
    made["pass_ended"] = ended
    r = manager.post("/api/tournaments", {
        "name": "Daily Turbo", "game_id": 1, "buy_in": 10_000, "fee": 1_500, "bounty_kind": "knockout",
        "bounty": 2_000, "seats_per_table": 9, "table_numbers": list(TOURNAMENT_TABLES)})
    tn = r["id"]
    for player in range(9, 21):
        manager.post(f"/api/tournaments/{tn}/entries", {"player_id": player})
    seated = manager.post(f"/api/tournaments/{tn}/start")["entries"]
    mate = next(e for e in seated if e["table"] == seated[0]["table"] and e["id"] != seated[0]["id"])
    manager.post(f"/api/tournaments/{tn}/busts", {"busts": [{"entry_id": seated[0]["id"], "chips_at_start": 5_000}],
                                                  "winners": [mate["id"]]})
    made["tournament"], made["entry"] = tn, seated[1]["id"]

    with Session(engine) as db:
        boss, mgr = _who(db, "pitboss"), _who(db, "manager")
        # must-move: table 2 feeds table 1; the first in its order refuses to move (a ban)
        t1, t2, t3 = (table_by_number(db, n) for n in (1, 2, 3))
        mustmove.open_table(db, mgr, HOUSE, t2, feeds=t1, now=now)
        for seat, player in ((1, 22), (2, 23), (3, 24)):
            seating.sit(db, mgr, HOUSE, t2, seat, player, 20_000, now + timedelta(seconds=seat))
        db.commit()
        mustmove.refuse(db, mgr, HOUSE, table_by_number(db, 2), 22, "wants to stay", now + timedelta(seconds=5))
        db.commit()
        # a player away while his game's list waits: the chip pickup alert
        away = seating.mark_away(db, mgr, HOUSE, t1, 2, now - timedelta(hours=2))
        db.commit()
        seating.pickup_alert(db, away.id, now)
        # missed-blind tickets at table 3: one short of the forfeit (at risk), then the forfeit
        seating.sit(db, mgr, HOUSE, t3, 1, 2, 20_000, now)
        db.commit()
        dealer = _who(db, "dealer")
        for n in range(HOUSE.missed_blind_tickets_to_forfeit):
            poker_table.issue_ticket(db, dealer, table_by_number(db, 3), 1, f"missed while away ({n + 1})", HOUSE, now)
            db.commit()
        db.commit()

    # --- the pit: a baccarat coup typed at the terminal, with bets, voided above the threshold (a
    # second pit boss approves it: every entry of a timeline) ---
    pit.post(f"/api/tables/{SHOE}/shoe")
    pit.post(f"/api/tables/{SHOE}/round/open")
    pit.post(f"/api/tables/{SHOE}/bets", {"spot": "player", "amount": 100_000, "seat": 1})
    pit.post(f"/api/tables/{SHOE}/bets", {"spot": "tie", "amount": 8_500, "seat": 2})
    pit.post(f"/api/tables/{SHOE}/round/close")
    for card in ("2D", "5C", "TH", "9S", "KD"):
        pit.post(f"/api/tables/{SHOE}/round/card", {"card": card})
    with Session(engine) as db:
        coup = db.execute(select(Round.id).where(Round.table_id == _tid(db, SHOE)).order_by(Round.id.desc())).scalars().first()
    # the settled coup, corrected (above the threshold: pending, then approved by a second pit boss)
    ruling = pit.post(f"/api/pit/rounds/{coup}/rulings", {"kind": "void", "reason": "misdeal"})
    pit2.post(f"/api/pit/rulings/{ruling['id']}/approve", {"reason": "seen on camera"})
    made["coup"] = coup
    # a second coup settled, its void left waiting for a second pit boss
    pit.post(f"/api/tables/{SHOE}/round/open")
    pit.post(f"/api/tables/{SHOE}/bets", {"spot": "banker", "amount": 90_000, "seat": 3})
    pit.post(f"/api/tables/{SHOE}/bets", {"spot": "tie", "amount": 20_000, "seat": 4})   # lost: the void moves 1,100
    pit.post(f"/api/tables/{SHOE}/round/close")
    for card in ("4C", "2D", "5H", "3S"):
        pit.post(f"/api/tables/{SHOE}/round/card", {"card": card})
    with Session(engine) as db:
        second = db.execute(select(Round.id).where(Round.table_id == _tid(db, SHOE)).order_by(Round.id.desc())).scalars().first()
    assert pit.post(f"/api/pit/rounds/{second}/rulings", {"kind": "void", "reason": "misdeal"})["state"] == "pending"
    made["pending"] = second

    # baccarat on entry by hand: the cards keyed by a pit boss refused by a second person (held)
    pit.post(f"/api/tables/{SHOE}/entry", {"by_hand": True, "reason": "the shoe does not read"})
    pit.post(f"/api/tables/{SHOE}/round/open")
    pit.post(f"/api/tables/{SHOE}/round/close")
    for card in ("9C", "3D", "QH", "4S"):
        pit.post(f"/api/tables/{SHOE}/round/card", {"card": card})
    with Session(engine) as db:
        keyed = db.execute(select(Round.id).where(Round.table_id == _tid(db, SHOE)).order_by(Round.id.desc())).scalars().first()
    manager.post(f"/api/rounds/{keyed}/refuse-hand", {"reason": "the banker had a five"})
    pit.post(f"/api/tables/{SHOE}/entry", {"by_hand": False})
    with Session(engine) as db:
        made["late"] = _holds(db, now)
        _devices(db, now)
        _wheel_watch(db, now)
        # table 14 dealt slowly for the last hour: the pace alert
        bj = _tid(db, BJ)
        db.execute(insert(Round.__table__), [
            {"table_id": bj, "number": 100 + i, "kind": "blackjack", "status": "settled", "opened_at": t,
             "result_at": t, "ended_at": t, "result": {}, "device": {}, "steps": 0, "version": 3}
            for i, t in enumerate(now - timedelta(minutes=m) for m in range(90, 0, -3))])
        db.commit()
        assert game_pace.check(db, HOUSE, now)
        db.commit()

    # a Casino Hold'em card that does not fit the deal (the second ace of spades of one deck)
    pit.post(f"/api/tables/{CH}/round/open")
    pit.post(f"/api/tables/{CH}/bets", {"spot": "ante", "amount": 1_000, "seat": 1})
    pit.post(f"/api/tables/{CH}/round/close")
    pit.post(f"/api/tables/{CH}/round/card", {"card": "AS"})
    pit.post(f"/api/tables/{CH}/round/card", {"card": "AS"}, ok=(200, 201, 409))
    pit.post(f"/api/tables/{SHOE}/round/open")      # the terminal shows a coup taking bets

    # table 12's chips: an opening count waiting for a second person, a fill waiting for the cage;
    # table 14 counted in and out with chips missing (the reconciliation alert)
    pit.post(f"/api/tables/{WHEEL}/counts", {"kind": "opening", "chips": {"10000": 100}})
    pit.post(f"/api/tables/{WHEEL}/slips", {"kind": "fill", "chips": {"10000": 5, "2500": 4}})
    cid = pit.post(f"/api/tables/{BJ}/counts", {"kind": "opening", "chips": {"10000": 100}})["id"]
    pit2.post(f"/api/tables/{BJ}/counts/{cid}/verify")
    cid = pit.post(f"/api/tables/{BJ}/counts", {"kind": "closing", "chips": {"10000": 101, "2500": 2}})["id"]
    pit2.post(f"/api/tables/{BJ}/counts/{cid}/verify")

    with Session(engine) as db:
        made["held"] = db.execute(select(Round.id).where(Round.status == "held").order_by(Round.id)).scalars().all()
        # a held round of each table, for its timeline: device frames, cards refused
        made["timelines"] = sorted({db.get(Round, r).table_id: r for r in reversed(made["held"])}.values())
        made["bans"] = [b.reason for b in db.execute(select(Ban)).scalars()]
    engine.dispose()
    # the second pass ends: its player taken off his list
    entry = next(e for lst in manager.get("/api/waitlists") for e in lst["entries"] if e["player"]["id"] == 8)
    manager.post(f"/api/waitlists/entries/{entry['id']}/remove", {"reason": "left the casino"})
    return made


def _holds(db: Session, now: datetime) -> int:
    """A round held for each reason the devices give, through the bridge's own entry points."""
    shoe, wheel = _tid(db, SHOE), _tid(db, WHEEL)
    dealer = _who(db, "dealer")
    t = [now - timedelta(minutes=30)]

    def at(step: float = 1) -> datetime:
        t[0] += timedelta(seconds=step)
        return t[0]

    # --- the wheel (status lines and bare numbers) ---
    spin = [500]

    def status(state, flags=(), winning=None, step=1, new=False):
        if new:
            spin[0] += 1
        return _ev(db, rounds.wheel_status, wheel, state, spin[0], flags, at(step), winning=winning,
                   raw=f"*X;{state};{spin[0]}".encode(), device="wheel-12", house=HOUSE,
                   rpm=31.0 if state == 4 else None, direction=spin[0] % 2 if state == 4 else None)

    status(2, new=True)
    status(3, {"fault"})                                            # wheel fault
    status(2, new=True)
    status(4)
    spin[0] += 1
    status(2)                                                        # moved on without a result
    status(2, new=True)
    status(3, {"failed_launch"})
    status(3, {"failed_launch"}, step=4)                            # failed launch over 3 s
    status(2, new=True)
    status(5, winning=7)                                             # result without no more bets
    status(2, new=True)
    status(6)                                                        # closed mid-round
    status(2, new=True)
    status(4)
    status(1)                                                        # reset without a result
    status(2, new=True)
    status(4)
    _ev(db, rounds.wheel_number, wheel, spin[0], 7, at(), raw=b"07", device="wheel-12")
    status(5, winning=8)                                             # bare 7, state 5 says 8
    spin[0] += 1
    status(5, winning=3)                                             # a result with no round: stray
    # a round with a funded player's bets, one slipping in after the line's lock (late bets)
    cash_in(db, 1, 50_000, "e2e", house=HOUSE)
    db.commit()
    status(2, new=True)
    round_bets.place(db, dealer, wheel, spot="straight", numbers=[17], amount=1_000, player_id=1, at=at(), house=HOUSE)
    db.commit()
    late_at = at()
    round_bets.place(db, dealer, wheel, spot="red", numbers=None, amount=2_000, player_id=1, at=at(), house=HOUSE)
    db.commit()
    line.record_lock(db, wheel, "wheel-12", late_at, "no_more_bets")
    db.commit()
    status(3)
    status(4)
    _ev(db, rounds.wheel_number, wheel, spin[0], 17, at(), raw=b"17", device="wheel-12")
    out = status(5, winning=17)
    late = out.round_id
    # the line's device process behind: betting paused
    line.pause(db, wheel, "wheel-12", 2_500, at())
    db.commit()
    line.resume(db, wheel, "wheel-12", at())
    db.commit()
    # a device fault mid-round (the line lost)
    rounds.open_betting(db, dealer, wheel, at(), house=HOUSE)
    rounds.device_fault(db, wheel, Msg("wheel lost (no status line for {seconds} s mid-round)", seconds=6), at(),
                        raw=b"", device="wheel-12")
    db.commit()

    # --- the shoe ---
    def card(c, target=None, index=None):
        return _ev(db, rounds.card, shoe, c, "shoe", target, at(), index=index, raw=f"\x02C{c}\x03".encode(),
                   device="shoe-10", house=HOUSE)

    def coup():
        rounds.open_betting(db, dealer, shoe, at(), house=HOUSE)
        db.commit()
        _ev(db, rounds.coup_start, shoe, at(), raw=b"\x02S\x03", device="shoe-10", house=HOUSE)

    rounds.shoe_lock(db, shoe, True, at(), raw=b"\x02L1\x03", device="shoe-10")
    db.commit()
    card("7H", "player", 1)                                          # locked, no round: stray card
    coup()
    card("7H", "player", 1)                                          # locked mid-coup: held
    rounds.shoe_lock(db, shoe, False, at(), raw=b"\x02L0\x03", device="shoe-10")
    db.commit()
    coup()
    card("2C", "player", 2)                                          # misdeal: player 2 for player 1
    coup()
    card("2C", "banker")                                             # misdeal: banker for player
    coup()
    for c, target in (("4C", "player"), ("2D", "banker"), ("5H", "player"), ("3S", "banker")):
        card(c, target)
    card("6D", "player")                                             # misdeal: no more cards wanted
    rounds.open_betting(db, dealer, shoe, at(), house=HOUSE)
    db.commit()
    _ev(db, rounds.shoe_result, shoe, "player", False, False, at(), raw=b"\x02G\x03", device="shoe-10")  # before no more bets
    coup()
    _ev(db, rounds.shoe_result, shoe, "quit", False, False, at(), raw=b"\x02G\x03", device="shoe-10")    # reports quit
    coup()
    card("4C", "player")
    _ev(db, rounds.shoe_result, shoe, "player", False, False, at(), raw=b"\x02G\x03", device="shoe-10")  # before complete
    coup()
    for c, target in (("4C", "player"), ("2D", "banker"), ("5H", "player"), ("3S", "banker")):
        card(c, target)
    _ev(db, rounds.shoe_result, shoe, "banker", False, False, at(), raw=b"\x02G\x03", device="shoe-10")  # says banker
    # the shoe's decks of one card all out (burnt), then one more: beyond the shoe's decks
    decks = rounds.current_shoe(db, shoe).decks
    for _ in range(decks):
        card("AS", "burn")
    coup()
    card("AS", "player", 1)
    coup()
    card("8C", "player")
    r = rounds.active_round(db, shoe)
    round_cards.device_silent(db, r.id, r.steps, at(HOUSE.device_wait_seconds + 1), HOUSE)  # the shoe went quiet
    db.commit()
    # a frame the line refused (a sequence number used again): alerted and filed
    rounds.refused_frame(db, shoe, "sequence number reused", at(), raw=b"\x02C9S\x03", device="shoe-10")
    db.commit()
    return late


def _devices(db: Session, now: datetime) -> None:
    """Device health turning lost, faulty and unplugged; the host's clock stepping under a reader."""
    from devices.dispatch import RoundsDispatch
    from devices.events import ClockStep
    base = {"table": BJ, "kind": "scanner", "port": "/dev/pts/9", "state": "running", "connected": True,
            "lost": False, "fault": None}
    for name, change in (("scanner-14", {"lost": True}), ("scanner-15", {"fault": "lamp"}),
                         ("shoe-10b", {"connected": False})):
        device_health.record(db, name, {**base, "state": "running"}, _tid(db, BJ), now)
        device_health.record(db, name, {**base, **change}, _tid(db, BJ), now)
    db.commit()
    RoundsDispatch(None, HOUSE).event(db, _tid(db, BJ), "scanner-14", "scanner", ClockStep(seconds=3.5), now)
    db.commit()


def _wheel_watch(db: Session, now: datetime) -> None:
    """A window of spins all on one arc, turning the same way, the rotor too slow: the wheel watch
    raises its three alerts."""
    wheel = _tid(db, WHEEL)
    n = HOUSE.wheel_window_spins
    first = (db.execute(select(Round.number).where(Round.table_id == wheel).order_by(Round.number.desc())).scalars().first() or 0) + 1
    start = now - timedelta(hours=30)
    db.execute(insert(Round.__table__), [
        {"table_id": wheel, "number": first + i, "kind": "roulette", "status": "settled", "spin": 10_000 + i,
         "opened_at": start + timedelta(seconds=90 * i), "result_at": start + timedelta(seconds=90 * i),
         "ended_at": start + timedelta(seconds=90 * i), "result": {"number": (17, 34, 6)[i % 3]},
         "device": {"rpm": 12.0, "direction": 0}, "steps": 0, "version": 3} for i in range(n)])
    db.commit()
    assert {a.kind for a in wheel_watch.check(db, HOUSE, now)} == {
        "possible_bias", "direction_not_alternating", "speed_out_of_range"}
    db.commit()


def players_named(db: Session) -> dict[int, str]:
    return dict(db.execute(select(Player.id, Player.name)).all())


__all__ = ["seed", "alert_kinds", "hold_templates", "timeline_kinds", "page_rules", "NOT_MADE"]
