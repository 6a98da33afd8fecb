"""A player's pass over HTTP and Socket.IO: the floor issues it (a link and its QR code), the link opens
his own lists only, in his phone's language; his room on the live feed hears only that something of
his changed; nothing reaches another player's entries or a staff route; guessing links is limited."""
from __future__ import annotations

import json
import re
from urllib.parse import urlparse

from floor.models import AuditRecord, Player, PlayerPass, Table
from floor.poker import queries, seating
from tests.conftest import app_session, csrf_token
from tests.floor.poker_helpers import HOUSE, fill, manager


def _listed(app, login, *pids, game=1):
    login("manager")
    ids = []
    for pid in pids:
        r = login.post(f"/api/waitlists/{game}/entries", json={"player_id": pid})
        assert r.status_code == 201, r.get_json()
        ids.append(r.get_json()["id"])
    return ids


def _issue(login, pid) -> tuple[str, dict]:
    r = login.post(f"/api/waitlists/players/{pid}/pass", json={})
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    return urlparse(body["link"]).path.rsplit("/", 1)[1], body


def _phone(app, lang="fr-CH,fr;q=0.9,en;q=0.5"):
    c = app.test_client()
    c.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    return c


def test_the_floor_issues_a_pass_its_link_opens_his_lists_only(app, login):
    a, b = _listed(app, login, 11, 12)
    token, body = _issue(login, 12)
    assert re.fullmatch(r"[A-Za-z0-9_-]{32}", token)          # 192 bits, url-safe
    assert body["qr_svg"].startswith("<svg") and f'data-link="{body["link"]}"' in body["qr_svg"]
    with app_session(app) as s:
        row = s.get(PlayerPass, body["id"])
        assert token not in row.token_hash and len(row.token_hash) == 64
        p11, p12 = s.get(Player, 11), s.get(Player, 12)
        names = {p11.name, p12.name, p11.card_number, p12.card_number}
        assert s.query(AuditRecord).filter_by(action="pass.issue", subject="player:12").count() == 1
    phone = _phone(app)
    r = phone.get(f"/api/pass/{token}")
    assert r.status_code == 200
    state = r.get_json()
    assert [(x["entry_id"], x["place"], x["waiting"], x["status"]) for x in state["lists"]] == [(b, 2, 2, "waiting")]
    text = json.dumps(state, ensure_ascii=False)
    assert p11.name not in text and p11.card_number not in text and p12.card_number not in text
    page = phone.get(f"/p/{token}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'lang="fr"' in html and p11.name not in html
    csp = page.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "connect-src 'self'" in csp and "script-src 'self'" in csp
    assert page.headers["Cache-Control"] == "no-store"
    assert 'lang="de"' in _phone(app, "de-DE,de;q=0.9").get(f"/p/{token}").get_data(as_text=True)
    del names


def test_a_pass_reaches_nothing_but_its_own_entries(app, login):
    a, b = _listed(app, login, 11, 12)
    token, _ = _issue(login, 12)
    phone = _phone(app)
    phone.get(f"/p/{token}")
    headers = {"X-CSRFToken": csrf_token(phone)}
    # another player's entry: 404, as one that never was; his entry stays
    for action in ("on-my-way", "take-off"):
        r = phone.post(f"/api/pass/{token}/entries/{a}/{action}", json={}, headers=headers)
        assert r.status_code == 404 and r.get_json()["error"] == "no_entry", r.get_json()
    # no staff route opens with it, whichever way it is sent
    for url in ("/api/waitlists", "/api/floor/state", f"/api/players/11", "/floor", "/board", "/api/board"):
        for h in ({}, {"Authorization": f"Bearer {token}"}):
            r = phone.get(url, headers={**h, "Accept": "application/json"})
            assert r.status_code in (401, 403), (url, h, r.status_code)
            assert "Player" not in r.get_data(as_text=True)
    with app_session(app) as s:
        assert [e.id for e in queries.open_entries(s, 1)] == [a, b]
    # not called: "on my way" is refused, in his language
    r = phone.post(f"/api/pass/{token}/entries/{b}/on-my-way", json={}, headers=headers)
    assert r.status_code == 409 and r.get_json()["error"] == "not_called"


def test_a_withdrawn_or_unknown_pass_shows_a_plain_page_and_guessing_is_limited(app, login):
    _listed(app, login, 11)
    token, _ = _issue(login, 11)
    r = login.post("/api/waitlists/players/11/pass/revoke", json={})
    assert r.status_code == 200 and len(r.get_json()["revoked"]) == 1
    phone = _phone(app, "de")
    page = phone.get(f"/p/{token}")
    assert page.status_code == 410
    html = page.get_data(as_text=True)
    assert 'lang="de"' in html and "<script" not in html and "/login" not in html
    assert phone.get(f"/api/pass/{token}").get_json()["error"] == "pass_revoked"
    with app_session(app) as s:
        assert s.query(AuditRecord).filter_by(action="pass.revoke").count() == 1
    guesser = app.test_client()
    codes = [guesser.get(f"/api/pass/guess{k:028d}").status_code for k in range(40)]
    assert codes[:30] == [404] * 30 and 429 in codes[30:], codes
    pages = [guesser.get(f"/p/guess{k:028d}") for k in range(31)]
    assert [p.status_code for p in pages[:30]] == [404] * 30 and pages[30].status_code == 429
    assert pages[30].mimetype == "text/html" and "<script" not in pages[30].get_data(as_text=True)
    # a real pass on another address is not held up by the guesser
    _listed(app, login, 12)
    token2, _ = _issue(login, 12)
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "10.0.0.9"
    assert other.get(f"/api/pass/{token2}").status_code == 200


def test_a_pass_client_hears_its_own_entries_only(app, login, socket_client):
    with app_session(app) as s:
        main = s.query(Table).filter_by(number=1).one()
        fill(s, main, range(1, 11))
    a, b, c = _listed(app, login, 11, 12, 13)
    tok_a, _ = _issue(login, 11)
    tok_c, _ = _issue(login, 13)
    with app_session(app) as s:
        names = [s.get(Player, pid).name for pid in (11, 12, 13)]
    phone_a = socket_client(flask_client=app.test_client(), auth={"pass": tok_a})
    phone_c = socket_client(flask_client=app.test_client(), auth={"pass": tok_c})
    assert phone_a.is_connected("/live") and phone_c.is_connected("/live")
    refused = socket_client(flask_client=app.test_client(), auth={"pass": "x" * 32})
    assert not refused.is_connected("/live")
    for sc in (phone_a, phone_c):
        sc.get_received("/live")
    # a staff event: the floor's staff hear it, the passes do not
    with app_session(app) as s:
        t = s.query(Table).filter_by(number=1).one()
        seating.leave(s, manager(s), HOUSE, queries.open_assignment(s, t.id, 3), "left", 0)
    heard_a = phone_a.get_received("/live")
    heard_c = phone_c.get_received("/live")
    assert [m["name"] for m in heard_a] == ["pass.changed"] and [m["name"] for m in heard_c] == ["pass.changed"]
    # b (not a pass holder) is called: a and c are each sent their own state, as their page would ask it
    r = login.post(f"/api/waitlists/entries/{b}/call", json={"table_number": 1, "seat_number": 3, "reason": "test"})
    assert r.status_code == 201, r.get_json()
    heard_a = phone_a.get_received("/live")
    heard_c = phone_c.get_received("/live")
    assert [m["name"] for m in heard_a] == ["pass.changed"] and [m["name"] for m in heard_c] == ["pass.changed"]
    for heard, token, mine, place, pid in ((heard_a, tok_a, a, 1, 11), (heard_c, tok_c, c, 3, 13)):
        state = heard[0]["args"][0]
        asked = app.test_client().get(f"/api/pass/{token}").get_json()
        assert {**state, "at": None} == {**asked, "at": None}
        assert [(x["entry_id"], x["place"], x["status"]) for x in state["lists"]] == [(mine, place, "waiting")]
        theirs = [n for other, n in zip((11, 12, 13), names) if other != pid]
        assert not any(n in json.dumps(heard, ensure_ascii=False) for n in theirs)
        others = {a, b, c} - {mine}
        assert not {x["entry_id"] for x in state["lists"]} & others
    # a staff-only event never reaches a pass: the join is refused
    ack = phone_a.emit("join_table", {"table_id": 1}, namespace="/live", callback=True)
    assert ack["error"] in ("not_authenticated", "wrong_role")
    # his pass withdrawn: his page is told, the other pass is not
    r = login.post("/api/waitlists/players/11/pass/revoke", json={})
    assert r.status_code == 200
    told = phone_a.get_received("/live")
    assert [(m["name"], m["args"][0]["error"]) for m in told] == [("pass.changed", "pass_revoked")]
    assert phone_c.get_received("/live") == []
