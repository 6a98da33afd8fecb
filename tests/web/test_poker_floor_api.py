"""The poker room floor through HTTP and Socket.IO: lists, calls, seating, must-move, the board."""
from __future__ import annotations

from datetime import timedelta

from floor.actors import Actor
from floor.models import AuditRecord, Table
from floor.poker import queries, seating
from floor.settings import HouseSettings
from tests.conftest import app_session
from tests.floor.poker_helpers import T0, fill


def _events(sc, name):
    return [m["args"][0] for m in sc.get_received("/live") if m["name"] == name]


def _full_main_with_seat_3_free(app):
    with app_session(app) as session:
        main = session.query(Table).filter_by(number=1).one()
        fill(session, main, range(1, 11), T0)
        seating.leave(session, Actor.system("test"), HouseSettings(), queries.open_assignment(session, main.id, 3), "left", 0, T0)


def test_add_call_seat_through_the_api_audited_and_live(app, client, login, socket_client):
    _full_main_with_seat_3_free(app)
    login("manager")
    floor_sc = socket_client()
    board_client = app.test_client()
    from tests.conftest import Login
    Login(board_client)("display")
    board_sc = socket_client(board_client)
    floor_sc.get_received("/live"), board_sc.get_received("/live")

    r = login.post("/api/waitlists/1/entries", json={"player_id": 11})
    assert r.status_code == 201, r.get_json()
    entry = r.get_json()
    assert (entry["player"]["name"], entry["added_by"], entry["added_terminal"]) == ("Karin Huber", "Marc Manager", "test-tablet")
    assert _events(floor_sc, "lists.changed") == [{"game_id": 1}]
    assert _events(board_sc, "lists.changed") == [{"game_id": 1}]

    state = client.get("/api/floor/state").get_json()
    assert [(p["table"], p["seat"], p["player_name"]) for p in state["proposals"]] == [(1, 3, "Karin Huber")]

    r = login.post(f"/api/waitlists/entries/{entry['id']}/call", json={"table_number": 1})
    assert r.status_code == 201, r.get_json()
    call = r.get_json()
    assert (call["table"], call["seat"], call["expiry_action"]) == (1, 3, "end_of_list")
    board = board_client.get("/api/board").get_json()
    assert board["lists"][0]["entries"] == [{"place": 1, "name": "Karin H.", "called": True, "table": 1,
                                             "estimated_wait_minutes": None, "estimated_wait_range": None}]

    r = login.post(f"/api/waitlists/entries/{entry['id']}/seat", json={"buy_in": 2_000})
    assert r.status_code == 400 and r.get_json()["field"] == "buy_in"
    r = login.post(f"/api/waitlists/entries/{entry['id']}/seat", json={"buy_in": 30_000})
    assert r.status_code == 201, r.get_json()
    seated = r.get_json()
    assert (seated["assignment"]["table"], seated["assignment"]["seat"], seated["assignment"]["arrival"]) == (1, 3, "new")
    assert board_client.get("/api/board").get_json()["lists"][0]["entries"] == []
    assert {"table_id": 1} in _events(board_sc, "tables.changed")

    with app_session(app) as session:
        actions = [a for (a,) in session.query(AuditRecord.action).filter(AuditRecord.action.like("waitlist.%"))]
    assert actions == ["waitlist.add", "waitlist.call", "waitlist.seat"]


def test_the_display_role_sees_no_full_names(app, client, login):
    with app_session(app) as session:
        fill(session, session.query(Table).filter_by(number=1).one(), [1, 2], T0)
    login("display")
    assert client.get("/api/tables").status_code == 403
    board = client.get("/api/board")
    assert board.status_code == 200
    assert "Alice" not in board.get_data(as_text=True)
    assert [t["occupied"] for t in board.get_json()["tables"] if t["number"] == 1] == [2]
    page = client.get("/board").get_data(as_text=True)
    assert "Alice Martin" not in page and "Bruno Keller" not in page


def test_board_names_follow_the_house_setting(app_config, tmp_path):
    from app import create_app
    from floor.web.extensions import db
    from tests.conftest import Login
    app_config["house"]["board_name_format"] = "initials"
    app = create_app(app_config)
    c = app.test_client()
    login = Login(c)
    login("manager")
    assert login.post("/api/waitlists/1/entries", json={"player_id": 3}).status_code == 201
    assert c.get("/api/board").get_json()["lists"][0]["entries"][0]["name"] == "C. F."
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_conflicts_have_reasons(app, client, login):
    _full_main_with_seat_3_free(app)
    login("manager")
    e = login.post("/api/waitlists/1/entries", json={"player_id": 11}).get_json()
    again = login.post("/api/waitlists/1/entries", json={"player_id": 11})
    assert again.status_code == 409 and again.get_json()["error"] == "already_listed"
    assert "Marc Manager" in again.get_json()["message"]
    login.post(f"/api/waitlists/entries/{e['id']}/call", json={"table_number": 1})
    twice = login.post(f"/api/waitlists/entries/{e['id']}/call", json={"table_number": 1})
    assert twice.status_code == 409 and twice.get_json()["error"] == "already_called"
    bad = login.post("/api/waitlists/entries/1/move", json={"to_place": 1})
    assert bad.status_code == 400 and bad.get_json()["field"] == "reason"
    walk = login.post("/api/seating/tables/1/seats/4/sit", json={"player_id": 20, "buy_in": 20_000})
    assert walk.status_code == 409 and walk.get_json()["error"] == "seat_taken"


