"""How late a timer fires: the scheduler woken through Redis by the process that set the timer (as
a web or device process does), 60 timers due over two seconds, the lag from due time to the job's
commit measured by the dispatcher.

Run by ``make bench``; prints ``timer_lag_p50_ms_sqlite`` and ``timer_lag_p99_ms_sqlite`` (and the
``_postgres`` pair when TEST_DATABASE_URL is set). Goal: p99 well under 1000 (a timer fires within a
second of its due time).
"""
from __future__ import annotations

import statistics
import time
import uuid
from datetime import datetime, timedelta, timezone

import pytest
import redis

from floor import jobs, timers
from floor.runtime import scheduler
from tests.conftest import app_session as db_session

REDIS = "redis://127.0.0.1:6379/0"
N = 60


@jobs.job("bench.noop")
def noop(session, settings, i: int) -> None:
    """Nothing: the lag measured is the scheduler's own."""


def test_bench_timer_lag(app_config, db_url):
    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=1).ping()
    except redis.RedisError:
        pytest.skip("Redis is not running on 127.0.0.1:6379")
    from app import create_app
    channel = f"floorman-bench-{uuid.uuid4().hex}"
    app = create_app(app_config)
    # the scheduler listens on Redis; the app's Socket.IO stays off the queue (the socketio object is
    # shared by every app of this test process, and its test client refuses a queue)
    app.config["FLOOR"]["app"].update(message_queue=REDIS, message_queue_channel=channel)
    sched = scheduler.start(app)
    timers.set_waker(scheduler.redis_waker(REDIS, channel))
    try:
        start = datetime.now(timezone.utc) + timedelta(seconds=0.5)
        for i in range(N):
            with db_session(app) as s:
                timers.set_timer(s, f"bench-{i}", "bench.noop", start + timedelta(seconds=2 * i / N), i)
        deadline = time.monotonic() + 30
        while sum(1 for _, key, _, _ in sched.dispatch.fired if key.startswith("bench-")) < N:
            assert time.monotonic() < deadline, "the timers did not all fire"
            time.sleep(0.05)
        lags = sorted((ran - due).total_seconds() * 1000 for _, key, due, ran in sched.dispatch.fired
                      if key.startswith("bench-"))
    finally:
        timers.set_waker(None)
        scheduler.shutdown()
    suffix = "postgres" if db_url.startswith("postgresql") else "sqlite"
    print(f"\ntimer_lag_p50_ms_{suffix}: {statistics.median(lags):.1f}")
    print(f"timer_lag_p99_ms_{suffix}: {lags[int(0.99 * (len(lags) - 1))]:.1f}")
