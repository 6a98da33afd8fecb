"""A held round is settled, corrected or voided while its table plays the next round; and after a
correction the round shows as paid what the ledger paid."""
from __future__ import annotations

from datetime import datetime, timezone

from floor import ledger, rounds
from floor.models import Round
from floor.tables import table_by_number
from tests.conftest import Login, app_session
from tests.web.roulette_rounds import HOUSE, held


def _next_round_opens(app) -> int:
    """The wheel spins on: the table's next round takes bets."""
    with app_session(app) as s:
        table = table_by_number(s, 12).id
        rounds.wheel_status(s, table, 2, 71, (), datetime.now(timezone.utc), house=HOUSE)
        s.commit()
        live = rounds.active_round(s, table, lock=False)
        assert live is not None and live.status == "betting"
        return live.id


def _status(app, rid: int) -> str:
    with app_session(app) as s:
        return s.get(Round, rid).status


def test_a_held_round_is_settled_while_the_next_round_takes_bets(app, login):
    rid = held(app, {"straight:17": 1_000}, 4)
    live = _next_round_opens(app)
    login("pitboss")
    resp = login.post(f"/api/rounds/{rid}/settle", json={"number": 17})
    assert resp.status_code == 200, resp.get_json()
    assert resp.get_json()["status"] == "settled"
    assert _status(app, live) == "betting"


def test_a_held_round_is_corrected_and_voided_by_ruling_while_the_table_plays_on(app, login):
    corrected = held(app, {"straight:17": 1_000}, 4)
    live = _next_round_opens(app)
    login("pitboss")
    resp = login.post(f"/api/pit/rounds/{corrected}/rulings", json={"kind": "correct", "number": 17, "reason": "camera"})
    assert resp.status_code == 201 and resp.get_json()["state"] == "applied", resp.get_json()
    assert _status(app, corrected) == "settled" and _status(app, live) == "betting"


def test_after_a_correction_the_round_shows_what_the_ledger_paid(app, login):
    # Settled on 17: the 100.00 straight was paid 3,600.00; the ball was in 18, a second pit boss agrees.
    rid = held(app, {"straight:17": 10_000, "red": 1_000}, 4, settle_on=17)
    login("pitboss")
    made = login.post(f"/api/pit/rounds/{rid}/rulings", json={"kind": "correct", "number": 18, "reason": "ball in 18"})
    assert made.status_code == 201 and made.get_json()["state"] == "pending"
    second = Login(login.client.application.test_client())
    second("pitboss2")
    assert second.post(f"/api/pit/rulings/{made.get_json()['id']}/approve", json={}).status_code == 200
    view = second.client.get(f"/api/rounds/{rid}").get_json()
    paid = {b["spot"]: b["paid"] for b in view["bets"]}
    assert paid == {"straight": 0, "red": 2_000}      # 18 is red: 10.00 back and 10.00 won
    with app_session(app) as s:
        assert ledger.check(s).ok