def test_must_move_through_the_api_and_the_dealer_terminal_view(app, client, login, socket_client):
    with app_session(app) as session:
        fill(session, session.query(Table).filter_by(number=1).one(), range(1, 11), T0 - timedelta(hours=1))
    login("manager")
    r = login.post("/api/floor/tables/2/open", json={})
    assert r.get_json() == {"table": 2, "status": "open", "feeds_table": 1}
    with app_session(app) as session:
        fill(session, session.query(Table).filter_by(number=2).one(), range(11, 20), T0)
    dealer = app.test_client()
    from tests.conftest import Login
    Login(dealer).dealer(2, "dealer2", "2345")
    dealer_sc = socket_client(dealer)
    dealer_sc.get_received("/live")
    assert dealer.get("/api/mustmove/tables/2").get_json() == {"table": 2, "role": "mm1", "due": []}
    assert dealer.get("/api/mustmove/tables/1").status_code == 403          # bound to its table

    r = login.post("/api/seating/tables/1/seats/6/leave", json={"chips_out": 12_000})
    assert r.status_code == 200
    due = [m for m in _events(dealer_sc, "mustmove.due")]
    assert due and due[-1]["moves"][0]["player_name"] == "Karin Huber"
    assert dealer.get("/api/mustmove/tables/2").get_json()["due"][0]["from_seat"] == 1
    state = client.get("/api/floor/state").get_json()
    seat1 = next(t for t in state["tables"] if t["number"] == 2)["seats"][0]
    assert (seat1["mm_order"], seat1["due_to"]) == (1, 1)

    wrong = login.post("/api/mustmove/tables/2/move", json={"player_id": 12})
    assert wrong.status_code == 409 and "Karin Huber is first" in wrong.get_json()["message"]
    r = login.post("/api/mustmove/tables/2/move", json={"player_id": 11})
    assert r.status_code == 200 and (r.get_json()["table"], r.get_json()["seat"], r.get_json()["arrival"]) == (1, 6, "must_move")


def test_openapi_documents_the_poker_room(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    for p in ("/api/floor/state", "/api/waitlists/{game_id}/entries", "/api/waitlists/entries/{entry_id}/call",
              "/api/waitlists/entries/{entry_id}/seat", "/api/mustmove/tables/{table_number}/move",
              "/api/mustmove/tables/{table_number}/refuse", "/api/seating/table-changes", "/api/board",
              "/api/floor/tables/{table_number}/open", "/api/seating/tables/{table_number}/seats/{seat_number}/bust"):
        assert p in paths, p


def test_a_must_move_table_opened_for_the_list_is_not_proposed_for_a_break_and_its_prompt_has_its_figures(
        app, client, login):
    """Main full, two players waiting: table 2 opens as main's must-move table. While they wait it is
    not proposed for a break; once nobody waits, the prompt carries every figure its sentence says
    (Table 2 (1) fits into table 1 (9/10)), and the board keeps main's free seat for the mover."""
    with app_session(app) as session:
        main = session.query(Table).filter_by(number=1).one()
        fill(session, main, range(1, 11), T0)
    login("manager")
    entries = [login.post("/api/waitlists/1/entries", json={"player_id": p}).get_json()["id"] for p in (11, 12)]
    assert login.post("/api/floor/tables/2/open", json={"must_move": True}).get_json()["feeds_table"] == 1
    state = client.get("/api/floor/state").get_json()
    assert [c["break"] for c in state["mustmove"]] == [[]]          # opened for the two waiting
    assert login.post(f"/api/waitlists/entries/{entries[0]}/call", json={"table_number": 2}).status_code == 201
    assert login.post(f"/api/waitlists/entries/{entries[1]}/remove", json={}).status_code == 200
    assert [c["break"] for c in client.get("/api/floor/state").get_json()["mustmove"]] == [[]]   # one called to it
    assert login.post(f"/api/waitlists/entries/{entries[0]}/seat", json={"buy_in": 30_000}).status_code == 201
    with app_session(app) as session:
        seating.leave(session, Actor.system("test"), HouseSettings(), queries.open_assignment(
            session, session.query(Table).filter_by(number=1).one().id, 3), "left", 0, T0)
        session.commit()
    (prompt,) = client.get("/api/floor/state").get_json()["mustmove"][0]["break"]
    assert {k: prompt[k] for k in ("table", "players", "into_table", "into_players", "into_seats")} == {
        "table": 2, "players": 1, "into_table": 1, "into_players": 9, "into_seats": 10}
    login("display")
    tables = {t["number"]: t for t in client.get("/api/board").get_json()["tables"]}
    # main's seat 3 is the must-move player's, not the public's; table 2 has nine seats for anyone
    assert (tables[1]["occupied"], tables[1]["free"]) == (9, 0)
    assert (tables[2]["occupied"], tables[2]["free"]) == (1, 9)


def test_a_must_move_table_says_which_table_it_feeds_when_several_are_open(app, client, login):
    """Tables 1 and 4 of the game are open: opening table 2 as a must-move table names the one it feeds."""
    with app_session(app) as session:
        from tests.floor.poker_helpers import add_table
        add_table(session, 4, status="open")
        session.commit()
    login("manager")
    vague = login.post("/api/floor/tables/2/open", json={"must_move": True})
    assert vague.status_code == 400 and vague.get_json()["field"] == "feeds_table"
    r = login.post("/api/floor/tables/2/open", json={"must_move": True, "feeds_table": 4})
    assert r.status_code == 200 and r.get_json() == {"table": 2, "status": "open", "feeds_table": 4}
