"""Taps that cannot be taken back are refused with the reason when they would break a running game."""
from __future__ import annotations

from floor.models import Round
from tests.conftest import app_session


def test_closing_a_table_game_with_a_round_running_is_refused_with_the_reason(app, client, login):
    login.dealer(14)
    assert login.post("/api/tables/14/round/open", json={}).status_code == 201
    for seat in (1, 2, 3):
        assert login.post("/api/tables/14/bets", json={"spot": "bet", "amount": 1_000, "seat": seat}).status_code == 201
    assert login.post("/api/tables/14/round/close", json={}).get_json()["round"]["status"] == "dealing"
    # Open betting while the round is dealing: a refusal, not a 500.
    again = login.post("/api/tables/14/round/open", json={})
    assert again.status_code == 409 and again.get_json()["error"] == "round_running"
    login("manager")
    resp = login.post("/api/floor/tables/14/close", json={})
    assert resp.status_code == 409
    body = resp.get_json()
    assert body["error"] == "round_running"
    assert "dealing" in body["message"] and "3" in body["message"]
    assert client.get("/api/tables/14").get_json()["status"] == "open"
    with app_session(app) as session:
        assert session.query(Round).filter_by(status="dealing").count() == 1
