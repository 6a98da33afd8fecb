"""A player's standing is asked in one place wherever he is put: banned from the poker area for the
gaming day (three warnings), he registers for no tournament; barred from the floor, he is identified
at no live-game seat; the list and the poker seat refuse him as before."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from floor.models import AuditRecord, Ban, PlayerVisit, TournamentEntry
from tests.conftest import Login, app_session
from tests.floor.tournaments.helpers import players, tables

BASE = {"name": "Banned test", "game_id": 1, "buy_in": 10_000, "fee": 1_000, "structure": "daily_turbo",
        "seats_per_table": 10, "final_table_size": 9, "table_numbers": [41, 42]}


def _three_warnings(login, player_id: int) -> None:
    for n in range(3):
        r = login.post("/api/conduct/warnings", json={"player_id": player_id, "reason": "electronic_device",
                                                      "ban_confirmed": True})
        assert r.status_code == 201, r.get_json()


def test_three_warnings_bar_him_from_the_tournament_too(app, login):
    with app_session(app) as s:
        tables(s, (41, 42))
        pid, other = players(s, 2)
    login("manager")
    t = login.post("/api/tournaments", json=BASE).get_json()
    _three_warnings(login, pid)
    cashier = Login(app.test_client())
    cashier("cashier")
    r = cashier.post(f"/api/tournaments/{t['id']}/entries", json={"player_id": pid, "paid_with": "cash"})
    assert r.status_code == 409 and r.get_json()["error"] == "player_banned", r.get_json()
    assert "banned" in r.get_json()["message"]
    french = Login(app.test_client())
    french("cashier")
    r = french.client.post(f"/api/tournaments/{t['id']}/entries?lang=fr", json={"player_id": pid},
                           headers=french.headers())
    assert r.status_code == 409 and "banned" not in r.get_json()["message"]
    assert cashier.post(f"/api/tournaments/{t['id']}/entries", json={"player_id": other}).status_code == 201
    with app_session(app) as s:
        assert [e.player_id for e in s.query(TournamentEntry).filter_by(tournament_id=t["id"])] == [other]
    # the ban lifted, he may enter
    ban_id = next(b["id"] for b in login.client.get("/api/conduct/bans").get_json() if b["player_id"] == pid)
    assert login.post(f"/api/conduct/bans/{ban_id}/lift", json={"reason": "appeal heard"}).status_code == 200
    assert cashier.post(f"/api/tournaments/{t['id']}/entries", json={"player_id": pid}).status_code == 201


def test_a_floor_wide_ban_bars_a_live_game_seat_and_the_poker_list(app, login):
    now = datetime.now(timezone.utc)
    with app_session(app) as s:
        s.add(Ban(player_id=5, scope="house", reason="self-exclusion", starts_at=now - timedelta(minutes=1),
                  expires_at=now + timedelta(days=365)))
        s.add(Ban(player_id=6, scope="poker_room", reason="three warnings", starts_at=now - timedelta(minutes=1),
                  expires_at=now + timedelta(hours=6)))
    login("pitboss")
    r = login.post("/api/tables/14/seats/2/player", json={"player_id": 5})
    assert r.status_code == 409 and r.get_json()["error"] == "player_banned"
    # a ban from the poker area only does not bar the blackjack table
    assert login.post("/api/tables/14/seats/3/player", json={"player_id": 6}).status_code in (200, 201)
    with app_session(app) as s:
        assert [v.player_id for v in s.query(PlayerVisit).filter(PlayerVisit.player_id.in_((5, 6)))] == [6]
    manager = Login(app.test_client())
    manager("manager")
    r = manager.post("/api/waitlists/1/entries", json={"player_id": 5})
    assert r.status_code == 409 and r.get_json()["error"] in ("banned", "player_banned")


def test_a_ban_while_the_tournament_runs_puts_him_out_and_the_director_sees_it(app, login):
    with app_session(app) as s:
        tables(s, (41, 42))
        ids = players(s, 3)
    login("manager")
    t = login.post("/api/tournaments", json=BASE | {"name": "Banned mid-run"}).get_json()
    for pid in ids:
        assert login.post(f"/api/tournaments/{t['id']}/entries", json={"player_id": pid}).status_code == 201
    assert login.post(f"/api/tournaments/{t['id']}/start", json={}).status_code == 200
    assert login.post(f"/api/tournaments/{t['id']}/close-registration", json={}).status_code == 200
    _three_warnings(login, ids[0])
    entries = {e["player_id"]: e for e in login.client.get(f"/api/tournaments/{t['id']}").get_json()["entries"]}
    assert (entries[ids[0]]["status"], entries[ids[0]]["banned"], entries[ids[0]]["seat"]) == ("out", True, None)
    assert entries[ids[0]]["place"] == 3
    assert [entries[p]["status"] for p in ids[1:]] == ["seated", "seated"]
    clock = login.client.get(f"/api/tournaments/{t['id']}/clock").get_json()
    assert clock["players_left"] == 2 and clock["counts_add_up"]
    with app_session(app) as s:
        assert s.query(AuditRecord).filter_by(action="tournament.banned").count() == 1
    # the director's results page says why he is out, in the reader's language
    page = login.client.get(f"/tournaments/{t['id']}/results?lang=fr").get_data(as_text=True)
    row = page.split(f'data-entry="{entries[ids[0]]["id"]}"')[1].split("</tr>")[0]
    assert "exclu" in row and "banned" not in row
