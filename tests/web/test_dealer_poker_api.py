"""The poker terminal and conduct JSON API: a dealer bound to his table runs hands, sit-outs, tickets
and warnings; the floor lifts warnings and bans; live events reach the table room and the floor."""
from __future__ import annotations

from sqlalchemy import select

from floor.actors import Actor
from floor.models import Alert, AuditRecord, Ban, SeatAssignment, Table
from floor.poker import seating
from floor.settings import HouseSettings
from tests.conftest import app_session


def seat(app, table_number: int, seats: dict[int, int]):
    with app_session(app) as s:
        table = s.execute(select(Table).where(Table.number == table_number)).scalar_one()
        for number, player in seats.items():
            seating.sit(s, Actor.system("test"), HouseSettings(), table, number, player, 50_000)


def one(app, stmt):
    with app_session(app) as s:
        return s.execute(stmt).scalar_one()


def all_of(app, stmt):
    with app_session(app) as s:
        return list(s.scalars(stmt))


def events(received, name):
    return [e["args"][0] for e in received if e["name"] == name]


def test_a_dealer_runs_hands_with_a_player_away_and_back(app, client, login, socket_client):
    seat(app, 1, {1: 1, 2: 2, 4: 3, 6: 4, 8: 5})
    login.dealer(1)
    sc = socket_client()
    state = client.get("/api/poker/tables/1").get_json()
    assert [s["number"] for s in state["seats"] if s["player"]] == [1, 2, 4, 6, 8]
    assert state["last_hand"] is None and state["next_hand"]["new_game"] is True

    r = login.post("/api/poker/tables/1/button", json={"seat": 2})
    assert r.status_code == 200 and r.get_json()["next_hand"]["button"] == 2
    r = login.post("/api/poker/tables/1/hands", json={})
    assert r.status_code == 201, r.get_json()
    st = r.get_json()
    assert (st["last_hand"]["button"], st["last_hand"]["small"], st["last_hand"]["big"]) == (2, 4, 6)
    assert {(p["seat"], p["kind"], p["amount"]) for p in st["last_hand"]["postings"]} == {
        (4, "small_blind", 200), (6, "big_blind", 500)}
    assert events(sc.get_received("/live"), "poker.changed")[-1]["what"] == "hand"

    # Seat 8 steps away: the next big blind passes him, he gets a ticket and owes.
    assert login.post("/api/poker/tables/1/seats/8/away", json={}).status_code == 200
    st = login.post("/api/poker/tables/1/hands", json={}).get_json()
    assert (st["last_hand"]["button"], st["last_hand"]["small"], st["last_hand"]["big"]) == (4, 6, 1)
    seat8 = next(s for s in st["seats"] if s["number"] == 8)
    assert seat8["away"] and seat8["away_since"] and seat8["tickets"] == 1 and seat8["missed"] == ["big"]
    assert not [p for p in st["last_hand"]["postings"] if p["seat"] == 8]
    st = login.post("/api/poker/tables/1/hands", json={}).get_json()      # B6 S1 B2: small passes 8
    seat8 = next(s for s in st["seats"] if s["number"] == 8)
    assert seat8["tickets"] == 2 and seat8["owes"] == {"live": 500, "dead_small": 200, "dead_big": 0, "total": 700,
                                                        "wait_for_bb": False,
                                                        "reason": "missed both blinds: big live, small dead"}
    # Back: he posts both on the next hand (big live, small dead).
    st = login.post("/api/poker/tables/1/seats/8/back", json={}).get_json()
    seat8 = next(s for s in st["seats"] if s["number"] == 8)
    assert seat8["next"]["status"] == "dealt" and seat8["next"]["total"] == 700
    st = login.post("/api/poker/tables/1/hands", json={}).get_json()
    assert {(p["kind"], p["amount"], p["live"]) for p in st["last_hand"]["postings"] if p["seat"] == 8} == {
        ("entry", 500, True), ("dead_small", 200, False)}
    actions = all_of(app, select(AuditRecord.action))
    assert actions.count("poker.hand") == 4 and "poker.away" in actions and "poker.back" in actions


def test_a_dealer_is_bound_to_his_table(app, client, login):
    seat(app, 3, {1: 1, 2: 2})
    login.dealer(1)
    assert client.get("/api/poker/tables/3").status_code == 403
    r = login.post("/api/poker/tables/3/hands", json={})
    assert r.status_code == 403 and r.get_json()["error"] == "wrong_table"


