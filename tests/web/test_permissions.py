"""Walk every registered route and socket event and check each role against its declared policy."""
from __future__ import annotations

import re

import pytest

from floor.models import ROLES
from floor.web.policy import PUBLIC, SOCKET_POLICIES

ROLE_USER = {"floor_manager": "manager", "pit_boss": "pitboss", "admin": "admin", "display": "display",
             "cashier": "cashier", "dealer": "dealer", "technician": "tech"}
SKIP = {"static"}   # files, public by design


def _url(rule) -> str:
    # Any value of the right type: the check is who gets in, not what they find.
    return re.sub(r"<(?:int:)?([^>]+)>", lambda m: "1", rule.rule)


def _routes(app):
    rules = [r for r in app.url_map.iter_rules() if r.endpoint not in SKIP]
    # Logging out ends the session: keep it for last.
    return sorted(rules, key=lambda r: r.endpoint == "auth.logout")


def test_every_route_declares_a_policy(app):
    from floor.web.policy import policy_of
    with app.test_request_context():
        missing = [r.endpoint for r in app.url_map.iter_rules()
                   if r.endpoint not in SKIP and policy_of(r.endpoint) is None]
    assert missing == [], f"routes without an access policy: {missing}"


def test_a_route_without_policy_is_refused(app, client, login):
    app.add_url_rule("/undeclared", "undeclared", lambda: "secret")
    login("admin")
    resp = client.get("/undeclared", headers={"Accept": "application/json"})
    assert resp.status_code == 403
    assert resp.get_json()["error"] == "no_policy"


def _call(client, rule, headers):
    methods = sorted(m for m in rule.methods if m not in ("HEAD", "OPTIONS"))
    method = "GET" if "GET" in methods else methods[0]
    return client.open(_url(rule), method=method, json={} if method != "GET" else None,
                       headers={"Accept": "application/json", **headers})


@pytest.mark.parametrize("role", [None, *ROLES])
def test_each_role_against_each_route(app, client, login, role):
    from floor.web.policy import policy_of
    headers = {}
    if role == "dealer":
        login.dealer(1)
        headers = login.headers()
    elif role is not None:
        login(ROLE_USER[role])
        headers = login.headers()
    wrong = []
    for rule in _routes(app):
        with app.test_request_context():
            roles = policy_of(rule.endpoint)
        resp = _call(client, rule, headers)
        status = resp.status_code
        if roles == PUBLIC:
            ok = status not in (401, 403)
        elif role is None:
            ok = status == 401 or (status == 302 and "/login" in resp.headers.get("Location", ""))
        elif role in roles:
            ok = status not in (401, 403)
        else:
            ok = status == 403
        if not ok:
            wrong.append(f"{rule.endpoint} {rule.rule}: {role or 'stranger'} got {status}")
    assert wrong == []


def test_a_stranger_gets_json_401_from_the_api_and_a_redirect_from_pages(client):
    api = client.get("/api/tables")
    assert api.status_code == 401
    assert api.get_json() == {"error": "not_authenticated", "message": "log in first"}
    page = client.get("/floor")
    assert page.status_code == 302 and "/login" in page.headers["Location"]


def test_a_wrong_role_gets_403_page_and_json(client, login):
    login("display")
    page = client.get("/pit")
    assert page.status_code == 403 and "Not allowed" in page.get_data(as_text=True)
    api = client.get("/api/alerts")
    assert api.status_code == 403 and api.get_json()["error"] == "wrong_role"


def test_a_dealer_terminal_is_bound_to_its_table(client, login):
    login.dealer(1)
    assert client.get("/dealer/1").status_code == 200
    other = client.get("/dealer/3")
    assert other.status_code == 403
    assert "bound to table 1" in other.get_data(as_text=True)


@pytest.mark.parametrize("role", [None, *ROLES])
def test_each_role_against_each_socket_event(app, client, login, socket_client, role):
    if role == "dealer":
        login.dealer(1)
    elif role is not None:
        login(ROLE_USER[role])
    sc = socket_client()
    connect_roles = SOCKET_POLICIES[("/live", "connect")]
    if role is None or role not in connect_roles:
        assert not sc.is_connected("/live")
        return
    assert sc.is_connected("/live")
    for (namespace, event), roles in SOCKET_POLICIES.items():
        if event == "connect":
            continue
        ack = sc.emit(event, {"table_id": 1}, namespace=namespace, callback=True)
        refused = isinstance(ack, dict) and ack.get("error") in ("not_allowed", "wrong_role", "not_authenticated")
        assert refused == (role not in roles), f"{event}: {role} got {ack}"
