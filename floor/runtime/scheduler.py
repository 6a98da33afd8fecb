"""The scheduler: one APScheduler per deployment, in the scheduler process (or in the one process
of the embedded default). It runs the periodic jobs (heartbeat, recovery of cut settlements, purge
of old timer rows and old failed-login rows, the pit's checks) and the timer dispatch loop.

Timers are rows (floor.timers) that any process writes in its own transaction. The dispatcher
claims a due row (``FOR UPDATE SKIP LOCKED`` on PostgreSQL; SQLite serialises writers anyway),
marks it done and runs its job in that same transaction, then commits: a crash anywhere before the
commit leaves the row pending and the job's work undone, so the job runs exactly once. It polls
every few seconds and is woken at a timer's due time: a process that sets a timer tells the
scheduler after its commit (Redis pub/sub between processes, a direct call inside this one), and
the scheduler plans an APScheduler date job for that time.
"""
from __future__ import annotations

import logging
import queue
import threading
from collections import deque
from datetime import datetime, timedelta, timezone
from typing import Callable

import redis
from apscheduler.schedulers.background import BackgroundScheduler
from flask import Flask
from sqlalchemy import delete, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

import floor.poker.jobs  # noqa: F401  (each area registers its timer jobs)
import floor.rounds.jobs  # noqa: F401
import floor.tournaments.jobs  # noqa: F401
from floor import jobs, staff, timers
from floor.errors import FloorError
from floor.models import Timer
from floor.pit.watch import watch
from floor.runtime import recovery
from floor.runtime.lifetime import stop_event, wait_until_stopped
from floor.runtime.subscriber import Subscriber
from floor.settings import HouseSettings
from floor.web.extensions import db

log = logging.getLogger(__name__)

POLL_SECONDS = 5.0          # a safety net: wake-ups make timers fire on time, the poll finds lost ones
HEARTBEAT_SECONDS = 10.0
RECOVER_SECONDS = 30.0
WATCH_SECONDS = 60.0         # the pit's own checks (game pace, wheels): floor.pit.watch
PURGE_AFTER = timedelta(days=30)
MAX_ATTEMPTS = 5            # a job failing this often (not a refusal) is left "failed" for the logs


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def wake_channel(channel: str) -> str:
    """The Redis channel on which processes tell the scheduler of new timers (one per floor)."""
    return f"{channel}.timers"


