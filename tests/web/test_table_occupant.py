"""A table has one occupant (a cash game, a table game or a tournament), recorded on the table and read
the same way by the floor, the board, the lists, closing and tournaments; a live-game table counts
its identified players and seat bets everywhere."""
from __future__ import annotations

import pytest

from floor.models import Table
from tests.conftest import Login, app_session
from tests.floor.tournaments.helpers import players, tables

# no late registration: the last bust ends the tournament
STRUCTURE = {"name": "Short", "starting_stack": 10_000, "late_registration_levels": 0,
             "steps": [{"level": {"small_blind": 100, "big_blind": 200, "minutes": 20}}]}
BASE = {"game_id": 1, "buy_in": 10_000, "fee": 1_000, "structure": STRUCTURE, "seats_per_table": 10,
        "final_table_size": 9, "table_numbers": [41, 42]}


@pytest.fixture
def running(app, login):
    """Tournament A running at table 42 with two players; B registered with two more for the same tables."""
    with app_session(app) as s:
        tables(s, (41, 42))
        ids = players(s, 5)
    login("manager")
    a = login.post("/api/tournaments", json=BASE | {"name": "Tournament A"}).get_json()
    b = login.post("/api/tournaments", json=BASE | {"name": "Tournament B", "table_numbers": [42]}).get_json()
    cage = Login(app.test_client())
    cage("cashier")
    for t, who in ((a, ids[:2]), (b, ids[2:4])):
        for p in who:
            assert cage.post(f"/api/tournaments/{t['id']}/entries", json={"player_id": p}).status_code == 201
    started = login.post(f"/api/tournaments/{a['id']}/start")
    assert started.status_code == 200, started.get_json()
    return a, b, ids


def _table(client, number):
    return next(t for t in client.get("/api/tables").get_json() if t["number"] == number)


def test_a_second_tournament_cannot_start_on_a_table_in_use(app, login, running):
    a, b, _ = running
    r = login.post(f"/api/tournaments/{b['id']}/start")
    assert r.status_code == 409 and r.get_json()["error"] == "table_in_use"
    assert "Tournament A" in r.get_json()["message"]
    fr = login.client.post(f"/api/tournaments/{b['id']}/start?lang=fr", headers=login.headers())
    assert fr.status_code == 409 and "Tournament A" in fr.get_json()["message"]
    assert "is playing" not in fr.get_json()["message"]
    assert login.client.get(f"/api/tournaments/{b['id']}").get_json()["status"] == "registering"


def test_the_floor_the_board_and_the_lists_see_the_tournament_table(app, client, login, running):
    a, _, ids = running
    t42 = _table(client, 42)
    assert (t42["use"], t42["tournament"]["name"], t42["occupied"]) == ("tournament", "Tournament A", 2)
    assert _table(client, 41)["use"] == "cash_game"
    # a cash player waits for the game: the floor proposes table 41, never the tournament's 42
    entry = login.post("/api/waitlists/1/entries", json={"player_id": ids[4]})
    assert entry.status_code == 201, entry.get_json()
    state = client.get("/api/floor/state").get_json()
    assert state["proposals"] and 42 not in {p["table"] for p in state["proposals"]}
    r = login.post(f"/api/waitlists/entries/{entry.get_json()['id']}/call", json={"table_number": 42, "reason": "try"})
    assert r.status_code == 409 and r.get_json()["error"] == "tournament_table"
    r = login.post("/api/seating/tables/42/seats/5/sit", json={"player_id": ids[4], "buy_in": 20_000, "reason": "walk-up"})
    assert r.status_code == 409 and r.get_json()["error"] == "tournament_table"
    board = client.get("/api/board").get_json()
    assert 42 not in {t["number"] for t in board["tables"]}


def test_closing_a_table_under_a_running_tournament_is_refused_with_the_reason(app, client, login, running):
    r = login.post("/api/floor/tables/42/close", json={})
    assert r.status_code == 409 and r.get_json()["error"] == "tournament_table"
    assert "Tournament A" in r.get_json()["message"] and "2" in r.get_json()["message"]
    de = login.client.post("/api/floor/tables/42/close?lang=de", json={}, headers=login.headers())
    assert de.status_code == 409 and "Tournament A" in de.get_json()["message"] and "playing" not in de.get_json()["message"]
    with app_session(app) as s:
        assert s.query(Table).filter_by(number=42).one().tournament_id == running[0]["id"]


def test_the_tournament_gives_the_table_back_when_it_ends(app, client, login, running):
    a, b, _ = running
    detail = login.client.get(f"/api/tournaments/{a['id']}").get_json()
    seated = [e for e in detail["entries"] if e["status"] == "seated"]
    r = login.post(f"/api/tournaments/{a['id']}/tables/42/busts",
                   json={"busts": [{"entry_id": seated[0]["id"], "chips_at_start": 5_000}], "winners": [seated[1]["id"]]})
    assert r.status_code == 201, r.get_json()
    assert login.client.get(f"/api/tournaments/{a['id']}").get_json()["status"] == "finished"
    assert _table(client, 42)["use"] != "tournament"
    assert login.post(f"/api/tournaments/{b['id']}/start").status_code == 200
    assert _table(client, 42)["tournament"]["name"] == "Tournament B"


def test_a_live_game_table_counts_its_identified_players_and_seat_bets_everywhere(app, client, login):
    boss = Login(app.test_client())
    boss("pitboss")
    for seat, player in ((1, 5), (4, 6)):
        assert boss.post(f"/api/tables/14/seats/{seat}/player", json={"player_id": player}).status_code in (200, 201)
    login("manager")
    floor_view = _table(client, 14)
    board_view = next(t for t in client.get("/api/board").get_json()["tables"] if t["number"] == 14)
    terminal = boss.client.get("/api/tables/14/seated").get_json()
    seated = terminal if isinstance(terminal, list) else terminal.get("seats", terminal.get("players", []))
    assert floor_view["use"] == "table_game"
    assert floor_view["occupied"] == board_view["occupied"] == len(seated) == 2