def test_the_terminal_refuses_a_table_that_is_not_poker_and_bad_input(app, client, login):
    login("manager")
    assert client.get("/api/poker/tables/12").get_json()["error"] == "not_poker"
    r = login.post("/api/poker/tables/1/hands", json={"strattle": True})
    assert r.status_code == 400 and r.get_json()["field"] == "strattle"
    r = login.post("/api/poker/tables/1/hands", json={})
    assert r.status_code == 409 and r.get_json()["error"] == "not_enough_players"
    r = login.post("/api/poker/tables/1/seats/3/away", json={})
    assert r.status_code == 404


def test_a_ticket_correction_and_the_forfeit_at_the_third_ticket(app, client, login, socket_client):
    seat(app, 1, {1: 1, 2: 2, 3: 3, 4: 4})
    login.dealer(1)
    login.post("/api/poker/tables/1/hands", json={})
    login.post("/api/poker/tables/1/seats/3/away", json={})
    for _ in range(3):                                 # B2 S4 B1 (small passes 3), B4 S1 B2, B1 S2 B4 (big)
        st = login.post("/api/poker/tables/1/hands", json={}).get_json()
    tickets = [t for t in st["tickets"] if t["seat"] == 3]
    assert len(tickets) == 2
    r = login.post(f"/api/poker/tables/1/tickets/{tickets[0]['id']}/void", json={"reason": "he was at the table"})
    assert r.status_code == 201
    assert next(s for s in r.get_json()["seats"] if s["number"] == 3)["tickets"] == 1
    r = login.post(f"/api/poker/tables/1/tickets/{tickets[0]['id']}/void", json={"reason": "again"})
    assert r.status_code == 409
    # Two tickets by hand: the second one is his third, the seat is forfeited.
    assert login.post("/api/poker/tables/1/seats/3/tickets", json={"reason": "missed while at the cage"}).status_code == 201
    login("manager")
    floor = socket_client()
    login.dealer(1)
    r = login.post("/api/poker/tables/1/seats/3/tickets", json={"reason": "missed again"})
    assert r.status_code == 201
    assert next(s for s in r.get_json()["seats"] if s["number"] == 3)["player"] is None
    alert = one(app, select(Alert).where(Alert.kind == "seat_forfeited"))
    assert alert.data["seat"] == 3
    got = floor.get_received("/live")
    assert [a["kind"] for a in events(got, "alert")] == ["seat_forfeited"]
    assert any(e["table_id"] == 1 for e in events(got, "tables.changed"))
    assert any(e["what"] == "ticket" for e in events(got, "poker.changed"))


def test_a_straddle_through_the_api(app, client, login):
    seat(app, 1, {1: 1, 2: 2, 3: 3, 4: 4})
    login.dealer(1)
    st = login.post("/api/poker/tables/1/hands", json={}).get_json()
    hand_id = st["last_hand"]["id"]
    st = login.post(f"/api/poker/tables/1/hands/{hand_id}/straddle", json={}).get_json()
    assert st["last_hand"]["straddle"] == 4
    assert {"seat": 4, "kind": "straddle", "amount": 1000, "live": True} in st["last_hand"]["postings"]
    assert login.post(f"/api/poker/tables/1/hands/{hand_id}/straddle", json={}).status_code == 409


