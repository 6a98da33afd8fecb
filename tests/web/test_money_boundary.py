"""Amounts at the money boundary: whole cents from 1 to the house maximum, refused by name otherwise,
on every path (HTTP and the domain), and the books stay whole on both databases."""
from __future__ import annotations

import pytest
from sqlalchemy import text

from floor import ledger
from floor.actors import Actor
from floor.errors import BadInput
from floor.rounds import bets
from floor.settings import HouseSettings
from tests.conftest import Login, app_session

HOUSE = HouseSettings()
CAGE = Actor("Cleo", "cashier", "cage")


@pytest.fixture
def cashier(login):
    login("cashier")
    return login


def _balance(app, player_id: int) -> int:
    with app_session(app) as s:
        return ledger.player_balance(s, player_id)


@pytest.mark.parametrize("amount", [4611686018427387904, 2**63, 2**31, 100_000_001, 1e308, 1.5, 100.0, True,
                                    "100", 0, -5, None])
def test_a_credit_outside_whole_cents_up_to_the_maximum_is_400_naming_the_field(app, client, cashier, amount):
    before = _balance(app, 2)
    for _ in range(2):
        resp = cashier.post("/api/cashier/players/2/credit", json={"amount": amount})
        assert resp.status_code == 400, resp.get_json()
        body = resp.get_json()
        assert body["error"] == "bad_input" and body["field"] == "amount"
    assert _balance(app, 2) == before


def test_the_house_maximum_itself_is_taken_and_the_books_stay_whole(app, client, login):
    login("pitboss")
    waiting = []
    for _ in range(2):   # above the cashier's two-person threshold: each waits for a second pit boss
        resp = login.post("/api/cashier/players/2/credit", json={"amount": HOUSE.max_amount_cents})
        assert resp.status_code == 202, resp.get_json()
        waiting.append(resp.get_json()["pending"]["id"])
    assert login.post("/api/cashier/players/2/credit", json={"amount": HOUSE.max_amount_cents + 1}).status_code == 400
    second = Login(app.test_client())
    second("pitboss2")
    for request_id in waiting:
        assert second.post(f"/api/cashier/requests/{request_id}/approve", json={}).status_code == 200
    assert _balance(app, 2) >= 2 * HOUSE.max_amount_cents
    check = client.get("/api/ledger/check")
    assert check.status_code == 200 and check.get_json()["ok"]


def test_a_debit_over_the_maximum_is_refused_before_the_balance_is_looked_at(app, cashier):
    resp = cashier.post("/api/cashier/players/2/debit", json={"amount": 10**30})
    assert resp.status_code == 400 and resp.get_json()["field"] == "amount"


@pytest.mark.parametrize("body,field", [
    ({"spot": "red", "amount": 1_000, "player_id": 1.5}, "player_id"),
    ({"spot": "red", "amount": 1_000, "player_id": True}, "player_id"),
    ({"spot": "red", "amount": 10.5, "player_id": 1}, "amount"),
    ({"spot": "red", "amount": 2**40, "player_id": 1}, "amount"),
    ({"spot": "red", "amount": 1_000, "player_id": 2**31}, "player_id"),
    ({"spot": "red", "amount": 1_000, "numbers": [1e308]}, "numbers"),
])
def test_bets_refuse_floats_bools_and_huge_numbers_by_name(app, login, body, field):
    login("pitboss")
    resp = login.post("/api/tables/12/bets", json=body)
    assert resp.status_code == 400, resp.get_json()
    assert resp.get_json()["field"] == field


def test_the_domain_refuses_what_no_route_checked(app):
    """A caller that skips the schemas (a job, a device, a script) meets the same rule."""
    with app_session(app) as s:
        for bad in (10**20, 1.5, True, 0):
            with pytest.raises(BadInput) as refused:
                ledger.credit(s, CAGE, 1, bad, house=HOUSE)
            assert refused.value.field == "amount"
        with pytest.raises(BadInput) as refused:
            bets.place(s, CAGE, 1, spot="red", amount=HOUSE.max_amount_cents + 1, player_id=1, house=HOUSE)
        assert refused.value.field == "amount"
        small = HouseSettings(max_amount_cents=500)
        with pytest.raises(BadInput):
            ledger.credit(s, CAGE, 1, 501, house=small)
        ledger.credit(s, CAGE, 1, 500, house=small)


def test_sqlite_money_columns_hold_only_integers(app, db_url):
    if not db_url.startswith("sqlite"):
        pytest.skip("PostgreSQL BIGINT columns refuse a float by their type")
    from sqlalchemy.exc import IntegrityError
    with app_session(app) as s:
        ledger.credit(s, CAGE, 1, 1_000, house=HOUSE)
    for sql in ("UPDATE accounts SET balance = balance + 0.5 WHERE key = 'player:1'",
                "UPDATE accounts SET balance = 9.3e18 WHERE key = 'player:1'",
                "UPDATE transfers SET amount = 1.5 WHERE id = (SELECT max(id) FROM transfers)"):
        with app_session(app) as s:
            with pytest.raises(IntegrityError):
                s.execute(text(sql))
                s.flush()
            s.rollback()
    assert _balance(app, 1) >= 1_000
