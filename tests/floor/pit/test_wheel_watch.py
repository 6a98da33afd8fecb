"""Wheel integrity from the simulator's own wheels: a fair wheel raises nothing (and its false-alarm
rate is measured), a biased wheel raises "possible bias" with its figures, a wheel that does not
alternate its rotor and a rotor out of its speed range raise theirs, each once; a pit boss closes
them with a note. One wheel plays through the real pty, reader and bridge."""
from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import insert, select
from sqlalchemy.orm import Session, sessionmaker

from devices.dispatch import RoundsDispatch
from devices.simulate.wheel import WheelSimulator
from floor import alerts
from floor.errors import BadInput, NotAllowed
from floor.games import wheel_stats
from floor.models import Alert, AuditRecord, Round
from floor.pit import wheel_watch
from floor.settings import HouseSettings
from tests.conftest import make_engine
from tests.devices.helpers import PtyLine, wait_until
from tests.floor.rounds.helpers import DEALER, HOUSE, PIT, T0, tid

S = timedelta(seconds=100)
HOT_ARC = wheel_stats.arc(17, 9)          # nine neighbouring pockets around 17


def _play(session, table, sim: WheelSimulator, n: int, first: int = 1, rpm=None):
    """``n`` spins of the simulated wheel, stored as the settled rounds the floor would have."""
    rows = []
    for i in range(n):
        number, direction, speed = sim.draw_number(), sim.direction, rpm or sim.draw_rpm()
        sim.next_spin()
        t = T0 + (first + i) * S
        rows.append({"table_id": table, "number": first + i, "kind": "roulette", "status": "settled", "spin": sim.spin,
                     "opened_at": t, "result_at": t, "ended_at": t, "result": {"number": number},
                     "device": {"rpm": speed, "direction": direction}, "steps": 0, "version": 3})
    session.execute(insert(Round.__table__), rows)
    session.commit()


def _kinds(raised):
    return sorted(a.kind for a in raised)


def test_a_fair_wheel_raises_nothing(session):
    wheel = tid(session, 12)
    _play(session, wheel, WheelSimulator(None, seed=5), 1_000)
    assert wheel_watch.check(session, HOUSE, T0 + 1_001 * S) == []
    view = wheel_watch.wheel(session, wheel, HOUSE, T0 + 1_001 * S)
    assert view["spins_last_hour"] == 36                          # one spin every 100 s
    assert view["window"] == 2 and view["report"].possible_bias is False and view["directions_alternate"]
    assert sum(view["counts"]) == 500 and sum(s["hits"] for s in view["sections"]) == 500


def test_the_false_alarm_rate_of_a_fair_wheel_is_the_houses_p():
    # 400 windows of 500 spins of the fair simulated wheel, each tested once as the watch does
    sim, settings = WheelSimulator(None, seed=21), wheel_watch.watch_settings(HOUSE)
    alarms = sum(wheel_stats.bias_check([sim.draw_number() for _ in range(500)], settings).possible_bias
                 for _ in range(400))
    # at p = 0.01 about 4 expected; more than 12 would happen by chance less than once in 10,000
    assert alarms <= 12, alarms


def test_a_biased_wheel_raises_possible_bias_with_its_figures(session):
    wheel = tid(session, 12)
    biased = WheelSimulator(None, seed=8, bias={p: 1.6 for p in HOT_ARC})
    _play(session, wheel, biased, 499)
    assert wheel_watch.check(session, HOUSE, T0) == []            # the window is not complete yet
    _play(session, wheel, biased, 1, first=500)
    raised = wheel_watch.check(session, HOUSE, T0 + 501 * S)
    session.commit()
    assert _kinds(raised) == ["possible_bias"]
    a = raised[0]
    assert a.severity == "critical" and a.data["window"] == 1 and "spins 1 to 500" in a.message
    report = a.data["report"]
    assert report["possible_bias"] and report["spins"] == 500 and "hottest arc" in report["failing"]
    hot = next(t for t in report["tests"] if t["name"] == "hottest arc")
    assert set(hot["labels"][0]) & set(HOT_ARC) and hot["observed"][0] > hot["expected"][0]
    assert "chi-square" in a.data["summary"]
    # the same window is not alerted twice, even once acknowledged
    assert wheel_watch.check(session, HOUSE, T0 + 502 * S) == []
    alerts.acknowledge(session, PIT, a.id, "wheel levelled, ball track cleaned")
    session.commit()
    assert wheel_watch.check(session, HOUSE, T0 + 503 * S) == []


