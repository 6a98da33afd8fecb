"""Two tablets on one tournament at the same moment: the same bust recorded twice, the same player
registered at the floor and at the cage, a deal agreed twice. Exactly one wins, the other gets a 409
with a reason; the money moves once. Real threads, each with its own client and session, on both
databases."""
from __future__ import annotations

import pytest

from floor import ledger
from floor.tournaments import core
from tests.conftest import Login, app_session
from tests.floor.tournaments.helpers import tables
from tests.web.test_poker_floor_races import one_winner, race

BASE = {"name": "Race Turbo", "game_id": 1, "buy_in": 10_000, "fee": 1_000, "structure": "daily_turbo",
        "bounty_kind": "knockout", "bounty": 1_000, "seats_per_table": 10, "final_table_size": 9,
        "table_numbers": [41]}


@pytest.fixture
def tablets(app):
    out = []
    for username in ("manager", "manager2", "cashier"):
        login = Login(app.test_client())
        login(username, terminal=f"tablet-{username}")
        out.append(login)
    with app_session(app) as s:
        tables(s, (41,))
    return out


def test_the_same_bust_from_two_tablets_moves_the_money_once(app, tablets):
    a, b, _ = tablets
    t = a.post("/api/tournaments", json=BASE).get_json()
    for p in range(1, 6):
        assert a.post(f"/api/tournaments/{t['id']}/entries", json={"player_id": p}).status_code == 201
    seated = a.post(f"/api/tournaments/{t['id']}/start").get_json()["entries"]
    body = {"busts": [{"entry_id": seated[0]["id"], "chips_at_start": 100}], "winners": [seated[1]["id"]]}
    url = f"/api/tournaments/{t['id']}/busts"
    loser = one_winner(race(lambda: a.post(url, json=body), lambda: b.post(url, json=body)), 201)
    assert loser["error"] == "not_playing"
    with app_session(app) as s:
        tour = core.get(s, t["id"])
        assert ledger.player_balance(s, seated[1]["player_id"]) == 1_000
        assert ledger.balance(s, core.account(s, tour, "bounties")) == 4 * 1_000
        assert ledger.check(s).ok


def test_one_player_registered_at_the_floor_and_the_cage_at_once_pays_once(app, tablets):
    a, _, cage = tablets
    t = a.post("/api/tournaments", json=BASE).get_json()
    url = f"/api/tournaments/{t['id']}/entries"
    loser = one_winner(race(lambda: a.post(url, json={"player_id": 7}), lambda: cage.post(url, json={"player_id": 7})), 201)
    assert loser["error"] == "already_registered"
    with app_session(app) as s:
        tour = core.get(s, t["id"])
        assert core.entries_count(s, tour) == 1
        assert ledger.balance(s, core.account(s, tour, "prize_pool")) == 10_000
