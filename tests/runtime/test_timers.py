"""Timers are rows: set in the caller's transaction by any process, run exactly once by the
scheduler, on time, surviving a restart of either side."""
from __future__ import annotations

import threading
import time
import uuid
from datetime import datetime, timedelta, timezone

import pytest
import redis
from sqlalchemy import func, select
from sqlalchemy.orm import sessionmaker

from floor import audit, jobs, timers
from floor.actors import Actor
from floor.errors import InvalidState
from floor.models import AuditRecord, ListCall, Table, Timer
from floor.poker import queries, seating, waitlist
from floor.runtime import scheduler
from floor.runtime.scheduler import TimerDispatch
from floor.settings import HouseSettings
from tests.floor.poker_helpers import HOUSE, T0, fill, manager
from tests.conftest import app_session as db_session

REDIS = "redis://127.0.0.1:6379/0"
FAILS: dict[str, int] = {}


@jobs.job("test.record")
def record(session, settings, key: str) -> None:
    """What a timer did, in its own transaction: one audit record per run."""
    audit.record(session, Actor.system("test timer"), "timer.ran", key)


@jobs.job("test.flaky")
def flaky(session, settings, key: str) -> None:
    audit.record(session, Actor.system("test timer"), "timer.ran", key)
    if FAILS.get(key, 0) > 0:
        FAILS[key] -= 1
        raise RuntimeError("the database went away mid-job")


@jobs.job("test.refused")
def refused(session, settings, key: str) -> None:
    audit.record(session, Actor.system("test timer"), "timer.ran", key)
    raise InvalidState("the round moved on")


def wait(pred, timeout: float = 120.0, what: str = ""):   # a hang guard, not a deadline
    deadline = time.monotonic() + timeout
    while True:
        value = pred()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what or pred}"
        time.sleep(0.05)


def runs(app, key: str) -> int:
    with db_session(app) as s:
        return s.execute(select(func.count(AuditRecord.id)).where(AuditRecord.action == "timer.ran",
                                                                  AuditRecord.subject == key)).scalar_one()


def status(app, key: str) -> list[str]:
    with db_session(app) as s:
        return list(s.execute(select(Timer.status).where(Timer.key == key).order_by(Timer.id)).scalars())


def dispatch_for(app) -> TimerDispatch:
    from floor.web.extensions import db
    with app.app_context():
        return TimerDispatch(sessionmaker(bind=db.engine, expire_on_commit=False), app.config["HOUSE"])


def test_call_timer_set_while_no_scheduler_runs_fires_when_one_starts(app):
    with db_session(app) as s:
        main = s.query(Table).filter_by(number=1).one()
        fill(s, main, range(1, 11), T0)
        seating.leave(s, Actor.system("test"), HouseSettings(), queries.open_assignment(s, main.id, 3), "left", 0, T0)
    with db_session(app) as s:
        entry = waitlist.add(s, manager(s), 1, 11)
        # called long enough ago that the response time has run out already
        called_at = datetime.now(timezone.utc) - timedelta(minutes=HOUSE.call_response_minutes, seconds=1)
        call = waitlist.call(s, manager(s), HOUSE, entry.id, s.query(Table).filter_by(number=1).one(), now=called_at)
        call_id = call.id
    assert status(app, f"call-{call_id}") == ["pending"]
    with db_session(app) as s:
        assert s.get(ListCall, call_id).outcome is None   # nobody runs timers yet

    scheduler.start(app)
    try:
        def expired():
            with db_session(app) as s:
                return s.get(ListCall, call_id).outcome == "expired"
        wait(expired, what="the stored timer to fire in the new scheduler")
        with db_session(app) as s:
            entry = queries.open_entries(s, 1)[0]
            assert (entry.player_id, entry.status, entry.expiries) == (11, "waiting", 1)
        assert status(app, f"call-{call_id}") == ["done"]
    finally:
        scheduler.shutdown()


def test_answering_the_call_cancels_its_timer(app):
    with db_session(app) as s:
        main = s.query(Table).filter_by(number=1).one()
        fill(s, main, range(1, 11), T0)
        seating.leave(s, Actor.system("test"), HouseSettings(), queries.open_assignment(s, main.id, 3), "left", 0, T0)
    with db_session(app) as s:
        entry = waitlist.add(s, manager(s), 1, 11)
        call = waitlist.call(s, manager(s), HOUSE, entry.id, s.query(Table).filter_by(number=1).one())
        call_id, entry_id = call.id, entry.id
    with db_session(app) as s:
        waitlist.seat(s, manager(s), HOUSE, entry_id, 20_000)
    assert status(app, f"call-{call_id}") == ["cancelled"]


