"""Tournaments through HTTP and Socket.IO: set-up, registration by the cage, the start, the clock on the
board, busts from the floor and from a dealer terminal, a deal, results and CSV; who may do what; bad input."""
from __future__ import annotations

import csv
import io

import pytest

from floor import ledger
from floor.models import AuditRecord
from tests.conftest import Login, app_session
from tests.floor.tournaments.helpers import players, tables

BASE = {"name": "Friday Turbo", "game_id": 1, "buy_in": 10_000, "fee": 1_500, "structure": "daily_turbo",
        "seats_per_table": 10, "final_table_size": 9, "table_numbers": [41, 42]}


def _events(sc, name):
    return [m["args"][0] for m in sc.get_received("/live") if m["name"] == name]


@pytest.fixture
def floor_ready(app):
    with app_session(app) as s:
        tables(s, (41, 42))
        ids = players(s, 12)
    return ids


def _create(login, **values):
    r = login.post("/api/tournaments", json=BASE | values)
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def test_register_start_bust_deal_and_results(app, client, login, socket_client, floor_ready):
    ids = floor_ready
    login("manager")
    t = _create(login, bounty_kind="knockout", bounty=1_000)
    board = app.test_client()
    Login(board)("display")
    board_sc = socket_client(board)
    board_sc.get_received("/live")

    cage = app.test_client()
    cashier = Login(cage)
    cashier("cashier")
    for p in ids[:11]:
        r = cashier.post(f"/api/tournaments/{t['id']}/entries", json={"player_id": p, "paid_with": "cash"})
        assert r.status_code == 201, r.get_json()
    receipt = r.get_json()
    assert (receipt["status"], receipt["total"], receipt["seat"]) == ("registered", 12_500, None)
    assert _events(board_sc, "tournament.entries")
    again = cashier.post(f"/api/tournaments/{t['id']}/entries", json={"player_id": ids[0]})
    assert again.status_code == 409 and again.get_json()["error"] == "already_registered"

    r = login.post(f"/api/tournaments/{t['id']}/start")
    assert r.status_code == 200, r.get_json()
    detail = r.get_json()
    seated = [e for e in detail["entries"] if e["status"] == "seated"]
    assert len(seated) == 11 and {e["table"] for e in seated} == {41, 42}
    assert detail["clock"]["level"] == 1 and detail["clock"]["big_blind"] == 200
    r = board.get(f"/api/tournaments/{t['id']}/clock")
    assert r.status_code == 200 and r.get_json()["players_left"] == 11 and r.get_json()["prize_pool"] == 110_000
    assert _events(board_sc, "tournament.clock")

    r = login.post(f"/api/tournaments/{t['id']}/pause", json={"reason": "dinner break announced"})
    assert r.get_json()["paused"] and r.get_json()["pause_reason"] == "dinner break announced"
    assert login.post(f"/api/tournaments/{t['id']}/pause", json={"reason": "again"}).status_code == 409
    assert login.post(f"/api/tournaments/{t['id']}/resume").get_json()["paused"] is False

    # the dealer of table 41 records a bust at his table, not at another's
    at41 = [e for e in seated if e["table"] == 41]
    at42 = [e for e in seated if e["table"] == 42]
    dealer = app.test_client()
    d = Login(dealer)
    d.dealer(41)
    view = dealer.get("/api/tournaments/tables/41").get_json()
    assert {x["entry_id"] for x in view["seats"]} == {e["id"] for e in at41}
    assert view["clock"]["big_blind"] == 200 and view["button_seat"] in {x["seat"] for x in view["seats"]}
    assert dealer.get("/api/tournaments/tables/42").status_code == 403
    page = dealer.get("/dealer/41")
    assert page.status_code == 200 and 'id="td-data"' in page.get_data(as_text=True)
    r = d.post(f"/api/tournaments/{t['id']}/tables/42/busts",
               json={"busts": [{"entry_id": at42[0]["id"], "chips_at_start": 500}], "winners": [at42[1]["id"]]})
    assert r.status_code == 403
    r = d.post(f"/api/tournaments/{t['id']}/tables/41/busts",
               json={"busts": [{"entry_id": at42[0]["id"], "chips_at_start": 500}], "winners": [at41[1]["id"]]})
    assert r.status_code == 403 and r.get_json()["error"] == "wrong_table"
    r = d.post(f"/api/tournaments/{t['id']}/tables/41/busts",
               json={"busts": [{"entry_id": at41[0]["id"], "chips_at_start": 500}], "winners": [at41[1]["id"]]})
    assert r.status_code == 201, r.get_json()
    out = r.get_json()
    # late registration is open: his place is given when it closes
    assert out["eliminations"][0]["place"] is None and out["eliminations"][0]["bounty_paid"] == 1_000
    with app_session(app) as s:
        assert ledger.player_balance(s, at41[1]["player_id"]) == 1_000
        assert s.query(AuditRecord).filter_by(action="tournament.bust").one().actor == "Dan Dealer"

    r = client.get(f"/api/tournaments/{t['id']}/results")
    assert r.status_code == 200
    res = r.get_json()
    assert res["standings"][-1]["status"] == "out" and res["money"]["accounts"]["fees"] == 11 * 1_500
    assert {d["kind"] for d in res["draws"]} >= {"seat_draw"}
    r = client.get(f"/api/tournaments/{t['id']}/results.csv")
    rows = list(csv.reader(io.StringIO(r.get_data(as_text=True))))
    assert rows[0][:2] == ["place", "player"] and rows[-1][5] == "out" and len(rows) == 12


