"""/api/layout: the admin makes and changes games and tables; nobody else may; bad input is a 4xx
that changes nothing."""
from __future__ import annotations

from sqlalchemy import func, select

from floor.models import Game, Table
from tests.conftest import app_session as db_session


def test_an_admin_makes_a_game_and_a_table_and_changes_them(app, login):
    login("admin")
    game = login.post("/api/layout/games", json={"name": "Blackjack 25-1000", "kind": "blackjack",
                                                  "min_bet": 2500, "max_bet": 100000})
    assert game.status_code == 201, game.get_json()
    gid = next(g["id"] for g in game.get_json()["games"] if g["name"] == "Blackjack 25-1000")
    table = login.post("/api/layout/tables", json={"number": 16, "name": "Blackjack 2", "game_id": gid, "seats": 7})
    assert table.status_code == 201, table.get_json()
    assert {"number": 16, "name": "Blackjack 2", "kind": "blackjack", "game_id": gid, "game": "Blackjack 25-1000",
            "seats": 7, "status": "closed"} in table.get_json()["tables"]
    changed = login.patch("/api/layout/tables/16", json={"seats": 5})
    assert changed.status_code == 200
    assert login.client.get("/api/tables/16").get_json()["seat_count"] == 5
    assert login.patch(f"/api/layout/games/{gid}", json={"max_bet": 50000}).status_code == 200


def test_bad_requests_are_refused_and_change_nothing(app, login):
    login("admin")
    with db_session(app) as s:
        before = (s.execute(select(func.count(Game.id))).scalar(), s.execute(select(func.count(Table.id))).scalar())
    bad = [
        ("post", "/api/layout/games", {"name": "X", "kind": "roulette", "min_bet": 5.5, "max_bet": 100}, 400),
        ("post", "/api/layout/games", {"name": "X", "kind": "roulette", "min_bet": 500, "max_bet": 100}, 400),
        ("post", "/api/layout/games", {"name": "X", "kind": "craps", "min_bet": 1, "max_bet": 2}, 400),
        ("post", "/api/layout/games", {"name": "X", "kind": "roulette", "min_bet": 1, "max_bet": 2, "rake": 5}, 400),
        ("post", "/api/layout/tables", {"number": 12, "name": "again", "game_id": 1, "seats": 7}, 409),
        ("post", "/api/layout/tables", {"number": 60, "name": "x", "game_id": 999, "seats": 7}, 404),
        ("post", "/api/layout/tables", {"number": 60, "name": "x", "game_id": 1, "seats": 40}, 400),
        ("patch", "/api/layout/tables/12", {"seats": 4}, 409),          # table 12 is open
        ("patch", "/api/layout/tables/99", {"name": "nowhere"}, 404),
    ]
    for method, url, body, status in bad:
        resp = getattr(login, method)(url, json=body)
        assert resp.status_code == status, (url, body, resp.status_code, resp.get_json())
        assert resp.get_json()["message"]
    with db_session(app) as s:
        assert (s.execute(select(func.count(Game.id))).scalar(), s.execute(select(func.count(Table.id))).scalar()) == before


def test_only_the_admin_sets_up_the_floor(app, login):
    login("manager")
    assert login.post("/api/layout/tables", json={"number": 61, "name": "x", "game_id": 1, "seats": 7}).status_code == 403
    assert login.client.get("/admin/floor").status_code == 403