def test_every_completed_window_is_tested_not_only_the_last(session):
    """Two windows complete between two checks, the first on a biased wheel, the second after the
    wheel was changed: the first is tested and alerted; each window is tested once, alarm or not."""
    wheel = tid(session, 12)
    _play(session, wheel, WheelSimulator(None, seed=8, bias={p: 1.6 for p in HOT_ARC}), 500)
    _play(session, wheel, WheelSimulator(None, seed=5), 500, first=501)
    raised = wheel_watch.check(session, HOUSE, T0 + 1_001 * S)
    session.commit()
    assert [(a.kind, a.data["window"]) for a in raised] == [("possible_bias", 1)]
    assert "spins 1 to 500" in raised[0].message
    tested = session.execute(select(AuditRecord.after).where(AuditRecord.action == "wheel.window_tested")
                             .order_by(AuditRecord.id)).scalars().all()
    assert ['"window":1' in t and '"possible_bias":true' in t for t in tested] == [True, False]
    assert '"window":2' in tested[1]
    assert wheel_watch.check(session, HOUSE, T0 + 1_002 * S) == []     # both tested: not again
    session.commit()
    assert len(session.execute(select(AuditRecord.id).where(AuditRecord.action == "wheel.window_tested")).all()) == 2


def test_a_wheel_that_does_not_alternate_raises_once(session):
    wheel = tid(session, 12)
    stuck = WheelSimulator(None, seed=2, alternate=False)
    _play(session, wheel, stuck, 5)
    raised = wheel_watch.check(session, HOUSE, T0 + 6 * S)
    session.commit()
    assert _kinds(raised) == ["direction_not_alternating"]
    assert len(raised[0].data["rounds"]) == 4                     # spins 2..5 turned as the one before
    _play(session, wheel, stuck, 3, first=6)
    assert wheel_watch.check(session, HOUSE, T0 + 9 * S) == []    # still open: one alert
    with pytest.raises(BadInput):
        alerts.acknowledge(session, PIT, raised[0].id)           # a note is needed
    session.rollback()
    with pytest.raises(NotAllowed):
        alerts.acknowledge(session, DEALER, raised[0].id, "looks fine")
    session.rollback()
    alerts.acknowledge(session, PIT, raised[0].id, "rotor motor controller replaced", at=T0 + 9.5 * S)
    session.commit()
    assert wheel_watch.check(session, HOUSE, T0 + 10 * S) == []   # nothing new since
    _play(session, wheel, stuck, 1, first=10)                    # played after the acknowledgement
    again = wheel_watch.check(session, HOUSE, T0 + 11 * S)
    assert _kinds(again) == ["direction_not_alternating"] and again[0].data["rounds"] == [again[0].data["last_round_id"]]
    rec = session.execute(select(AuditRecord).where(AuditRecord.action == "alert.acknowledge")
                          .order_by(AuditRecord.id.desc())).scalars().first()
    assert "rotor motor controller replaced" in rec.after and rec.actor == PIT.name


def test_a_rotor_out_of_its_speed_range(session):
    wheel = tid(session, 12)
    sim = WheelSimulator(None, seed=4)
    _play(session, wheel, sim, 3)
    assert wheel_watch.check(session, HOUSE, T0 + 4 * S) == []
    _play(session, wheel, sim, 1, first=4, rpm=41.5)
    raised = wheel_watch.check(session, HOUSE, T0 + 5 * S)
    assert _kinds(raised) == ["speed_out_of_range"] and "41.5" in raised[0].message
    session.commit()
    alerts.acknowledge(session, PIT, raised[0].id, "motor speed set back", at=T0 + 4.5 * S)
    session.commit()
    assert wheel_watch.check(session, HOUSE, T0 + 6 * S) == []
    # a stricter house judges the next spins by its own range
    _play(session, wheel, sim, 2, first=5, rpm=25.0)              # after the acknowledgement at 4.5
    strict = HouseSettings(wheel_rotor_rpm_min=26, wheel_rotor_rpm_max=30)
    again = wheel_watch.check(session, strict, T0 + 8 * S)
    assert _kinds(again) == ["speed_out_of_range"] and len(again[0].data["faults"]) == 2


@pytest.mark.slow
def test_a_simulated_wheel_that_does_not_alternate_through_the_pty(sqlite_url, tmp_path):
    engine = make_engine(sqlite_url)
    factory = sessionmaker(bind=engine, expire_on_commit=False)
    with PtyLine(factory, tmp_path, "wheel", 12, RoundsDispatch(factory, HOUSE)) as line:
        line.play(WheelSimulator, seed=6, speed=10.0, alternate=False,
                  timings={"before": 0.5, "bets": 1.0, "spinning": 1.0, "no_more_bets": 0.5, "result": 1.0})
        table = line.table_id

        def three_spins():
            with Session(engine) as s:
                devices = s.execute(select(Round.device).where(Round.table_id == table, Round.status == "settled")
                                    .order_by(Round.id)).scalars().all()
                return devices[:3] if len(devices) >= 3 else None
        devices = wait_until(three_spins, what="three settled spins")
    # the rotor's speed and direction the wheel reported at "no more bets" are on the rounds
    assert all(d["direction"] == devices[0]["direction"] and 15 <= d["rpm"] <= 30 for d in devices)
    with Session(engine) as s:
        raised = wheel_watch.check(s, HOUSE, T0)
        s.commit()
        assert _kinds(raised) == ["direction_not_alternating"]
        assert s.execute(select(Alert.table_id).where(Alert.kind == "direction_not_alternating")).scalars().all() == [table]
    engine.dispose()
