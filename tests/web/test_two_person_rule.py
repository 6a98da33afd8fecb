"""The two-person rule has no side door: every route that moves money for a round or a player, taken
by one pit boss with an amount above the threshold, moves nothing (the ledger is unchanged) until a
different pit boss approves. The same pit boss cannot approve his own move."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from floor import ledger
from floor.actors import Actor
from floor.models import Round, Transfer
from floor.settings import HouseSettings
from tests.conftest import Login, app_session
from tests.money import cash_in
from tests.web.roulette_rounds import held as _held

HOUSE = HouseSettings()   # rounds: 1,000.00; the cashier: 10,000.00
CAGE = Actor("Cleo", "cashier", "cage")


def _books(app, player_id: int) -> tuple[int, int]:
    with app_session(app) as s:
        return ledger.player_balance(s, player_id), s.scalar(select(func.count(Transfer.id)))


@dataclass
class Case:
    name: str
    arrange: Callable          # app -> (url, body, round id or None, the ruling that takes the way round)
    refused: tuple[int, str]   # what one pit boss gets: 409 and its code, or 201/202 "pending" (it waits)


def _direct_settle(app):
    # 100.00 straight on 17 pays 3,600.00: stakes alone are under the threshold, what moves is not.
    rid = _held(app, {"straight:17": 10_000}, 4)
    return (f"/api/rounds/{rid}/settle", {"number": 17}, rid,
            {"kind": "correct", "number": 17, "reason": "camera shows 17"})


def _direct_settle_from_record(app):
    rid = _held(app, {"straight:17": 10_000}, 4)
    with app_session(app) as s:       # the wheel read 17 twice before its fault
        r = s.get(Round, rid)
        r.device = {**(r.device or {}), "bare": 17, "five": 17}
    return (f"/api/rounds/{rid}/settle", {}, rid, {"kind": "confirm", "reason": "the wheel read 17 twice"})


def _direct_void(app):
    rid = _held(app, {"red": 40_000, "odd": 40_000, "low": 40_000}, 4)
    return (f"/api/rounds/{rid}/void", {"reason": "wheel fault"}, rid, {"kind": "void", "reason": "wheel fault"})


def _ruling_correct_held(app):
    rid = _held(app, {"straight:17": 10_000}, 4)
    return (f"/api/pit/rounds/{rid}/rulings", {"kind": "correct", "number": 17, "reason": "camera shows 17"}, rid, None)


def _ruling_void_held(app):
    rid = _held(app, {"red": 40_000, "odd": 40_000, "low": 40_000}, 4)
    return (f"/api/pit/rounds/{rid}/rulings", {"kind": "void", "reason": "wheel fault"}, rid, None)


def _ruling_resettle(app):
    # Settled on 17 (the straight won 3,600.00); the ball was in 18: the correction takes it back.
    rid = _held(app, {"straight:17": 10_000}, 4, settle_on=17)
    return (f"/api/pit/rounds/{rid}/rulings", {"kind": "correct", "number": 18, "reason": "ball in 18"}, rid, None)


def _ruling_void_settled(app):
    rid = _held(app, {"straight:17": 10_000}, 4, settle_on=17)
    return (f"/api/pit/rounds/{rid}/rulings", {"kind": "void", "reason": "wrong wheel"}, rid, None)


def _cash_credit(app):
    return ("/api/cashier/players/4/credit", {"amount": 2_000_000}, None, None)


def _cash_debit(app):
    with app_session(app) as s:
        cash_in(s, 4, 2_700_000)
    return ("/api/cashier/players/4/debit", {"amount": 2_500_000}, None, None)


ROUTES = [
    Case("settle a held round with a result", _direct_settle, (409, "two_person_rule")),
    Case("settle a held round from the record", _direct_settle_from_record, (409, "two_person_rule")),
    Case("void a held round", _direct_void, (409, "two_person_rule")),
    Case("correct a held round", _ruling_correct_held, (201, "pending")),
    Case("void a held round by ruling", _ruling_void_held, (201, "pending")),
    Case("correct a settled round (re-settle)", _ruling_resettle, (201, "pending")),
    Case("void a settled round", _ruling_void_settled, (201, "pending")),
    Case("cashier credit", _cash_credit, (202, "pending")),
    Case("cashier debit", _cash_debit, (202, "pending")),
]


def _second(app) -> Login:
    other = Login(app.test_client())
    other("pitboss2")
    return other


@pytest.mark.parametrize("case", ROUTES, ids=[c.name for c in ROUTES])
def test_one_pit_boss_alone_moves_nothing_above_the_threshold(app, client: FlaskClient, login, case: Case):
    url, body, rid, ruling_body = case.arrange(app)
    before = _books(app, 4)
    login("pitboss")
    resp = login.post(url, json=body)
    status, code = case.refused
    assert resp.status_code == status, resp.get_json()
    data = resp.get_json()
    if status == 409:
        assert data["error"] == code
    assert _books(app, 4) == before, "one pit boss moved money"

    # The way through: a request or ruling by him, approved by a different pit boss.
    if status == 409:
        made = login.post(f"/api/pit/rounds/{rid}/rulings", json=ruling_body)
        assert made.status_code == 201 and made.get_json()["state"] == "pending", made.get_json()
        approve = f"/api/pit/rulings/{made.get_json()['id']}/approve"
    elif status == 201:
        assert data["state"] == "pending" and data["needs_approval"]
        approve = f"/api/pit/rulings/{data['id']}/approve"
    else:
        assert data["pending"]["state"] == "pending"
        approve = f"/api/cashier/requests/{data['pending']['id']}/approve"
    assert _books(app, 4) == before
    own = login.post(approve, json={})
    assert own.status_code == 403 and own.get_json()["error"] in ("own_ruling", "own_request")
    assert _books(app, 4) == before, "he approved his own move"
    if rid is not None:   # nor may he take the direct route while his ruling waits
        for direct in (f"/api/rounds/{rid}/settle", f"/api/rounds/{rid}/void"):
            again = login.post(direct, json={} if direct.endswith("settle") else {"reason": "again"})
            assert again.status_code == 409 and _books(app, 4) == before

    second = _second(app)
    done = second.post(approve, json={"reason": "seen it"})
    assert done.status_code == 200, done.get_json()
    assert _books(app, 4) != before, "the approved move did not happen"
    check = second.client.get("/api/ledger/check").get_json()
    assert check["ok"], check


def test_withdrawing_a_ruling_opens_no_side_door(app, login):
    url, body, rid, _ = _ruling_correct_held(app)
    before = _books(app, 4)
    login("pitboss")
    made = login.post(url, json=body).get_json()
    assert made["state"] == "pending"
    assert login.post(f"/api/pit/rulings/{made['id']}/reject", json={"reason": "changed my mind"}).status_code == 200
    resp = login.post(f"/api/rounds/{rid}/settle", json={"number": 17})
    assert resp.status_code == 409 and resp.get_json()["error"] == "two_person_rule"
    assert _books(app, 4) == before


def test_below_the_thresholds_one_person_moves_money(app, login):
    rid = _held(app, {"straight:17": 1_000}, 4)       # 10.00 + 360.00
    before = _books(app, 4)
    login("pitboss")
    assert login.post(f"/api/rounds/{rid}/settle", json={"number": 17}).status_code == 200
    assert _books(app, 4)[0] == before[0] + 36_000
    login("cashier")
    resp = login.post("/api/cashier/players/4/credit", json={"amount": HOUSE.cashier_two_person_cents})
    assert resp.status_code == 200 and resp.get_json()["pending"] is None


def test_a_cashier_request_is_decided_once_and_a_rejection_moves_nothing(app, login):
    login("cashier")
    made = login.post("/api/cashier/players/4/credit", json={"amount": 3_000_000}).get_json()["pending"]
    before = _books(app, 4)
    assert [r["id"] for r in login.client.get("/api/cashier/requests").get_json()] == [made["id"]]
    assert login.post(f"/api/cashier/requests/{made['id']}/approve", json={}).status_code == 403   # a cashier
    boss = _second(app)
    assert boss.post(f"/api/cashier/requests/{made['id']}/reject", json={"reason": "no ID shown"}).status_code == 200
    assert boss.post(f"/api/cashier/requests/{made['id']}/approve", json={}).status_code == 409
    assert _books(app, 4) == before


# --- the walk, tournaments included: every kind of money the ledger's check holds for a second person ---

TOURNAMENT = {"name": "Walk Cup", "game_id": 1, "buy_in": 10_000, "fee": 1_500, "structure": "daily_turbo",
              "seats_per_table": 10, "final_table_size": 9, "table_numbers": [41, 42]}


def _tournament(app, one: Login, entrants: int, **values) -> tuple[int, list[int]]:
    from tests.floor.tournaments.helpers import players, tables
    with app_session(app) as s:
        tables(s, (41, 42))
        ids = players(s, entrants)
    desk = Login(app.test_client())
    desk("manager")
    t = desk.post("/api/tournaments", json=TOURNAMENT | values).get_json()
    for p in ids:
        assert desk.post(f"/api/tournaments/{t['id']}/entries", json={"player_id": p, "paid_with": "cash"}).status_code == 201
    return t["id"], ids


def _late_registration_over(app, tid: int) -> list[int]:
    from datetime import timedelta
    from floor.models import Tournament, TournamentEntry
    with app_session(app) as s:
        t = s.get(Tournament, tid)
        t.started_at = t.started_at - timedelta(hours=12)
        s.commit()
        return list(s.scalars(select(TournamentEntry.id).where(TournamentEntry.tournament_id == tid)
                              .order_by(TournamentEntry.id)))


def _walk_deal(app, one: Login):
    from floor.tournaments import eliminations
    from tests.money import staff
    tid, _ = _tournament(app, one, 3)
    assert one.post(f"/api/tournaments/{tid}/start").status_code == 200
    a, b, c = _late_registration_over(app, tid)
    with app_session(app) as s:
        eliminations.bust(s, staff(s, "manager"), HOUSE, tid, [{"entry_id": a, "chips_at_start": 100}], [b])
        s.commit()
    deal = one.post(f"/api/tournaments/{tid}/deals", json={"method": "icm", "save": 0, "stacks": [
        {"entry_id": b, "chips": 35_000}, {"entry_id": c, "chips": 25_000}]}).get_json()["id"]
    assert one.post(f"/api/tournaments/{tid}/deals/{deal}/agree", json={"entry_id": b}).status_code == 200
    return (f"/api/tournaments/{tid}/deals/{deal}/agree", {"entry_id": c}, f"/api/tournaments/{tid}/deals/{deal}/approve",
            lambda data: data["status"] == "agreed")


def _walk_cancel_running(app, one: Login):
    tid, _ = _tournament(app, one, 3)
    desk = Login(app.test_client())
    desk("manager2")
    assert desk.post(f"/api/tournaments/{tid}/start").status_code == 200
    stacks = [{"entry_id": e, "chips": 20_000} for e in _late_registration_over(app, tid)]
    return (f"/api/tournaments/{tid}/cancel", {"reason": "power cut", "stacks": stacks, "rule": "refund"},
            f"/api/tournaments/{tid}/cancel/approve", lambda data: data["pending"])


def _walk_cancel_before_start(app, one: Login):
    tid, _ = _tournament(app, one, 2)
    return (f"/api/tournaments/{tid}/cancel", {"reason": "no field"}, f"/api/tournaments/{tid}/cancel/approve",
            lambda data: data["pending"])


def _walk_guarantee(app, one: Login):
    tid, _ = _tournament(app, one, 2, guarantee=5_000_000)
    return (f"/api/tournaments/{tid}/start", {}, f"/api/tournaments/{tid}/guarantee/approve", None)


WALK = {   # purpose -> (who asks, the path, who approves)
    "deal": ("manager", _walk_deal, "pitboss2"),
    "cancellation": ("pitboss", _walk_cancel_running, "manager"),
    "cancellation before the start": ("manager", _walk_cancel_before_start, "pitboss"),
    "overlay": ("manager", _walk_guarantee, "pitboss"),
}


@pytest.mark.parametrize("name", list(WALK))
def test_tournament_money_waits_for_a_second_person_on_every_path(app, name):
    asker, arrange, approver = WALK[name]
    one = Login(app.test_client())
    one(asker)
    url, body, approve, waiting = arrange(app, one)
    before = _books(app, 4), _total(app)
    resp = one.post(url, json=body)
    if waiting is None:
        assert resp.status_code == 409 and resp.get_json()["error"] == "two_person_rule", resp.get_json()
    else:
        assert resp.status_code in (200, 202) and waiting(resp.get_json()), resp.get_json()
    assert (_books(app, 4), _total(app)) == before, "one person moved money"
    own = one.post(approve, json={})
    assert own.status_code == 403, own.get_json()
    second = Login(app.test_client())
    second(approver)
    assert second.post(approve, json={}).status_code == 200
    if waiting is None:   # the approved guarantee: the start goes through now
        assert one.post(url, json=body).status_code == 200
    else:
        assert _books(app, 4)[1] > before[0][1], "the approved move did not happen"
    with app_session(app) as s:
        assert ledger.check(s).ok


def _total(app) -> int:
    """What all the players' balances hold together."""
    with app_session(app) as s:
        from floor.models import Account
        return int(s.scalar(select(func.coalesce(func.sum(Account.balance), 0)).where(Account.kind == "player")))


def test_the_walk_covers_every_kind_of_money_that_needs_a_second_person():
    """A new kind of money with a two-person threshold and no path in the walk fails here."""
    walked = {"cash_in", "cash_out", "desk_cash", "table_slip"} | {name.split()[0] for name in WALK}
    # cash_in / cash_out: the cashier cases above; desk_cash: tests/web/test_money_from_one_pair_of_hands.py;
    # table_slip: tests/web/test_table_money_api.py (a fill above the threshold, route by route)
    needing = {str(p) for p, rule in ledger.RULES.items() if rule.threshold is not None}
    assert needing <= walked, sorted(needing - walked)
