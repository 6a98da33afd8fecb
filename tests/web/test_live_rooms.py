"""The live feed is scoped like REST: a client of each role, connected with the real Socket.IO test
client, hears only what that role (and a dealer's table) may read through the API."""
from __future__ import annotations

import json

from floor import staff
from floor.actors import Actor
from floor.models import Player, Table
from tests.conftest import app_session

ROLES = {"admin": "admin", "floor_manager": "manager", "pit_boss": "pitboss", "cashier": "cashier",
         "display": "display", "dealer_10": "dealer", "dealer_14": "dealer", "technician": "tech"}


def _connect(app, socket_client) -> dict:
    clients = {}
    with app_session(app) as s:
        tokens = {who: staff.create_token(s, Actor.system("test"), username, "live",
                                          table_number=int(who.split("_")[1]) if who.startswith("dealer") else None)
                  for who, username in ROLES.items()}
    for who, token in tokens.items():
        sc = socket_client(flask_client=app.test_client(), auth={"token": token})
        assert sc.is_connected("/live"), who
        sc.get_received("/live")
        clients[who] = sc
    return clients


def _heard(sc) -> list[tuple[str, str]]:
    return [(m["name"], json.dumps(m["args"], ensure_ascii=False)) for m in sc.get_received("/live")]


def test_a_dealer_terminal_hears_its_own_table_and_never_a_player_at_another(app, socket_client):
    with app_session(app) as s:
        player = s.get(Player, 5)
        name, card = player.name, player.card_number
        table14 = s.query(Table).filter_by(number=14).one().id
    clients = _connect(app, socket_client)
    with app_session(app) as s:
        token = staff.create_token(s, Actor.system("test"), "pitboss", "arrange")
    resp = app.test_client().post("/api/tables/14/seats/3/player", json={"card_number": card},
                                  headers={"Authorization": f"Bearer {token}"})
    assert resp.status_code in (200, 201), resp.get_json()
    heard = {who: _heard(sc) for who, sc in clients.items()}
    # REST first: the terminal of table 10 may not read table 14's seated players
    with app_session(app) as s:
        t10 = staff.create_token(s, Actor.system("test"), "dealer", "rest", table_number=10)
    rest = app.test_client().get("/api/tables/14/seated", headers={"Authorization": f"Bearer {t10}"})
    assert rest.status_code == 403 and rest.get_json()["error"] == "wrong_table"
    for who in ("dealer_10", "display", "technician"):
        assert not [e for e, text in heard[who] if name in text or card in text], (who, heard[who])
        assert "visit.started" not in [e for e, _ in heard[who]], who
    for who in ("dealer_14", "floor_manager", "pit_boss", "admin", "cashier"):
        started = [text for e, text in heard[who] if e == "visit.started"]
        assert len(started) == 1 and name in started[0], (who, heard[who])
    # a dealer terminal may not join another table's room, the board may join none
    ack = clients["dealer_10"].emit("join_table", {"table_id": table14}, namespace="/live", callback=True)
    assert ack["error"] == "wrong_table"
    ack = clients["display"].emit("join_table", {"table_id": table14}, namespace="/live", callback=True)
    assert ack["error"] == "wrong_role"


def test_a_cash_request_is_heard_by_the_cashiers_and_pit_bosses_only(app, socket_client):
    clients = _connect(app, socket_client)
    with app_session(app) as s:
        token = staff.create_token(s, Actor.system("test"), "cashier", "arrange")
    resp = app.test_client().post("/api/cashier/players/4/credit", json={"amount": 3_000_000},
                                  headers={"Authorization": f"Bearer {token}"})
    assert resp.status_code == 202 and resp.get_json()["pending"]
    heard = {who: [e for e, _ in _heard(sc)] for who, sc in clients.items()}
    assert {who for who, events in heard.items() if "cash_request.changed" in events} == {"cashier", "pit_boss"}
