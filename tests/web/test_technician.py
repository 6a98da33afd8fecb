"""A technician sees the devices and nothing of money or players: every route and socket event open to
the role, walked from the app's own map, and what the role gets when it tries the rest."""
from __future__ import annotations

from floor.web.policy import PUBLIC, SOCKET_POLICIES, policy_of
from floor.web.sockets import rooms_of

DEVICES_ONLY = {"device_live.page", "device_live.capture", "api_devices.list_devices", "auth.logout"}


def test_the_routes_a_technician_may_use_are_the_devices_and_nothing_else(app):
    with app.test_request_context():
        open_to = {r.endpoint for r in app.url_map.iter_rules()
                   if (roles := policy_of(r.endpoint)) is not None and roles != PUBLIC and "technician" in roles}
    assert open_to == DEVICES_ONLY
    events = {event for (_, event), roles in SOCKET_POLICIES.items() if "technician" in roles}
    assert events == {"connect", "join_devices", "leave_devices"}
    assert rooms_of("technician") == ["role:technician"]      # no floor room, no board


def test_a_technician_is_refused_money_and_players_and_lands_on_the_devices(client, login):
    login("tech")
    assert client.get("/").headers["Location"].endswith("/devices/live")
    assert client.get("/devices/live").status_code == 200
    assert client.get("/api/devices").status_code == 200
    for url in ("/api/tables", "/api/players", "/api/alerts", "/floor", "/pit", "/pit/ratings", "/board",
                "/api/board", "/pit/shift.csv", "/cage", "/tournaments"):
        resp = client.get(url, headers={"Accept": "application/json"})
        assert resp.status_code in (403, 404), (url, resp.status_code)
        if resp.status_code == 403:
            assert resp.get_json()["error"] == "wrong_role", url
    resp = client.post("/api/cashier/players/1/credit", json={"amount": 100}, headers=login.headers())
    assert resp.status_code == 403


def test_the_device_process_is_told_of_an_open_page_until_it_closes(app, client, login, socket_client):
    """The devices' room is joined on asking; the note that somebody watches (what the device process
    publishes by) lasts while the page is there: leaving or disconnecting takes it away at once."""
    watchers = app.extensions["floor_device_watchers"]
    login("tech")
    sc = socket_client()
    assert not watchers.any()
    assert sc.emit("join_devices", {}, namespace="/live", callback=True) == {"ok": True, "room": "devices"}
    assert watchers.any()
    assert sc.emit("leave_devices", {}, namespace="/live", callback=True) == {"ok": True}
    assert not watchers.any()
    sc.emit("join_devices", {}, namespace="/live", callback=True)
    assert watchers.any()
    sc.disconnect(namespace="/live")
    assert not watchers.any()
