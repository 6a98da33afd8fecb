"""Conflicts at a live table answer 409 with the reason, never 500: a second "open betting", closing a
table while its round takes bets, a card typed for a poker table, two bets racing with one key."""
from __future__ import annotations

import threading

from sqlalchemy import func, select

from floor import ledger
from floor.models import Bet, Round, Table
from tests.conftest import Login, app_session
from tests.web.roulette_rounds import CAGE, HOUSE
from tests.money import cash_in


def test_open_betting_while_a_round_runs_is_409(app, login):
    login("pitboss")
    assert login.post("/api/tables/12/round/open", json={}).status_code == 201
    again = login.post("/api/tables/12/round/open", json={})
    assert again.status_code == 409 and again.get_json()["error"] == "round_running"
    with app_session(app) as s:
        table = s.scalar(select(Table).where(Table.number == 12))
        assert s.scalar(select(func.count(Round.id)).where(Round.table_id == table.id, Round.status == "betting")) == 1


def test_closing_a_table_game_while_its_round_takes_bets_is_refused(app, login):
    login("pitboss")
    assert login.post("/api/tables/12/round/open", json={}).status_code == 201
    login("manager")
    resp = login.post("/api/floor/tables/12/close", json={})
    assert resp.status_code == 409 and resp.get_json()["error"] == "round_running"
    assert "finish or void it" in resp.get_json()["message"]
    state = login.client.get("/api/tables/12").get_json()
    assert state["status"] == "open"


def test_a_card_typed_for_a_poker_table_is_409_wrong_game(app, login):
    login("pitboss")
    resp = login.post("/api/tables/1/round/card", json={"card": "AS"})
    assert resp.status_code == 409 and resp.get_json()["error"] == "wrong_game"


def test_two_bets_racing_with_one_idempotency_key_make_one_bet(app, login):
    with app_session(app) as s:
        cash_in(s, 3, 500_000, house=HOUSE)
    login("pitboss")
    assert login.post("/api/tables/12/round/open", json={}).status_code == 201
    clients = []
    for _ in range(2):
        c = Login(app.test_client())
        c("pitboss")
        clients.append(c)
    for attempt in range(8):
        key = f"tap-{attempt}"
        barrier = threading.Barrier(2)
        answers = [None, None]

        def tap(i):
            barrier.wait()
            answers[i] = clients[i].post("/api/tables/12/bets", json={"spot": "red", "amount": 1_000, "player_id": 3,
                                                                       "idempotency_key": key})
        threads = [threading.Thread(target=tap, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        codes = sorted(a.status_code for a in answers)
        assert codes == [200, 201], [a.get_json() for a in answers]
        assert answers[0].get_json()["id"] == answers[1].get_json()["id"]
    with app_session(app) as s:
        assert s.scalar(select(func.count(Bet.id)).where(Bet.player_id == 3)) == 8
        assert ledger.player_balance(s, 3) == 500_000 - 8 * 1_000
