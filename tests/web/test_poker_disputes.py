"""The pit boss's poker showdown tool: who wins each pot by the house rules, and the ruling recorded."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from floor import audit
from floor.models import AuditRecord, PokerRuling

HAND = {
    "table_number": 1,
    # Left of the button: seat 4 all-in for 100.00, seat 6 and seat 8 cover it and go on to 300.00.
    "seats": [
        {"seat": 4, "hole": "AH AD", "put_in": 10_000},
        {"seat": 6, "hole": "KS KC", "put_in": 30_000},
        {"seat": 8, "hole": "QH JH", "put_in": 30_000},
    ],
    "boards": ["AS KH 7D 2C 9S"],
}


@pytest.fixture
def pitboss(login):
    login("pitboss")
    return login


def test_side_pots_are_laid_out_and_won_by_the_right_seats(pitboss):
    resp = pitboss.post("/api/pit/poker/showdown", json=HAND)
    assert resp.status_code == 200, resp.get_json()
    res = resp.get_json()
    assert res["pots"] == [{"amount": 30_000, "eligible": [4, 6, 8]}, {"amount": 40_000, "eligible": [6, 8]}]
    # Trip aces take the main pot; trip kings the side pot.
    assert res["won"] == {"4": 30_000, "6": 40_000, "8": 0}
    assert res["hands"]["4"] == ["three_of_a_kind"] and res["hands"]["6"] == ["three_of_a_kind"]


def test_run_twice_and_rake(pitboss):
    hand = {**HAND, "seats": [{"seat": 1, "hole": "AH AD", "put_in": 20_000}, {"seat": 2, "hole": "KS KC", "put_in": 20_000}],
            "boards": ["2C 7D 9S JH 3C", "KD 7H 9H 4C 5S"], "rake": 500}
    res = pitboss.post("/api/pit/poker/showdown", json=hand).get_json()
    # 400.00 less 5.00 rake = 395.00, half per run: aces win run one, a set of kings run two.
    assert res["won"] == {"1": 19_750, "2": 19_750}


def test_a_ruling_is_recorded_with_its_reason_and_audited(pitboss, session):
    resp = pitboss.post("/api/pit/poker/rulings", json={**HAND, "hand_ref": "1-482", "reason": "dealer pushed the side pot to seat 4"})
    assert resp.status_code == 201
    body = resp.get_json()
    assert body["table_number"] == 1 and body["hand_ref"] == "1-482" and body["result"]["won"]["6"] == 40_000
    row = session.scalars(select(PokerRuling)).one()
    assert row.reason == "dealer pushed the side pot to seat 4" and row.variant == "holdem"
    rec = session.scalars(select(AuditRecord).where(AuditRecord.action == "poker.ruling")).one()
    assert rec.actor == "Paul Pitboss" and rec.role == "pit_boss"
    assert audit.verify(session).ok
    listed = pitboss.client.get("/api/pit/poker/rulings?table_number=1").get_json()
    assert [r["id"] for r in listed] == [row.id]


@pytest.mark.parametrize("change,field", [
    ({"boards": ["AS KH 7D 2C"]}, "hand"),                                  # a board of four
    ({"seats": [{"seat": 4, "hole": "AH AS", "put_in": 100}, {"seat": 6, "hole": "KS KC", "put_in": 100}]}, "hand"),  # AS twice
    ({"seats": [{"seat": 4, "hole": "AH XX", "put_in": 100}, {"seat": 6, "hole": "KS KC", "put_in": 100}]}, "hand"),
    ({"seats": [{"seat": 4, "hole": "AH AD", "put_in": -5}, {"seat": 6, "hole": "KS KC", "put_in": 100}]}, "seats.0.put_in"),
    ({"table_number": 10}, "table"),
])
def test_impossible_hands_are_refused_naming_what_is_wrong(pitboss, session, change, field):
    resp = pitboss.post("/api/pit/poker/rulings", json={**HAND, **change, "hand_ref": "x", "reason": "test case"})
    assert resp.status_code == 400, resp.get_json()
    assert resp.get_json()["field"] == field
    assert session.scalars(select(PokerRuling)).all() == []


@pytest.mark.parametrize("user", ["manager", "display"])
def test_only_pit_bosses_rule(login, user):
    login(user)
    assert login.post("/api/pit/poker/rulings", json={**HAND, "hand_ref": "x", "reason": "nope"}).status_code == 403


def test_dealers_cannot_rule(login):
    login.dealer(1)
    assert login.post("/api/pit/poker/showdown", json=HAND).status_code == 403
