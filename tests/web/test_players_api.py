"""Registering a player at the podium: likely duplicates, column widths, search by part of a name or card."""
from __future__ import annotations

import pytest


@pytest.fixture
def manager(login):
    login("manager")
    return login


def test_a_namesake_is_a_likely_duplicate_until_confirmed(manager):
    resp = manager.post("/api/players", json={"name": "  alice   MARTIN ", "card_number": "99000001"})
    assert resp.status_code == 409
    body = resp.get_json()
    assert body["error"] == "likely_duplicate" and body["field"] == "name"
    assert "Alice Martin" in body["message"] and "70000001" in body["message"]
    again = manager.post("/api/players", json={"name": "Alice Martin", "card_number": "99000001", "same_name_confirmed": True})
    assert again.status_code == 201 and again.get_json()["card_number"] == "99000001"


def test_likely_duplicates_by_name_or_card(client, manager):
    by_name = client.get("/api/players/likely-duplicates?name=alice%20martin").get_json()
    assert [p["card_number"] for p in by_name] == ["70000001"]
    by_card = client.get("/api/players/likely-duplicates?name=Nobody&card_number=70000001").get_json()
    assert [p["name"] for p in by_card] == ["Alice Martin"]
    assert client.get("/api/players/likely-duplicates?name=Nobody%20Here").get_json() == []


@pytest.mark.parametrize("field,value", [("name", "N" * 121), ("card_number", "7" * 41), ("phone", "0" * 41)])
def test_values_longer_than_their_column_are_refused(manager, field, value):
    body = {"name": "Long Value", "card_number": "99000002", field: value}
    resp = manager.post("/api/players", json=body)
    assert resp.status_code == 400 and resp.get_json()["field"] == field


def test_search_by_part_of_a_name_or_card_in_any_order(client, manager):
    assert [p["name"] for p in client.get("/api/players?q=mart%20ali").get_json()] == ["Alice Martin"]
    assert "Alice Martin" in [p["name"] for p in client.get("/api/players?q=000000").get_json()]
    assert client.get("/api/players?q=%25").get_json() == []


def test_search_ignores_accents_and_case_both_ways(client, manager):
    """Typed on a tablet without accents: "chloe", "muller", "zoe" find Chloé Favre, Iris Müller and
    Zoë; typed with them, too; a new player is found at once (bulk or one by one)."""
    assert manager.post("/api/players", json={"name": "Zoë Brändli", "card_number": "99000003"}).status_code == 201
    found = {q: [p["name"] for p in client.get(f"/api/players?q={q}").get_json()]
             for q in ("chloe", "muller", "zoe", "MÜLLER", "Chloé fav", "brandli", "iris%20mu")}
    assert found == {"chloe": ["Chloé Favre"], "muller": ["Iris Müller"], "zoe": ["Zoë Brändli"],
                     "MÜLLER": ["Iris Müller"], "Chloé fav": ["Chloé Favre"], "brandli": ["Zoë Brändli"],
                     "iris%20mu": ["Iris Müller"]}
    assert client.get("/api/players?q=_").get_json() == []          # a LIKE wildcard is a character
