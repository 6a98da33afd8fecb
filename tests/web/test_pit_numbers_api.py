"""The pit's numbers over HTTP: the live pace and the day's pace, on the console and the shift report."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import insert

from floor.models import Round
from floor.tables import table_by_number
from tests.conftest import Login, app_session


def _spins(app, minutes_apart: float, count: int):
    now = datetime.now(timezone.utc)
    with app_session(app) as session:
        table = table_by_number(session, 12).id
        times = [now - timedelta(minutes=minutes_apart * i) for i in range(count)]
        session.execute(insert(Round.__table__), [
            {"table_id": table, "number": 500 + i, "kind": "roulette", "status": "settled", "opened_at": t,
             "result_at": t, "ended_at": t, "result": {"number": 1}, "device": {}, "steps": 0, "version": 3}
            for i, t in enumerate(times)])


def test_the_pit_sees_each_tables_pace(app, client, login):
    _spins(app, 3, 10)      # 10 spins in the last 30 minutes: 20 an hour, the house wants 30 to 40
    login("pitboss")
    live = {r["table"]: r for r in client.get("/api/pit/pace").get_json()}
    assert live[12]["rate"] == 20.0 and live[12]["status"] == "below" and live[12]["target_min"] == 30
    assert live[10]["status"] == "idle"
    day = client.get("/api/pit/pace/day").get_json()
    wheel = next(t for t in day["tables"] if t["table"] == 12)
    assert wheel["rounds"] == 10 and wheel["rate"] == 20.0
    page = client.get("/pit/shift?lang=de").get_data(as_text=True)
    assert 'id="shift-pace"' in page and "unter dem Ziel" in page
    assert client.get("/api/pit/pace/day?day=2024-13-01").status_code in (400, 422)
    cashier = Login(app.test_client())
    cashier("cashier")
    assert cashier.client.get("/api/pit/pace").status_code == 200
    display = Login(app.test_client())
    display("display")
    assert display.client.get("/api/pit/pace").status_code == 403


def test_the_pit_looks_at_a_wheel_and_closes_its_alert_with_a_note(app, client, login):
    from floor import alerts
    from floor.actors import Actor
    with app_session(app) as session:
        table = table_by_number(session, 12).id
        a = alerts.raise_alert(session, Actor.system("wheel watch"), "direction_not_alternating", "Wheel at table 12: ...",
                               table_id=table, data={"table": 12, "rounds": [], "last_round_id": 0})
        alert_id = a.id
    _spins(app, 1, 5)
    login("pitboss")
    view = client.get("/api/pit/wheels/12").get_json()
    assert view["spins"] == 5 and sum(view["counts"]) == 5 and view["counts"][1] == 5
    assert view["spins_last_hour"] == 5
    assert client.get("/api/pit/wheels/10").get_json()["error"] == "wrong_game"
    assert client.get("/pit/wheels").status_code == 302
    assert 'id="wheel-chart"' in client.get("/pit/wheels/12").get_data(as_text=True)
    manager = Login(app.test_client())
    manager("manager")
    refused = manager.post(f"/api/alerts/{alert_id}/acknowledge", json={"note": "fine"})
    assert refused.status_code == 403
    bare = login.post(f"/api/alerts/{alert_id}/acknowledge", json={})
    assert bare.status_code == 400 and bare.get_json()["field"] == "note"
    ok = login.post(f"/api/alerts/{alert_id}/acknowledge", json={"note": "rotor controller reset"})
    assert ok.status_code == 200 and ok.get_json()["acknowledged"]