class TimerDispatch:
    """Runs due timer rows, exactly once each, and plans the next wake-up."""

    def __init__(self, factory: Callable[[], Session], settings: HouseSettings,
                 scheduler: BackgroundScheduler | None = None, clock: Callable[[], datetime] = utcnow) -> None:
        self.factory = factory
        self.settings = settings
        self.scheduler = scheduler
        self.clock = clock
        # the last timers run: (id, key, due, ran), for the logs and the latency tests
        self.fired: deque[tuple[int, str, datetime, datetime]] = deque(maxlen=1000)

    # --- running -----------------------------------------------------------------------------

    def run_due(self) -> int:
        """Run every due timer, then plan the wake-up for the next one. Several may run at once
        (the poll and wake-ups): on PostgreSQL each claims other rows (SKIP LOCKED)."""
        ran = 0
        while self.run_one(self.clock()):
            ran += 1
        self.plan()
        return ran

    def run_one(self, now: datetime) -> bool:
        with self.factory() as s:
            t = s.execute(select(Timer).where(Timer.status == "pending", Timer.due_at <= now)
                          .order_by(Timer.due_at, Timer.id).limit(1)
                          .with_for_update(skip_locked=True)).scalar_one_or_none()
            if t is None:
                s.rollback()
                return False
            tid, key, name, args, due = t.id, t.key, t.job, list(t.args or []), t.due_at
            t.status, t.fired_at, t.attempts = "done", now, t.attempts + 1
            fn = jobs.JOBS.get(name)
            try:
                if fn is None:
                    raise LookupError(f"no job named {name!r}")
                fn(s, self.settings, *args)
                s.commit()
            except FloorError as exc:
                # The job's own check refused (the round moved on, the call was answered): done.
                s.rollback()
                log.info("timer %s (%s) refused: %s", key, name, exc.message)
                self._after_failure(tid, exc.message, retry=False)
                return True
            except Exception as exc:
                s.rollback()
                log.exception("timer %s (%s%r) failed", key, name, tuple(args))
                self._after_failure(tid, f"{type(exc).__name__}: {exc}", retry=fn is not None)
                return True
        ran = self.clock()
        self.fired.append((tid, key, due, ran))
        log.debug("timer %s (%s) ran %.3f s after its due time", key, name, (ran - due).total_seconds())
        return True

    def _after_failure(self, timer_id: int, error: str, retry: bool) -> None:
        now = self.clock()
        with self.factory() as s:
            t = s.get(Timer, timer_id, with_for_update=True)
            if t is None or t.status != "pending":
                s.rollback()
                return
            t.attempts += 1
            t.last_error = error[:300]
            if not retry:
                t.status, t.fired_at = "done", now
            elif t.attempts >= MAX_ATTEMPTS:
                t.status, t.fired_at = "failed", now
                log.error("timer %s (%s) failed %d times; left failed: %s", t.key, t.job, t.attempts, error)
            else:
                t.due_at = now + timedelta(seconds=min(2 ** t.attempts, 60))
            s.commit()

    # --- planning ------------------------------------------------------------------------------

    def next_due(self) -> datetime | None:
        """The earliest pending timer that nobody is running right now."""
        with self.factory() as s:
            due = s.execute(select(Timer.due_at).where(Timer.status == "pending").order_by(Timer.due_at)
                            .limit(1).with_for_update(skip_locked=True)).scalar_one_or_none()
            s.rollback()
        return due

    def plan(self) -> None:
        try:
            due = self.next_due()
        except SQLAlchemyError:
            log.exception("timers: cannot read the next due time; the poll will try again")
            return
        if due is not None:
            self.wake_at(due)

    def wake_at(self, at: datetime) -> None:
        """Run the due timers at ``at`` (a date job per distinct time: no wake-up replaces another)."""
        if self.scheduler is None or not self.scheduler.running:
            return
        now = self.clock()
        run_date = max(at, now)
        if run_date - now > timedelta(seconds=POLL_SECONDS):
            return   # the poll comes first and plans again
        self.scheduler.add_job(self.run_due, "date", run_date=run_date, id=f"timers-wake:{at.timestamp():.6f}",
                               replace_existing=True, misfire_grace_time=None)

    def purge(self, older_than: timedelta = PURGE_AFTER) -> int:
        """Forget timers that ran or were cancelled long ago (pending and failed rows stay)."""
        with self.factory() as s:
            n = s.execute(delete(Timer).where(Timer.status.in_(("done", "cancelled", "replaced")),
                                              Timer.set_at < self.clock() - older_than)).rowcount
            s.commit()
        return n


class WakeListener(Subscriber):
    """Listens on Redis for the due times other processes set, and wakes the dispatcher for them."""

    name = "timer-wake-listener"

    def __init__(self, url: str, channel: str, dispatch: TimerDispatch) -> None:
        super().__init__(url, wake_channel(channel))
        self.dispatch = dispatch

    def subscribed(self) -> None:
        self.dispatch.plan()   # anything announced while we were not listening

    def handle(self, client, data: bytes | str) -> None:
        try:
            at = datetime.fromisoformat(data.decode() if isinstance(data, bytes) else data)
        except (ValueError, AttributeError):
            log.warning("timers: ignored wake-up %r", data)
            return
        self.dispatch.wake_at(at)

    def unavailable(self, exc: Exception) -> None:
        log.warning("timers: Redis wake-ups unavailable (%s); polling every %.0f s", exc, POLL_SECONDS)


class RedisWaker:
    """What a process without the scheduler installs: announce a new timer's due time on Redis. The
    commit that set the timer hands the time to a thread of its own, so a slow or absent Redis never
    holds up the committing thread (a device reader, a request); the scheduler's poll is the net."""

    def __init__(self, url: str, channel: str) -> None:
        self.client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
        self.channel = wake_channel(channel)
        self._queue: queue.Queue[datetime] = queue.Queue(maxsize=1000)
        threading.Thread(target=self._run, name="timer-waker", daemon=True).start()

    def __call__(self, at: datetime) -> None:
        try:
            self._queue.put_nowait(at)
        except queue.Full:   # Redis has been away for a while: the poll will find these
            pass

    def _run(self) -> None:
        while True:
            at = self._queue.get()
            try:
                self.client.publish(self.channel, at.isoformat())
            except redis.RedisError as exc:
                log.warning("timers: wake-up for %s not sent (%s); the scheduler's poll will find it",
                            at.isoformat(), exc)


