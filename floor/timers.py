"""Timers that domain code asks for (a call's response time, a betting window...).

Like live updates, a timer is only handed to the scheduler after the transaction that set it commits,
so a rolled-back call leaves no stray job. The scheduler stores jobs in the database (they survive a
restart); the web layer installs the scheduling function.
"""
from __future__ import annotations

import logging
from datetime import datetime
from typing import Callable

from sqlalchemy import event
from sqlalchemy.orm import Session

log = logging.getLogger(__name__)

Scheduler = Callable[..., None]   # (job_id, job_name, run_at, *args) or cancel(job_id)
_schedule: Scheduler | None = None
_cancel: Callable[[str], None] | None = None
_KEY = "floor_timers"


def install(schedule: Scheduler | None, cancel: Callable[[str], None] | None) -> None:
    global _schedule, _cancel
    _schedule, _cancel = schedule, cancel


def set_timer(session: Session, job_id: str, job_name: str, run_at: datetime, *args) -> None:
    session.info.setdefault(_KEY, []).append(("set", job_id, job_name, run_at, args))


def cancel_timer(session: Session, job_id: str) -> None:
    session.info.setdefault(_KEY, []).append(("cancel", job_id, None, None, ()))


@event.listens_for(Session, "after_commit")
def _apply(session: Session) -> None:
    if session.in_nested_transaction():   # a savepoint, not the transaction itself
        return
    pending = session.info.pop(_KEY, None)
    if not pending:
        return
    for op, job_id, name, run_at, args in pending:
        try:
            if op == "set" and _schedule is not None:
                _schedule(job_id, name, run_at, *args)
            elif op == "cancel" and _cancel is not None:
                _cancel(job_id)
        except Exception:
            log.exception("timer %s %s failed", op, job_id)


@event.listens_for(Session, "after_rollback")
def _drop(session: Session) -> None:
    if session.in_nested_transaction():   # a savepoint, not the transaction itself
        return
    session.info.pop(_KEY, None)
