"""Player ratings over HTTP: a dealer identifies players at his own table only, the pit reads the
day's players, a player's page and the CSV, and bad input gets a clear 4xx."""
from __future__ import annotations

import csv
import io
from datetime import datetime, timedelta, timezone

from floor import ledger
from floor.actors import Actor
from floor.settings import HouseSettings
from floor.tables import table_by_number
from tests.conftest import Login, app_session
from tests.floor.pit.play import spin


def _play(app, login):
    """Bruno identified at seat 3 of the roulette by card over the dealer's API, then two spins."""
    login.dealer(12)
    r = login.post("/api/tables/12/seats/3/player", json={"card_number": "70000002"})
    assert r.status_code == 201, r.get_json()
    assert (r.get_json()["player"], r.get_json()["identified_by"]) == ("Bruno Keller", "card")
    t = datetime.now(timezone.utc) + timedelta(seconds=5)   # after he was identified
    with app_session(app) as session:
        table = table_by_number(session, 12).id
        ledger.credit(session, Actor("Cleo", "cashier", "cage"), 1, 50_000, house=HouseSettings())
        session.commit()
        stakes = [dict(spot="black", amount=2_000, seat=3, source="dealer"), dict(spot="red", amount=1_000, player_id=1)]
        spin(session, table, 61, 17, t, stakes)      # black: Bruno +2,000, Alice -1,000
        spin(session, table, 62, 1, t + timedelta(seconds=20), stakes)   # red: Bruno -2,000, Alice +1,000
    return table


def test_the_pit_reads_the_days_ratings(app, client, login):
    _play(app, login)
    pit = Login(app.test_client())
    pit("pitboss")
    day = pit.client.get("/api/pit/ratings").get_json()
    by = {p["player"]: p for p in day["players"]}
    assert by["Bruno Keller"]["staked"] == 4_000 and by["Bruno Keller"]["won"] == 0
    assert by["Bruno Keller"]["theo"] == 108                    # 4,000 / 37 = 108.1 cents
    assert by["Alice Martin"]["staked"] == 2_000 and by["Alice Martin"]["theo"] == 54
    assert [p["player"] for p in day["players"]] == ["Bruno Keller", "Alice Martin"]

    page = pit.client.get("/pit/ratings")
    assert page.status_code == 200 and "Bruno Keller" in page.get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(pit.client.get("/pit/ratings.csv").get_data(as_text=True))))
    assert rows[0][:3] == ["Player", "Card", "Table"]
    assert sorted((r[0], r[10], r[13]) for r in rows[1:]) == [("Alice Martin", "20.00", "0.54"),
                                                              ("Bruno Keller", "40.00", "1.08")]
    mine = pit.client.get("/api/pit/players/2/ratings").get_json()
    assert mine["totals"]["visits"] == 1 and mine["visits"][0]["seat"] == 3 and mine["visits"][0]["rounds"] == 2
    player_page = pit.client.get("/pit/players/2?lang=fr")
    assert player_page.status_code == 200 and "Bruno Keller" in player_page.get_data(as_text=True)
    assert pit.client.get("/pit/players/999").status_code == 404


def test_seats_at_the_dealers_own_table_only_and_bad_input(app, client, login):
    login.dealer(12)
    assert login.post("/api/tables/10/seats/1/player", json={"player_id": 1}).status_code == 403
    bad = login.post("/api/tables/12/seats/99/player", json={"player_id": 1})
    assert bad.status_code == 400 and bad.get_json()["field"] == "seat"
    unknown = login.post("/api/tables/12/seats/1/player", json={"card_number": "12345678"})
    assert unknown.status_code == 404 and unknown.get_json()["error"] == "unknown_card"
    both = login.post("/api/tables/12/seats/1/player", json={"card_number": "70000001", "player_id": 1})
    assert both.status_code == 400
    typo = login.post("/api/tables/12/seats/1/player", json={"card": "70000001"})
    assert typo.status_code in (400, 422) and typo.get_json()["field"] == "card"
    assert login.post("/api/tables/12/seats/1/player", json={"player_id": 1}).status_code == 201
    assert login.client.get("/api/tables/12/seated").get_json()[0]["player"] == "Alice Martin"
    assert [p["name"] for p in login.client.get("/api/tables/12/players?q=Bruno").get_json()] == ["Bruno Keller"]
    assert login.delete("/api/tables/12/seats/1/player").status_code == 200
    gone = login.delete("/api/tables/12/seats/1/player")
    assert gone.status_code == 409 and gone.get_json()["error"] == "seat_empty"
    poker = Login(app.test_client())
    poker("pitboss")
    wrong = poker.post("/api/tables/1/seats/1/player", json={"player_id": 1})
    assert wrong.status_code == 409 and wrong.get_json()["error"] == "wrong_game"
    cashier = Login(app.test_client())
    cashier("cashier")
    assert cashier.post("/api/tables/12/seats/1/player", json={"player_id": 1}).status_code == 403


def test_the_days_ratings_follow_every_new_bet_and_the_page_is_paged(app, client, login):
    """The day is computed once and read again while nothing changes; a bet settled after a read is
    in the next one. A page number out of range is a clear 400."""
    table = _play(app, login)
    pit = Login(app.test_client())
    pit("pitboss")
    first = pit.client.get("/api/pit/ratings").get_json()
    assert pit.client.get("/api/pit/ratings").get_json() == first
    with app_session(app) as session:
        spin(session, table, 63, 2, datetime.now(timezone.utc) + timedelta(seconds=60),
             [dict(spot="red", amount=500, player_id=1)])
    by = {p["player"]: p for p in pit.client.get("/api/pit/ratings").get_json()["players"]}
    assert by["Alice Martin"]["staked"] == 2_500 and by["Alice Martin"]["rounds"] == 3
    page = pit.client.get("/pit/ratings?page=1")
    assert page.status_code == 200 and "Bruno Keller" in page.get_data(as_text=True)
    for bad in ("2", "0", "x"):
        r = pit.client.get(f"/pit/ratings?page={bad}")
        assert r.status_code == 400, bad
