"""A call's response timer is an APScheduler job stored in the database: it survives a restart of the
scheduler and fires in the new one."""
from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

from sqlalchemy import text

from floor.actors import Actor
from floor.models import ListCall, Table
from floor.poker import queries, seating, waitlist
from floor.runtime import scheduler
from floor.settings import HouseSettings
from tests.conftest import app_session
from tests.floor.poker_helpers import HOUSE, T0, fill, manager


def _wait(pred, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.2)
    return False


def test_call_timer_survives_a_scheduler_restart(app):
    with app_session(app) as s:
        main = s.query(Table).filter_by(number=1).one()
        fill(s, main, range(1, 11), T0)
        seating.leave(s, Actor.system("test"), HouseSettings(), queries.open_assignment(s, main.id, 3), "left", 0, T0)
    scheduler.start(app)
    try:
        with app_session(app) as s:
            entry = waitlist.add(s, manager(s), 1, 11)
            # Called (5 minutes) such that the timer runs out 3 seconds from now.
            called_at = datetime.now(timezone.utc) - timedelta(minutes=HOUSE.call_response_minutes, seconds=-3)
            call = waitlist.call(s, manager(s), HOUSE, entry.id, s.query(Table).filter_by(number=1).one(),
                                 now=called_at)
            call_id, expires_at = call.id, call.expires_at
        job_id = f"call-{call_id}"
        assert app.extensions["floor_scheduler"].get_job(job_id) is not None
    finally:
        scheduler.shutdown()
    with app_session(app) as s:
        stored = s.execute(text("SELECT id FROM apscheduler_jobs")).scalars().all()
        assert job_id in stored
    # The time passes while no scheduler runs: nothing happens.
    time.sleep(max(0.0, (expires_at - datetime.now(timezone.utc)).total_seconds()) + 0.5)
    with app_session(app) as s:
        assert s.get(ListCall, call_id).outcome is None

    scheduler.start(app)     # a new scheduler on the same database
    try:
        def expired():
            with app_session(app) as s:
                return s.get(ListCall, call_id).outcome == "expired"
        assert _wait(expired, 15), "the stored timer did not fire after the restart"
        with app_session(app) as s:
            entry = queries.open_entries(s, 1)[0]
            assert (entry.player_id, entry.status, entry.expiries) == (11, "waiting", 1)
            assert s.execute(text("SELECT count(*) FROM apscheduler_jobs WHERE id = :j"), {"j": job_id}).scalar() == 0
    finally:
        scheduler.shutdown()


def test_answering_the_call_cancels_its_timer(app):
    with app_session(app) as s:
        main = s.query(Table).filter_by(number=1).one()
        fill(s, main, range(1, 11), T0)
        seating.leave(s, Actor.system("test"), HouseSettings(), queries.open_assignment(s, main.id, 3), "left", 0, T0)
    scheduler.start(app)
    try:
        with app_session(app) as s:
            entry = waitlist.add(s, manager(s), 1, 11)
            call = waitlist.call(s, manager(s), HOUSE, entry.id, s.query(Table).filter_by(number=1).one())
            call_id, entry_id = call.id, entry.id
        assert app.extensions["floor_scheduler"].get_job(f"call-{call_id}") is not None
        with app_session(app) as s:
            waitlist.seat(s, manager(s), HOUSE, entry_id, 20_000)
        assert app.extensions["floor_scheduler"].get_job(f"call-{call_id}") is None
    finally:
        scheduler.shutdown()
