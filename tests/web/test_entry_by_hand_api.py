"""Entry by hand over the API: who may switch, key and confirm; an impossible number is a 400; a
double tap on confirm settles once."""
from __future__ import annotations

from sqlalchemy import func, select

from floor.models import Round, Settlement
from floor.tables import table_by_number
from tests.conftest import Login, app_session


def _cli(app, *args):
    return app.test_cli_runner().invoke(args=["floor", "token", *args])


def _bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def _as(app, username: str) -> Login:
    who = Login(app.test_client())
    if username == "dealer":
        who.dealer(12)
    else:
        who(username)
    return who


def _locked_spin_with_a_bet(pit: Login, dealer: Login) -> int:
    assert pit.post("/api/tables/12/entry", json={"by_hand": True, "reason": "wheel lost"}).status_code == 200
    assert dealer.post("/api/tables/12/round/open", json={}).status_code == 201
    placed = dealer.post("/api/tables/12/bets", json={"spot": "straight", "numbers": [17], "amount": 1_000,
                                                     "seat": 3, "idempotency_key": "hand-1"})
    assert placed.status_code in (200, 201), placed.get_json()
    state = dealer.post("/api/tables/12/round/close", json={}).get_json()
    assert state["round"]["status"] == "locked"
    return state["round"]["id"]


def test_only_a_pit_boss_switches_a_table_to_entry_by_hand(app):
    for username in ("dealer", "manager", "admin", "cashier"):   # the dealer at table 12's own terminal
        resp = _as(app, username).post("/api/tables/12/entry", json={"by_hand": True, "reason": "wheel lost"})
        assert resp.status_code == 403, (username, resp.get_json())
    pit = _as(app, "pitboss")
    assert pit.post("/api/tables/12/entry", json={"by_hand": True}).status_code == 400           # no reason
    resp = pit.post("/api/tables/12/entry", json={"by_hand": True, "reason": "wheel lost"})
    assert resp.status_code == 200 and resp.get_json()["entry_by_hand"]["reason"] == "wheel lost"
    assert pit.post("/api/tables/12/entry", json={"by_hand": True, "reason": "again"}).status_code == 409
    assert pit.post("/api/tables/1/entry", json={"by_hand": True, "reason": "poker"}).status_code == 409
    listed = {t["number"]: t["by_hand"] for t in pit.client.get("/api/tables/entry").get_json()}
    assert listed[12] is True and listed[10] is False


def test_keying_confirming_and_settling_once(app):
    pit, dealer = _as(app, "pitboss"), _as(app, "dealer")
    rid = _locked_spin_with_a_bet(pit, dealer)
    for bad in (37, -1, "17", 17.5, True, None):
        resp = dealer.post("/api/tables/12/round/number", json={"number": bad})
        assert resp.status_code == 400, (bad, resp.get_json())
    keyed = dealer.post("/api/tables/12/round/number", json={"number": 17})
    assert keyed.status_code == 200 and keyed.get_json()["round"]["keyed"]["result"]["number"] == 17
    assert keyed.get_json()["round"]["status"] == "locked"
    waiting = pit.client.get("/api/rounds/keyed").get_json()
    assert [r["id"] for r in waiting] == [rid]
    # the dealer cannot confirm (wrong role), nor can the pit boss who keys himself
    assert dealer.post(f"/api/rounds/{rid}/confirm-hand", json={}).status_code == 403
    manager = _as(app, "manager")
    first = manager.post(f"/api/rounds/{rid}/confirm-hand", json={})
    second = manager.post(f"/api/rounds/{rid}/confirm-hand", json={})     # the double tap
    assert first.status_code == 200 and second.status_code == 200
    assert first.get_json()["status"] == "settled" and first.get_json()["result"]["by_hand"] is True
    assert first.get_json()["bets"][0]["paid"] == 36_000          # 35 to 1 and the stake back
    with app_session(app) as s:
        assert s.execute(select(func.count(Settlement.id)).where(Settlement.round_id == rid)).scalar_one() == 1


def test_the_keyer_cannot_confirm_and_a_dealer_token_of_another_table_cannot_key(app):
    pit, pit2 = _as(app, "pitboss"), _as(app, "pitboss2")
    rid = _locked_spin_with_a_bet(pit, _as(app, "dealer"))
    other = _cli(app, "create", "dealer", "--table", "10", "--label", "baccarat terminal").output.strip()
    refused = pit.client.post("/api/tables/12/round/number", json={"number": 5}, headers=_bearer(other))
    assert refused.status_code == 403 and refused.get_json()["error"] == "wrong_table"
    mine = _cli(app, "create", "dealer", "--table", "12", "--label", "wheel terminal").output.strip()
    # the pit boss keys himself: he is then no second person
    assert pit.post("/api/tables/12/round/number", json={"number": 5}).status_code == 200
    same = pit.post(f"/api/rounds/{rid}/confirm-hand", json={})
    assert same.status_code == 403 and same.get_json()["error"] == "same_person"
    assert pit2.post(f"/api/rounds/{rid}/refuse-hand", json={"reason": "ball in 6"}).status_code == 200
    assert pit.client.post("/api/tables/12/round/number", json={"number": 6},
                           headers=_bearer(mine)).status_code == 200
    assert pit.post(f"/api/rounds/{rid}/confirm-hand", json={}).status_code == 200
    with app_session(app) as s:
        r = s.get(Round, rid)
        assert r.status == "settled" and r.result["number"] == 6
    # back to the wheel, by the pit boss
    assert pit.post("/api/tables/12/entry", json={"by_hand": False}).status_code == 200
    with app_session(app) as s:
        assert table_by_number(s, 12) is not None
