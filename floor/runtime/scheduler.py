"""The APScheduler instance of the process that runs jobs (one per deployment).

Jobs are stored in the database (SQLAlchemyJobStore), so timers survive a restart. Each stored job
calls run_job(name, *args): it opens an app context and a session, runs floor.jobs.JOBS[name] with
the app's house settings and commits. Only plain ids cross into the job.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone

from apscheduler.jobstores.base import JobLookupError
from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
from apscheduler.schedulers.background import BackgroundScheduler
from flask import Flask

import floor.poker.jobs  # noqa: F401  (each area registers its timer jobs)
import floor.rounds.jobs  # noqa: F401
from floor import jobs, timers
from floor.web.extensions import db

log = logging.getLogger(__name__)
_app: Flask | None = None
_scheduler: BackgroundScheduler | None = None


def run_job(name: str, *args) -> None:
    if _app is None:
        raise RuntimeError("scheduler not started")
    with _app.app_context():
        try:
            jobs.JOBS[name](db.session, _app.config["HOUSE"], *args)
            db.session.commit()
        except Exception:
            db.session.rollback()
            log.exception("job %s%r failed", name, args)
            raise
        finally:
            db.session.remove()


def make_scheduler(app: Flask) -> BackgroundScheduler:
    store = SQLAlchemyJobStore(engine=db.engine, tablename="apscheduler_jobs")
    return BackgroundScheduler(jobstores={"default": store}, timezone=timezone.utc,
                               job_defaults={"coalesce": True, "misfire_grace_time": 3600})


def start(app: Flask) -> BackgroundScheduler:
    global _app, _scheduler
    _app = app
    with app.app_context():
        _scheduler = make_scheduler(app)
        _scheduler.start()
        _scheduler.add_job(run_job, "interval", seconds=10, args=["heartbeat"], id="heartbeat",
                           replace_existing=True, next_run_time=datetime.now(timezone.utc))
    app.extensions["floor_scheduler"] = _scheduler
    timers.install(schedule_once, cancel)
    return _scheduler


def schedule_once(job_id: str, name: str, at: datetime, *args) -> None:
    """Schedule (or move) a one-off job: what floor.timers.set_timer turns into after commit."""
    if _scheduler is None:
        return
    _scheduler.add_job(run_job, "date", run_date=at, args=[name, *args], id=job_id, replace_existing=True)


def cancel(job_id: str) -> None:
    if _scheduler is None:
        return
    try:
        _scheduler.remove_job(job_id)
    except JobLookupError:
        pass


def shutdown() -> None:
    global _scheduler
    if _scheduler is not None:
        _scheduler.shutdown(wait=False)
        _scheduler = None
        timers.install(None, None)


__all__ = ["start", "shutdown", "schedule_once", "run_job", "timedelta"]