def test_every_due_timer_runs_exactly_once_with_two_dispatchers_racing(app):
    now = datetime.now(timezone.utc)
    keys = [f"race-{i}" for i in range(40)]
    with db_session(app) as s:
        for i, key in enumerate(keys):
            timers.set_timer(s, key, "test.record", now - timedelta(milliseconds=i), key)
    a, b = dispatch_for(app), dispatch_for(app)
    threads = [threading.Thread(target=d.run_due) for d in (a, b, a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert [runs(app, k) for k in keys] == [1] * len(keys)
    assert {s for k in keys for s in status(app, k)} == {"done"}
    assert len(a.fired) + len(b.fired) == len(keys)


def test_a_failing_job_leaves_nothing_and_runs_again_and_a_refusal_is_final(app):
    now = datetime.now(timezone.utc)
    FAILS["flaky"] = 1
    with db_session(app) as s:
        timers.set_timer(s, "flaky", "test.flaky", now, "flaky")
        timers.set_timer(s, "refused", "test.refused", now, "refused")
    d = dispatch_for(app)
    d.run_due()
    assert runs(app, "flaky") == 0 and runs(app, "refused") == 0     # both rolled back
    with db_session(app) as s:
        flaky_row = s.execute(select(Timer).where(Timer.key == "flaky")).scalar_one()
        refused_row = s.execute(select(Timer).where(Timer.key == "refused")).scalar_one()
        assert (flaky_row.status, flaky_row.attempts) == ("pending", 1)
        assert "database went away" in flaky_row.last_error
        assert flaky_row.due_at > now          # tried again after a back-off
        assert (refused_row.status, refused_row.last_error) == ("done", "the round moved on")
        s.execute(Timer.__table__.update().where(Timer.key == "flaky").values(due_at=now))
    d.run_due()
    assert runs(app, "flaky") == 1 and status(app, "flaky") == ["done"]


@pytest.mark.slow
def test_a_timer_set_in_another_process_wakes_the_scheduler_on_time(app_config, tmp_path):
    """The scheduler polls every few seconds; a timer due sooner fires on time because the process
    that set it announces it through Redis after its commit."""
    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=1).ping()
    except redis.RedisError:
        pytest.skip("Redis is not running on 127.0.0.1:6379 (.ci/run starts it)")
    from app import create_app
    channel = f"floorman-test-{uuid.uuid4().hex}"
    app = create_app(app_config)
    # the scheduler listens on Redis; the app's Socket.IO stays off the queue (the socketio object is
    # shared by every app of this test process, and its test client refuses a queue)
    app.config["FLOOR"]["app"].update(message_queue=REDIS, message_queue_channel=channel)
    sched = scheduler.start(app)
    try:
        assert sched.listener is not None     # subscribed before start() returned
        # Only a wake-up can run these timers: the poll, the safety net, is paused. (How late they run
        # is a figure of `make bench`, not an assertion here: a loaded machine is late, not wrong.)
        sched.aps.pause_job("timers-poll")
        # the other process: it announces its timers on Redis (its waker), not in-process
        timers.set_waker(scheduler.redis_waker(REDIS, channel))
        lags = []
        for i in range(5):
            due = datetime.now(timezone.utc) + timedelta(seconds=0.6)
            with db_session(app) as s:
                timers.set_timer(s, f"wake-{i}", "test.record", due, f"wake-{i}")
            # the scheduler keeps the time it ran a timer once that run is committed: wait for that
            wait(lambda: any(k == f"wake-{i}" for (_, k, _, _) in sched.dispatch.fired), 120, f"timer wake-{i}")
            assert runs(app, f"wake-{i}") == 1
            ran = next(r for (_, k, _, r) in sched.dispatch.fired if k == f"wake-{i}")
            lags.append((ran - due).total_seconds())
        print("timer lag after a Redis wake-up (s):", " ".join(f"{lag:.3f}" for lag in lags))
        assert all(lag >= 0 for lag in lags), lags     # never before it is due
    finally:
        scheduler.shutdown()
        timers.set_waker(None)
        from floor.web.extensions import db
        with app.app_context():
            db.engine.dispose()