def test_a_template_is_two_taps(app, client, login, floor_ready):
    login("manager")
    r = login.post("/api/tournaments/templates", json={"template_name": "Weekly", "tournament": BASE})
    assert r.status_code == 201, r.get_json()
    r = login.post(f"/api/tournaments/templates/{r.get_json()['id']}/create",
                   json={"scheduled_at": "2026-12-04T19:00:00+01:00"})
    assert r.status_code == 201 and r.get_json()["name"] == "Friday Turbo"
    assert [x["table"] for x in r.get_json()["tables"]] == [41, 42]


@pytest.mark.parametrize("role, status", [("cashier", 403), ("pitboss", 403), ("display", 403), ("manager", 201)])
def test_only_the_floor_sets_up_a_tournament(app, client, login, floor_ready, role, status):
    login(role)
    assert login.post("/api/tournaments", json=BASE).status_code == status


def test_the_pit_reads_but_does_not_register_or_start(app, client, login, floor_ready):
    login("manager")
    t = _create(login)
    pit = app.test_client()
    pb = Login(pit)
    pb("pitboss")
    assert pit.get(f"/api/tournaments/{t['id']}").status_code == 200
    assert pb.post(f"/api/tournaments/{t['id']}/entries", json={"player_id": floor_ready[0]}).status_code == 403
    assert pb.post(f"/api/tournaments/{t['id']}/start").status_code == 403
    cage = app.test_client()
    c = Login(cage)
    c("cashier")
    assert c.post(f"/api/tournaments/{t['id']}/start").status_code == 403
    assert c.post(f"/api/tournaments/{t['id']}/cancel", json={"reason": "x"}).status_code == 403


@pytest.mark.parametrize("body, field", [
    (BASE | {"buy_in": -1}, "buy_in"), (BASE | {"buy_in": "100"}, "buy_in"), (BASE | {"bounty_kind": "gold"}, "bounty_kind"),
    (BASE | {"seats_per_table": 40}, "seats_per_table"), (BASE | {"table_numbers": [99]}, "table_numbers"),
    (BASE | {"structure": {"name": "x"}}, "structure"), (BASE | {"color": "red"}, "color"),
    (BASE | {"payout_table": [{"min_entries": 2, "percents": ["60", "30"]}]}, "payout_table"),
    (BASE | {"game_id": 3}, "game_id"),
])
def test_bad_set_up_is_a_400_naming_the_field(app, client, login, floor_ready, body, field):
    login("manager")
    r = login.post("/api/tournaments", json=body)
    assert r.status_code in (400, 404), r.get_json()
    assert field in (r.get_json().get("field") or ""), r.get_json()


def test_bad_registration_and_busts(app, client, login, floor_ready):
    login("manager")
    t = _create(login)
    url = f"/api/tournaments/{t['id']}"
    assert login.post(f"{url}/entries", json={"player_id": 999_999}).status_code == 404
    assert login.post(f"{url}/entries", json={"player_id": floor_ready[0], "paid_with": "iou"}).status_code == 400
    r = login.post(f"{url}/entries", json={"player_id": floor_ready[0], "paid_with": "balance"})
    assert r.status_code == 409 and r.get_json()["error"] == "insufficient_balance"
    assert login.post(f"{url}/start").status_code == 409       # nobody registered
    assert login.post(f"{url}/busts", json={"busts": [], "winners": []}).status_code == 400
    r = login.post(f"{url}/busts", json={"busts": [{"entry_id": 1, "chips_at_start": 10}]})
    assert r.status_code == 409 and r.get_json()["error"] == "tournament_registering"
    assert login.post("/api/tournaments/999/start").status_code == 404


def test_the_openapi_document_describes_the_tournament_routes(client):
    spec = client.get("/api/openapi.json").get_json()
    for path in ("/api/tournaments", "/api/tournaments/{tournament_id}/entries", "/api/tournaments/{tournament_id}/busts",
                 "/api/tournaments/{tournament_id}/tables/{table_number}/busts", "/api/tournaments/{tournament_id}/deals",
                 "/api/tournaments/{tournament_id}/cancel", "/api/tournaments/{tournament_id}/results.csv",
                 "/api/tournaments/tables/{table_number}"):
        assert path in spec["paths"], path
    register = spec["paths"]["/api/tournaments/{tournament_id}/entries"]["post"]
    assert "201" in register["responses"] and register["requestBody"]


