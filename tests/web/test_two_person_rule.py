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
