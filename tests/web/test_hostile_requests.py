"""Every route, sent what a hostile integrator would send, answers a 4xx with {error, message, field}:
numbers past what the columns hold, 1e308, deep nesting, NUL and control characters, long texts,
unknown fields, a missing or oversized body. Never a 500, on either database."""
from __future__ import annotations

import json
import re

import pytest

from floor import staff
from floor.actors import Actor
from tests.conftest import app_session

USERS = {"admin": "admin", "floor_manager": "manager", "pit_boss": "pitboss", "dealer": "dealer",
         "cashier": "cashier", "display": "display",
         "technician": "tech"}
HUGE = [2**31, 2**63, 2**64, -(2**63) - 1, 1e308, -1e308, 1.5, True]
DEEP = "[" * 30_000 + "]" * 30_000    # under the 64 KiB limit: the parser's recursion is what breaks


def _bodies() -> list:
    texts = ["a\x00b", "x" * 20_000, "\u202e\x1b[2J", "", None, [], {"a": {"b": [1]}}]
    bodies: list = [{"unknown_field": 1}, [], "text", 0, None]
    for value in HUGE + texts:
        bodies.append({k: value for k in ("amount", "player_id", "seat", "number", "table_number", "reason",
                                          "name", "card_number", "spot", "card", "kind", "memo", "cards",
                                          "chips", "total", "day", "method")})
    for value in HUGE + texts:     # a count or a slip's chips: hostile keys and counts by denomination
        bodies.append({"kind": "fill", "chips": {"10000": value}})
        bodies.append({"kind": "opening", "chips": {str(value)[:40]: 1}})
    return bodies


def _routes(app) -> list[tuple[str, str, list[str]]]:
    out = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        roles = sorted(getattr(app.view_functions[rule.endpoint], "_floor_roles", None) or [])
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            out.append((method, rule.rule, roles))
    return out


def _path(rule: str, value=None) -> str:
    """The route with ordinary ids (table 12, the roulette; id 1 otherwise), or with ``value`` everywhere."""
    def fill(m):
        if value is not None:
            return str(value)
        return "12" if "table" in m.group(1) else "1"
    return re.sub(r"<(?:int:)?([a-z_]+)>", fill, rule)


def _tokens(app) -> dict[str, dict]:
    out = {}
    with app_session(app) as s:
        for role, username in USERS.items():
            token = staff.create_token(s, Actor.system("test"), username, "hostile",
                                       table_number=12 if role == "dealer" else None)
            out[role] = {"Authorization": f"Bearer {token}"}
    return out


def _assert_clean(resp, what: str) -> None:
    assert resp.status_code < 500, f"{what}: {resp.status_code} {resp.get_data(as_text=True)[:300]}"
    if resp.status_code >= 400:
        body = resp.get_json(silent=True)
        assert isinstance(body, dict) and {"error", "message"} <= set(body), f"{what}: {resp.get_data(as_text=True)[:200]}"


@pytest.mark.slow
@pytest.mark.timeout(900)    # about 2,500 requests, longer on a loaded machine
def test_hostile_bodies_paths_and_queries_never_get_a_500(app, client):
    tokens = _tokens(app)
    bodies = [json.dumps(b) for b in _bodies()] + [DEEP, "{", "\x00", '{"a": ' * 5000]
    queries = ["?table_number=99999999999999999999", "?limit=1e308", "?days=-1", "?q=%00", "?before_id=" + "9" * 40,
               "?table_number=1&table_number=2", "?number=" + "1" * 400]
    routes = _routes(app)
    assert len(routes) > 80
    for method, rule, roles in routes:
        headers = tokens[roles[0]] if roles and roles[0] in tokens else {}
        for value in (2**31, 2**63, 10**30, -1):
            if "<" in rule:
                _assert_clean(client.open(_path(rule, value), method=method, headers=headers), f"{method} {rule} {value}")
        path = _path(rule)
        if method == "GET":
            for q in [""] + queries:
                _assert_clean(client.get(path + q, headers=headers), f"GET {path}{q}")
            continue
        _assert_clean(client.open(path, method=method, headers=headers), f"{method} {path} without a body")
        for body in bodies:
            resp = client.open(path, method=method, data=body, content_type="application/json", headers=headers)
            _assert_clean(resp, f"{method} {path} {body[:60]!r}")


def test_a_body_over_64_kib_is_413_json(app, client):
    tokens = _tokens(app)
    resp = client.post("/api/players", data=json.dumps({"name": "x" * 70_000, "card_number": "1"}),
                       content_type="application/json", headers=tokens["floor_manager"])
    assert resp.status_code == 413 and resp.get_json()["error"] == "request_entity_too_large"


@pytest.mark.parametrize("body,field", [
    ({"name": "Nul\x00Byte", "card_number": "123"}, "name"),
    ({"name": "Ann", "card_number": "1" * 41}, "card_number"),
    ({"name": "A" * 121, "card_number": "123"}, "name"),
    ({"name": "Ann", "card_number": "123", "extra": 1}, "extra"),
])
def test_texts_are_refused_by_name_before_the_database(app, client, body, field):
    tokens = _tokens(app)
    resp = client.post("/api/players", json=body, headers=tokens["floor_manager"])
    assert resp.status_code == 400 and resp.get_json()["field"] == field


def test_deep_nesting_is_400_bad_json(app, client):
    tokens = _tokens(app)
    resp = client.post("/api/cashier/players/1/credit", data=DEEP, content_type="application/json",
                       headers=tokens["cashier"])
    assert resp.status_code == 400 and resp.get_json()["error"] == "bad_json"


def test_a_layout_no_chip_covers_is_400_naming_the_numbers(app, client):
    tokens = _tokens(app)
    opened = client.post("/api/tables/12/round/open", json={}, headers=tokens["pit_boss"])
    assert opened.status_code == 201
    for numbers in ([1, 5], [2, 3, 4], [37], [-1]):
        resp = client.post("/api/tables/12/bets", json={"spot": "split" if len(numbers) == 2 else "street",
                                                         "numbers": numbers, "amount": 500, "seat": 1},
                           headers=tokens["dealer"])
        assert resp.status_code == 400 and resp.get_json()["field"] == "numbers", (numbers, resp.get_json())