def test_rebuys_given_at_creation_join_the_structure_and_are_sold_at_the_cage(app, client, login, floor_ready):
    login("manager")
    t = login.post("/api/tournaments", json=BASE | {"rebuy": {"price": 5_000, "fee": 500, "chips": 20_000, "until_level": 4},
                                                    "add_on": {"price": 5_000, "chips": 30_000, "after_level": 4}}).get_json()
    assert t["structure"]["rebuy"]["until_level"] == 4 and t["structure"]["add_on"]["chips"] == 30_000
    bad = login.post("/api/tournaments", json=BASE | {"rebuy": {"price": 5_000, "chips": 20_000, "until_level": 99}})
    assert bad.status_code == 400
    tid = t["id"]
    for p in floor_ready[:2]:
        assert login.post(f"/api/tournaments/{tid}/entries", json={"player_id": p}).status_code == 201
    assert login.post(f"/api/tournaments/{tid}/start").status_code == 200
    e = client.get(f"/api/tournaments/{tid}").get_json()["entries"][0]
    cage = app.test_client()
    c = Login(cage)
    c("cashier")
    r = c.post(f"/api/tournaments/{tid}/entries/{e['id']}/purchases", json={"kind": "rebuy", "chips_now": 0})
    assert r.status_code == 201, r.get_json()
    assert (r.get_json()["total"], r.get_json()["stack"], r.get_json()["number"]) == (5_500, 20_000, 1)
    r = c.post(f"/api/tournaments/{tid}/entries/{e['id']}/purchases", json={"kind": "add_on", "chips_now": 0})
    assert r.status_code == 409 and r.get_json()["error"] == "add_on_not_yet"
    pit = app.test_client()
    pb = Login(pit)
    pb("pitboss")
    assert pb.post(f"/api/tournaments/{tid}/entries/{e['id']}/purchases",
                   json={"kind": "rebuy", "chips_now": 0}).status_code == 403


def test_the_director_closes_late_registration_from_the_tablet_and_the_last_player_wins(app, login, floor_ready):
    ids = floor_ready
    login("manager")
    t = _create(login)
    for p in ids[:4]:
        assert login.post(f"/api/tournaments/{t['id']}/entries", json={"player_id": p, "paid_with": "cash"}).status_code == 201
    detail = login.post(f"/api/tournaments/{t['id']}/start").get_json()
    seated = sorted(detail["entries"], key=lambda e: e["seat"])
    winner = seated[0]
    for e in seated[1:]:
        r = login.post(f"/api/tournaments/{t['id']}/busts",
                       json={"busts": [{"entry_id": e["id"], "chips_at_start": 20_000}], "winners": [winner["id"]]})
        assert r.status_code == 201 and r.get_json()["eliminations"][0]["place"] is None
    detail = login.client.get(f"/api/tournaments/{t['id']}").get_json()
    assert detail["status"] == "running" and detail["clock"]["late_registration_open"]
    # a cashier cannot close it; the floor manager can, once
    cage = app.test_client()
    Login(cage)("cashier")
    assert cage.post(f"/api/tournaments/{t['id']}/close-registration").status_code == 403
    r = login.post(f"/api/tournaments/{t['id']}/close-registration")
    assert r.status_code == 200, r.get_json()
    done = r.get_json()
    assert done["status"] == "finished"
    assert sorted(e["place"] for e in done["entries"]) == [1, 2, 3, 4]
    assert sum(e["prize"] for e in done["entries"]) == 40_000
    again = login.post(f"/api/tournaments/{t['id']}/close-registration")
    assert again.status_code == 409
    rows = list(csv.DictReader(io.StringIO(login.client.get(f"/api/tournaments/{t['id']}/results.csv").get_data(as_text=True))))
    assert sorted(int(r["place"]) for r in rows) == [1, 2, 3, 4]


def test_a_table_count_from_the_tablet_is_kept_and_a_partial_one_refused(app, login, floor_ready):
    ids = floor_ready
    login("manager")
    t = _create(login)
    for p in ids[:4]:
        login.post(f"/api/tournaments/{t['id']}/entries", json={"player_id": p, "paid_with": "cash"})
    detail = login.post(f"/api/tournaments/{t['id']}/start").get_json()
    table = detail["entries"][0]["table"]
    there = [e for e in detail["entries"] if e["table"] == table]
    r = login.post(f"/api/tournaments/{t['id']}/chips", json={"table": table, "stacks": [{"entry_id": there[0]["id"], "chips": 5}]})
    assert r.status_code == 400 and r.get_json()["field"] == "stacks"
    stacks = [{"entry_id": e["id"], "chips": 20_000} for e in there]
    stacks[0]["chips"] = 19_000
    r = login.post(f"/api/tournaments/{t['id']}/chips", json={"table": table, "stacks": stacks})
    assert r.status_code == 200
    assert (r.get_json()["counts_add_up"], r.get_json()["chips_in_play"] - r.get_json()["chips_counted"]) == (False, 1_000)
    kept = {e["id"]: e["chips"] for e in login.client.get(f"/api/tournaments/{t['id']}").get_json()["entries"]}
    assert kept[there[0]["id"]] == 19_000
