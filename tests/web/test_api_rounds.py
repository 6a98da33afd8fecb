"""The JSON API of live rounds: bets and their refusals, idempotency, the cashier, the pit boss."""
from __future__ import annotations

from floor import rounds
from tests.conftest import app_session
from tests.floor.rounds.helpers import HOUSE, at, tid


def _fund(login, player_id, amount):
    resp = login.post(f"/api/cashier/players/{player_id}/credit", json={"amount": amount, "memo": "cash in"})
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()


def _open(app, table_number):
    from datetime import datetime, timezone
    with app_session(app) as session:
        rounds.open_betting(session, rounds.core.SYSTEM, tid(session, table_number), datetime.now(timezone.utc), house=HOUSE)


def test_cashier_credits_and_debits_are_audited_and_never_below_zero(app, client, login):
    login("cashier")
    assert _fund(login, 1, 10_000)["balance"] == 10_000
    short = login.post("/api/cashier/players/1/debit", json={"amount": 20_000})
    assert short.status_code == 409 and short.get_json()["error"] == "insufficient_balance"
    ok = login.post("/api/cashier/players/1/debit", json={"amount": 4_000, "memo": "cash out"})
    assert ok.status_code == 200 and ok.get_json()["balance"] == 6_000
    assert [t["amount"] for t in ok.get_json()["transfers"]] == [-4_000, 10_000]
    from floor.models import AuditRecord
    with app_session(app) as session:
        actions = [a.action for a in session.query(AuditRecord).filter(AuditRecord.action.like("cashier.%"))]
    assert actions == ["cashier.credit", "cashier.debit"]
    bad = login.post("/api/cashier/players/1/credit", json={"amount": 10.5})
    assert bad.status_code == 400


def test_bet_refusals_and_an_idempotent_retry(app, client, login):
    login("pitboss")
    _fund(login, 2, 5_000)
    # a closed table (2 is closed, and a poker table): refused with the reason
    closed = login.post("/api/tables/2/bets", json={"spot": "red", "amount": 1_000, "player_id": 2})
    assert closed.status_code == 409 and closed.get_json()["error"] == "table_closed"
    # no round open yet: no bets
    early = login.post("/api/tables/12/bets", json={"spot": "red", "amount": 1_000, "player_id": 2})
    assert early.status_code == 409 and early.get_json()["error"] == "betting_closed"
    _open(app, 12)
    over = login.post("/api/tables/12/bets", json={"spot": "red", "amount": 60_000, "player_id": 2})
    assert over.status_code == 409 and over.get_json()["error"] == "over_maximum"
    under = login.post("/api/tables/12/bets", json={"spot": "red", "amount": 100, "player_id": 2})
    assert under.status_code == 409 and under.get_json()["error"] == "below_minimum"
    broke = login.post("/api/tables/12/bets", json={"spot": "red", "amount": 6_000, "player_id": 2})
    assert broke.status_code == 409 and broke.get_json()["error"] == "insufficient_balance"
    bad = login.post("/api/tables/12/bets", json={"spot": "split", "numbers": [1, 5], "amount": 1_000, "player_id": 2})
    assert bad.status_code == 400 and bad.get_json()["error"] == "invalid_bet"
    body = {"spot": "split", "numbers": [17, 20], "amount": 1_000, "player_id": 2, "idempotency_key": "k-1"}
    first = login.post("/api/tables/12/bets", json=body)
    assert first.status_code == 201, first.get_json()
    again = login.post("/api/tables/12/bets", json=body)
    assert again.status_code == 200 and again.get_json()["id"] == first.get_json()["id"]
    other = login.post("/api/tables/12/bets", json={**body, "amount": 2_000})
    assert other.status_code == 409 and other.get_json()["error"] == "idempotency_mismatch"
    assert client.get("/api/cashier/players/2").get_json()["balance"] == 4_000
    # "no more bets": late bets are refused with the reason
    assert login.post("/api/tables/12/round/close", json={}).status_code == 200
    late = login.post("/api/tables/12/bets", json={"spot": "red", "amount": 1_000, "player_id": 2})
    assert late.status_code == 409 and late.get_json()["error"] == "betting_closed"
    assert "no more bets" in late.get_json()["message"]
    # the retry of a bet placed before the close still answers with that bet
    assert login.post("/api/tables/12/bets", json=body).status_code == 200


