"""Dealer rotation over HTTP: the PIN login hands the table over, the terminal sees its dealer and
his relief, the pit clocks dealers in and out and moves them; only the floor's staff may."""
from __future__ import annotations

from sqlalchemy import select

from floor.models import Round, Staff
from tests.conftest import Login, app_session


def _ids(app):
    with app_session(app) as session:
        return dict(session.execute(select(Staff.username, Staff.id).where(Staff.role == "dealer")).all())


def test_the_pin_login_hands_the_table_over(app, client, login):
    ids = _ids(app)
    login.dealer(12)                                   # Dan logs in at the wheel: he deals there
    mine = client.get("/api/tables/12/dealer").get_json()
    assert mine["dealer"] == "Dan Dealer" and mine["incoming"] is None and mine["due_at"]
    pit = Login(app.test_client())
    pit("pitboss")
    board = pit.post(f"/api/rotation/dealers/{ids['dealer2']}/clock-in", json={}).get_json()
    assert next(t for t in board["tables"] if t["table"] == 12)["dealer"] == "Dan Dealer"
    assert [b["dealer"] for b in board["breaks"]] == ["Dora Dealer"]
    # Dora is planned to relieve somebody: the table without a dealer first, then Dan
    assert any(t["incoming"] == "Dora Dealer" for t in board["tables"])
    # she logs in at the wheel's terminal: Dan goes on his break, the rounds from now are hers
    other = Login(app.test_client())
    other.dealer(12, username="dealer2", pin="2345")
    assert other.client.get("/api/tables/12/dealer").get_json()["dealer"] == "Dora Dealer"
    board = pit.client.get("/api/rotation").get_json()
    assert [b["dealer"] for b in board["breaks"]] == ["Dan Dealer"]
    assert other.post("/api/tables/12/round/open", json={}).status_code in (200, 201)
    with app_session(app) as session:
        r = session.execute(select(Round).order_by(Round.id.desc())).scalars().first()
        assert r.dealer_id == ids["dealer2"]
    page = pit.client.get("/pit/rotation?lang=fr").get_data(as_text=True)
    assert 'id="rotation-tables"' in page and "Rotation des croupiers" in page


def test_who_may_run_the_rotation(app, client, login):
    ids = _ids(app)
    login.dealer(12)
    assert login.post(f"/api/rotation/dealers/{ids['dealer2']}/clock-in", json={}).status_code == 403
    assert client.get("/api/tables/10/dealer").status_code == 403          # another table's terminal
    boss = Login(app.test_client())
    boss("pitboss")
    out = boss.post(f"/api/rotation/dealers/{ids['dealer']}/clock-out", json={})
    assert out.status_code == 409 and out.get_json()["error"] == "at_a_table"
    assert boss.post(f"/api/rotation/dealers/{ids['dealer']}/break", json={}).status_code == 200
    assert boss.post(f"/api/rotation/dealers/{ids['dealer']}/clock-out", json={}).status_code == 200
    assert boss.post("/api/rotation/dealers/99999/clock-in", json={}).status_code == 404
    assert boss.post(f"/api/rotation/dealers/{ids['dealer']}/clock-in", json={"x": 1}).status_code in (400, 422)
    sent = boss.post(f"/api/rotation/dealers/{ids['dealer2']}/table/10", json={})
    assert sent.status_code == 200
    assert next(t for t in sent.get_json()["tables"] if t["table"] == 10)["dealer"] == "Dora Dealer"


def test_closing_a_table_ends_its_visits_and_sends_its_dealer_on_break(app, client, login):
    login.dealer(12)
    assert login.post("/api/tables/12/seats/3/player", json={"card_number": "70000003"}).status_code == 201
    manager = Login(app.test_client())
    manager("manager")
    assert manager.post("/api/floor/tables/12/close", json={}).status_code == 200
    boss = Login(app.test_client())
    boss("pitboss")
    board = boss.client.get("/api/rotation").get_json()
    assert [b["dealer"] for b in board["breaks"]] == ["Dan Dealer"]
    assert all(t["table"] != 12 for t in board["tables"])          # a closed table is off the rotation
    assert boss.client.get("/api/tables/12/seated").get_json() == []
