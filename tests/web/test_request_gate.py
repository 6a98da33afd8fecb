"""What every request meets before a view runs, and what every answer carries: security headers,
one JSON parser (no duplicate keys, no form or empty body read as {}), ASCII ids in paths, the 413
that closes its connection, names without invisible characters, who approves a cash request."""
from __future__ import annotations

import pytest

from tests.conftest import Login


@pytest.mark.parametrize("path", ["/login", "/floor", "/board", "/api/tables", "/api/no-such-route",
                                  "/static/css/app.css", "/healthz"])
def test_every_answer_forbids_framing_and_sniffing(client, login, path):
    login("manager")
    resp = client.get(path)
    assert resp.headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in resp.headers["Content-Security-Policy"]
    assert resp.headers["X-Content-Type-Options"] == "nosniff"


def test_a_key_given_twice_is_refused_and_nothing_is_made(client, login):
    login("manager")
    body = '{"name": "Ann Twice", "card_number": "DUP-1", "card_number": "DUP-2"}'
    resp = client.post("/api/players", data=body, content_type="application/json", headers=login.headers())
    assert resp.status_code == 400 and resp.get_json()["error"] == "bad_json"
    assert "card_number" in resp.get_json()["message"]
    assert client.get("/api/players?q=Ann Twice").get_json() == []


@pytest.mark.parametrize("how", ["empty", "text/plain", "form"])
def test_a_body_that_is_not_json_is_not_taken_for_an_empty_object(client, login, how):
    login("manager")
    kw = {"empty": {"data": b"", "content_type": "application/json"},
          "text/plain": {"data": '{"name": "Ann Plain", "card_number": "TP-1"}', "content_type": "text/plain"},
          "form": {"data": {"name": "Ann Form", "card_number": "FO-1"}}}[how]
    # every field of "open a table" has a default: read as {}, the body would open table 2
    resp = client.post("/api/floor/tables/2/open", headers=login.headers(), **kw)
    assert resp.status_code in (400, 415), resp.get_data(as_text=True)
    assert resp.get_json()["error"] in ("bad_json", "unsupported_media_type")
    assert [t["status"] for t in client.get("/api/tables").get_json() if t["number"] == 2] == ["closed"]
    resp = client.post("/api/players", headers=login.headers(), **kw)
    assert resp.status_code in (400, 415)
    assert client.get("/api/players?q=Ann P").get_json() == [] and client.get("/api/players?q=Ann F").get_json() == []


def test_an_action_without_fields_still_takes_no_body(client, login):
    login("manager")
    # closing a table takes no field: no body is what a client sends
    assert client.post("/api/floor/tables/999/close", headers=login.headers()).status_code == 404


@pytest.mark.parametrize("digits", ["%EF%BC%95", "%D9%A5", "%E0%A5%AB"])   # fullwidth, Arabic-Indic, Devanagari 5
def test_an_id_in_another_scripts_digits_is_not_found(client, login, digits):
    login("manager")
    assert client.get("/api/players/5").status_code == 200
    resp = client.get(f"/api/players/{digits}")
    assert resp.status_code == 404


def test_a_body_too_large_closes_its_connection(client, login):
    login("manager")
    resp = client.post("/api/players", data="x" * (65 * 1024), content_type="application/json",
                       headers=login.headers())
    assert resp.status_code == 413 and resp.get_json()["error"] == "request_entity_too_large"
    assert resp.headers["Connection"] == "close"


@pytest.mark.parametrize("name", ["Ann\u202eecnA", "Ann\u200bSmith", "\ufeffAnn", "Ann\u2066Smith\u2069",
                                  "Ann\u200dSmith", "Ann\u061cSmith"])
def test_names_with_invisible_or_direction_characters_are_refused(client, login, name):
    login("manager")
    resp = login.post("/api/players", json={"name": name, "card_number": "RTL1"})
    assert resp.status_code == 400 and resp.get_json()["field"] == "name"
    assert client.get("/api/players?q=Smith").get_json() == []


def test_names_in_other_scripts_are_welcome(client, login):
    login("manager")
    resp = login.post("/api/players", json={"name": "Zoë Ľudmila أحمد", "card_number": "UNI1"})
    assert resp.status_code == 201


def test_a_cash_request_is_approved_by_a_pit_boss_not_an_admin(app, login):
    login("cashier")
    made = login.post("/api/cashier/players/4/credit", json={"amount": 3_000_000}).get_json()["pending"]
    admin = Login(app.test_client())
    admin("admin")
    resp = admin.post(f"/api/cashier/requests/{made['id']}/approve", json={"reason": "ok"})
    assert resp.status_code == 403 and resp.get_json()["error"] == "wrong_role"
    boss = Login(app.test_client())
    boss("pitboss")
    assert boss.post(f"/api/cashier/requests/{made['id']}/approve", json={"reason": "ok"}).status_code == 200