def test_the_dealer_terminal_runs_a_blackjack_round(client, login):
    login.dealer(14)
    assert login.post("/api/tables/14/round/open", json={}).status_code == 201
    player = login.post("/api/tables/14/bets", json={"spot": "bet", "amount": 1_000, "player_id": 3})
    assert player.status_code == 403 and player.get_json()["error"] == "seat_bets_only"
    seat = login.post("/api/tables/14/bets", json={"spot": "bet", "amount": 1_000, "seat": 2})
    assert seat.status_code == 201 and seat.get_json()["source"] == "dealer"
    assert login.post("/api/tables/14/round/close", json={}).get_json()["round"]["status"] == "dealing"
    for card in ("TH", "6S", "6D", "TC"):
        state = login.post("/api/tables/14/round/card", json={"card": card}).get_json()
    assert state["round"]["flow"]["expecting"] == ["decision", 2, 1]
    assert state["round"]["flow"]["dealer"] == ["6S", "??"]
    state = login.post("/api/tables/14/round/decision", json={"seat": 2, "action": "stand"}).get_json()
    assert state["round"]["flow"]["expecting"] == ["card", "dealer"]
    state = login.post("/api/tables/14/round/card", json={"card": "9H"}).get_json()   # 25: bust
    assert state["round"]["status"] == "settled"
    assert state["round"]["settlement"]["returned"] == 2_000
    other = client.get("/api/tables/12/round")
    assert other.status_code == 403


def test_the_pit_boss_settles_and_voids_held_rounds(app, client, login):
    with app_session(app) as session:
        table = tid(session, 12)
    login("cashier")
    _fund(login, 4, 10_000)
    client.post("/logout", headers=login.headers())
    login("pitboss")
    with app_session(app) as session:
        rounds.wheel_status(session, table, 2, 7, (), at(0), house=HOUSE)
    assert login.post("/api/tables/12/bets", json={"spot": "black", "amount": 1_000, "player_id": 4}).status_code == 201
    with app_session(app) as session:
        rounds.wheel_status(session, table, 4, 7, (), at(5), house=HOUSE)
        rounds.wheel_status(session, table, 4, 7, {"fault"}, at(6), house=HOUSE)       # fault
    held = client.get("/api/rounds/held").get_json()
    assert [h["held_reason"] for h in held] == ["wheel fault (sensor, motor or encoder)"]
    rid = held[0]["id"]
    missing = login.post(f"/api/rounds/{rid}/settle", json={})
    assert missing.status_code == 400
    done = login.post(f"/api/rounds/{rid}/settle", json={"number": 2})
    assert done.status_code == 200 and done.get_json()["status"] == "settled"
    again = login.post(f"/api/rounds/{rid}/void", json={"reason": "second thoughts"})
    assert again.status_code == 409
    assert client.get("/api/cashier/players/4").get_json()["balance"] == 11_000
    assert client.get("/api/ledger/check").get_json()["ok"] is True
    # a second held round is voided: every bet comes back
    with app_session(app) as session:
        rounds.wheel_status(session, table, 2, 8, (), at(20), house=HOUSE)
    login.post("/api/tables/12/bets", json={"spot": "red", "amount": 2_000, "player_id": 4})
    with app_session(app) as session:
        rounds.wheel_status(session, table, 4, 8, (), at(25), house=HOUSE)
        rounds.wheel_status(session, table, 6, 8, (), at(26), house=HOUSE)
    rid = client.get("/api/rounds/held").get_json()[0]["id"]
    assert login.post(f"/api/rounds/{rid}/void", json={"reason": "wheel closed"}).get_json()["status"] == "voided"
    assert client.get("/api/cashier/players/4").get_json()["balance"] == 11_000
    assert client.get("/api/rounds/held").get_json() == []
    games = client.get("/api/board/games")
    assert games.status_code == 200
    roulette_board = [g for g in games.get_json() if g["number"] == 12][0]
    assert [n["number"] for n in roulette_board["last"]] == [2]   # the voided spin is not history


def test_the_openapi_document_lists_the_round_routes(client):
    spec = client.get("/api/openapi.json").get_json()
    for path in ("/api/tables/{table_number}/bets", "/api/rounds/{round_id}/settle", "/api/cashier/players/{player_id}/credit",
                 "/api/tables/{table_number}/round/decision", "/api/board/games"):
        assert path in spec["paths"], path