def redis_waker(url: str, channel: str) -> Callable[[datetime], None]:
    return RedisWaker(url, channel)


# --- the process's scheduler -------------------------------------------------------------------

class Scheduler:
    def __init__(self, app: Flask) -> None:
        self.app = app
        with app.app_context():
            engine = db.engine
        self.factory = sessionmaker(bind=engine, expire_on_commit=False)
        self.settings: HouseSettings = app.config["HOUSE"]
        self.aps = BackgroundScheduler(timezone=timezone.utc,
                                       job_defaults={"coalesce": True, "misfire_grace_time": 3600})
        self.dispatch = TimerDispatch(self.factory, self.settings, self.aps)
        self.listener: WakeListener | None = None

    def start(self) -> "Scheduler":
        logging.getLogger("apscheduler").setLevel(logging.WARNING)   # not a line per poll (every 5 s)
        self.aps.start()
        now = utcnow()
        self.aps.add_job(self._heartbeat, "interval", seconds=HEARTBEAT_SECONDS, id="heartbeat", next_run_time=now)
        self.aps.add_job(self.dispatch.run_due, "interval", seconds=POLL_SECONDS, id="timers-poll",
                         next_run_time=now)
        self.aps.add_job(self._recover, "interval", seconds=RECOVER_SECONDS, id="recover",
                         next_run_time=now + timedelta(seconds=RECOVER_SECONDS))
        self.aps.add_job(self.dispatch.purge, "interval", hours=1, id="timers-purge")
        self.aps.add_job(self.forget_login_failures, "interval", hours=1, id="login-failures-purge", next_run_time=now)
        self.aps.add_job(self._watch, "interval", seconds=WATCH_SECONDS, id="pit-watch",
                         next_run_time=now + timedelta(seconds=WATCH_SECONDS))
        timers.set_waker(self.dispatch.wake_at)   # timers set in this process wake it directly
        cfg = self.app.config["FLOOR"]["app"]
        if cfg.get("message_queue"):
            self.listener = WakeListener(cfg["message_queue"], cfg["message_queue_channel"], self.dispatch).start()
        return self

    def _heartbeat(self) -> None:
        with self.factory() as s:
            jobs.JOBS["heartbeat"](s, self.settings)
            s.commit()

    def _recover(self) -> None:
        recovery.recover_rounds(self.factory, self.settings)

    def forget_login_failures(self) -> int:
        """Delete the failed-login rows no lockout reads any more (floor.staff)."""
        sec = self.app.config["FLOOR"]["security"]
        with self.factory() as s:
            n = staff.forget_login_failures(s, utcnow(), sec["lockout_minutes"], sec["login_failures_keep_hours"])
            s.commit()
        return n

    def _watch(self) -> None:
        try:
            with self.factory() as s:
                watch(s, self.settings, utcnow())
                s.commit()
        except (SQLAlchemyError, FloorError):
            log.exception("the pit's checks failed; tried again in %.0f s", WATCH_SECONDS)

    def shutdown(self) -> None:
        timers.set_waker(None)
        if self.listener is not None:
            self.listener.stop()
        if self.aps.running:
            self.aps.shutdown(wait=False)


_current: Scheduler | None = None


def start(app: Flask) -> Scheduler:
    """Start this process's scheduler (after a recovery of cut settlements)."""
    global _current
    sched = Scheduler(app)
    recovery.recover_rounds(sched.factory, sched.settings)
    _current = sched.start()
    app.extensions["floor_scheduler"] = sched
    return sched


def shutdown() -> None:
    global _current
    if _current is not None:
        _current.shutdown()
        _current.app.extensions.pop("floor_scheduler", None)
        _current = None


def run_scheduler_process(app: Flask, stop: threading.Event | None = None) -> None:
    """The scheduler process of a production deployment: `flask floor scheduler`."""
    if not app.config["FLOOR"]["app"].get("message_queue"):
        log.warning("scheduler without a message queue: timers set by other processes fire at the next poll "
                    "(every %.0f s), not on time", POLL_SECONDS)
    stop = stop_event(stop)
    start(app)
    log.info("scheduler running (poll every %.0f s, recovery every %.0f s)", POLL_SECONDS, RECOVER_SECONDS)
    try:
        wait_until_stopped(stop)
    finally:
        shutdown()