def test_the_third_warning_from_the_table_bans_and_frees_the_seat_and_the_floor_lifts_it(app, client, login,
                                                                                          socket_client):
    seat(app, 1, {1: 1, 2: 2, 5: 9})
    login.dealer(1)
    assert login.post("/api/poker/tables/1/seats/5/warnings", json={"reason": "cards_shown_early"}).get_json()["count"] == 1
    assert login.post("/api/poker/tables/1/seats/5/warnings", json={"reason": "other"}).status_code == 400
    assert login.post("/api/poker/tables/1/seats/5/warnings",
                      json={"reason": "other", "note": "argued with the dealer"}).get_json()["count"] == 2
    assert client.get("/api/conduct/bans").status_code == 403          # the dealer does not list bans
    login("manager")
    floor = socket_client()
    # The warning that bans is asked for twice: the tablet confirms it with the player's name shown.
    ask = login.post("/api/conduct/warnings", json={"player_id": 9, "reason": "electronic_device", "table_number": 1})
    assert ask.status_code == 409 and ask.get_json()["error"] == "ban_needs_confirmation"
    assert "Iris Müller" in ask.get_json()["message"]
    assert len(client.get("/api/conduct/warnings?player_id=9").get_json()) == 2
    r = login.post("/api/conduct/warnings", json={"player_id": 9, "reason": "electronic_device", "table_number": 1,
                                                  "ban_confirmed": True})
    assert r.status_code == 201
    body = r.get_json()
    assert body["banned"] and body["count"] == 3 and body["freed_seats"] == [{"table_id": 1, "table_number": 1, "seat": 5}]
    got = floor.get_received("/live")
    assert events(got, "conduct.changed") and [a["kind"] for a in events(got, "alert")] == ["player_banned"]
    assert one(app, select(SeatAssignment).where(SeatAssignment.player_id == 9)).reason_left == \
        "banned_warnings"
    bans = client.get("/api/conduct/bans").get_json()
    assert [(b["player"], b["decided_by_name"]) for b in bans] == [("Iris Müller", "Marc Manager")]
    assert bans[0]["expires_at"]
    warnings = client.get("/api/conduct/warnings?player_id=9").get_json()
    assert [w["reason"] for w in warnings] == ["electronic_device", "other", "cards_shown_early"]

    # A dealer may not lift; a floor manager lifts with a reason, audited.
    ban_id = bans[0]["id"]
    assert login.post(f"/api/conduct/bans/{ban_id}/lift", json={}).status_code == 400
    r = login.post(f"/api/conduct/bans/{ban_id}/lift", json={"reason": "shift manager: misunderstanding"})
    assert r.status_code == 200 and r.get_json()["lift_reason"] == "shift manager: misunderstanding"
    assert client.get("/api/conduct/bans").get_json() == []
    r = login.post(f"/api/conduct/warnings/{warnings[0]['id']}/lift", json={"reason": "phone was off"})
    assert r.status_code == 200 and r.get_json()["lifted_at"]
    rec = one(app, select(AuditRecord).where(AuditRecord.action == "ban.lift"))
    assert rec.actor == "Marc Manager" and rec.role == "floor_manager"
    assert one(app, select(AuditRecord).where(AuditRecord.action == "warning.lift"))
    panel = client.get("/api/conduct/panel").get_json()
    assert panel["bans"] == [] and len(panel["warnings"]) == 3


def test_a_dealer_cannot_lift_or_warn_from_the_floor_api(app, client, login):
    login.dealer(1)
    assert login.post("/api/conduct/warnings", json={"player_id": 1, "reason": "other", "note": "x"}).status_code == 403
    assert login.post("/api/conduct/warnings/1/lift", json={"reason": "x"}).status_code == 403
    assert login.post("/api/conduct/bans/1/lift", json={"reason": "x"}).status_code == 403


def test_a_floor_manager_bans_by_decision_until_the_end_of_the_gaming_day(app, client, login):
    seat(app, 3, {2: 11})
    login("manager")
    r = login.post("/api/conduct/bans", json={"player_id": 11, "reason": "abusive to staff"})
    assert r.status_code == 201 and r.get_json()["expires_at"]
    assert one(app, select(Ban).where(Ban.player_id == 11))
    assert one(app, select(SeatAssignment).where(SeatAssignment.player_id == 11)).left_at


def test_the_openapi_document_describes_the_terminal_and_conduct_routes(client):
    spec = client.get("/api/openapi.json").get_json()
    paths = spec["paths"]
    for path in ("/api/poker/tables/{table_number}", "/api/poker/tables/{table_number}/hands",
                 "/api/poker/tables/{table_number}/seats/{seat}/away",
                 "/api/poker/tables/{table_number}/tickets/{ticket_id}/void",
                 "/api/conduct/warnings", "/api/conduct/bans/{ban_id}/lift"):
        assert path in paths, path
    assert "Terminal" in spec["components"]["schemas"]


def test_the_dealer_page_renders_the_poker_terminal(app, client, login):
    seat(app, 1, {3: 1, 7: 2})
    login.dealer(1)
    html = client.get("/dealer/1").get_data(as_text=True)
    assert 'id="pk"' in html and 'data-table="1"' in html
    assert "Alice Martin" in html and "dealer_poker.js" in html
