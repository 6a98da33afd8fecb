"""Bad input gets a clear 4xx naming what is wrong, and changes nothing. A 500 is a bug."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select

from floor.models import Player


@pytest.fixture
def manager(login):
    login("manager")
    return login


def _players(session):
    return session.scalar(select(func.count(Player.id)))


def test_malformed_json_is_400_bad_json(client, manager, session):
    before = _players(session)
    resp = client.post("/api/players", data="{name: oops", content_type="application/json", headers=manager.headers())
    assert resp.status_code == 400
    assert resp.get_json()["error"] == "bad_json"
    assert _players(session) == before


@pytest.mark.parametrize("body,field", [
    ({"name": 5, "card_number": "1"}, "name"),
    ({"name": "Ann"}, "card_number"),
    ({"name": "Ann", "card_number": ["1"]}, "card_number"),
    ({"name": "Ann", "card_number": "1", "nickname": "x"}, "nickname"),
])
def test_wrong_types_and_missing_fields_name_the_field(client, manager, session, body, field):
    before = _players(session)
    resp = manager.post("/api/players", json=body)
    assert resp.status_code == 400
    data = resp.get_json()
    assert data["error"] == "bad_input" and data["field"] == field and field in data["message"]
    assert _players(session) == before


def test_domain_validation_names_the_field(manager):
    resp = manager.post("/api/players", json={"name": "Ann", "card_number": "12-34"})
    assert resp.status_code == 400 and resp.get_json()["field"] == "card_number"


def test_duplicate_card_is_a_conflict(manager):
    resp = manager.post("/api/players", json={"name": "Copy Cat", "card_number": "70000001"})
    assert resp.status_code == 409 and resp.get_json()["error"] == "card_taken"


def test_unknown_ids_are_404_json(client, manager):
    assert client.get("/api/tables/99").get_json() == {"error": "not_found", "message": "no table number 99"}
    assert client.get("/api/players/424242").status_code == 404
    resp = manager.post("/api/alerts/777/acknowledge", json={})
    assert resp.status_code == 404 and resp.get_json()["error"] == "not_found"


def test_unknown_route_and_wrong_method_are_json_for_the_api(client, manager):
    assert client.get("/api/nothing-here").status_code == 404
    resp = manager.put("/api/tables", json={})
    assert resp.status_code == 405 and resp.get_json()["error"] == "method_not_allowed"


def test_socket_event_with_a_bad_payload_gets_an_error_ack(login, socket_client):
    login("manager")
    sc = socket_client()
    assert sc.emit("join_table", {"table_id": "one"}, namespace="/live", callback=True)["field"] == "table_id"
    assert sc.emit("join_table", "garbage", namespace="/live", callback=True)["error"] == "bad_input"
    assert sc.emit("join_table", {"table_id": 999}, namespace="/live", callback=True)["error"] == "not_found"
    assert sc.is_connected("/live")
