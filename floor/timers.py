"""Timers that domain code asks for (a call's response time, a betting window, a decision...).

A timer is a row of ``timers`` written in the caller's transaction: it exists exactly when the
change that needs it commits, whichever process made that change (a web process, the device
process, the scheduler itself), and survives a restart of any of them. The scheduler process runs
due rows (floor.runtime.timer_dispatch). Setting a key again replaces its pending row; cancelling
marks it cancelled; both are row updates that never wait on a timer the scheduler is running at
that moment (its job then finds the state moved on and does nothing: jobs check before acting).

After the commit the process tells the scheduler when the new timer is due (a waker installed by
the process wiring: a Redis message, or a direct call in the scheduler's own process), so a timer
due before the scheduler's next poll still fires on time. A rolled-back change sends nothing.
"""
from __future__ import annotations

import logging
from datetime import datetime, timezone
from typing import Callable

from sqlalchemy import event, insert, select, update
from sqlalchemy.orm import Session

from floor.models import Timer

log = logging.getLogger(__name__)

Waker = Callable[[datetime], None]   # told, after commit, the earliest due time a transaction set
_waker: Waker | None = None
_KEY = "floor_timers_due"
_PLAIN = (int, str, float, bool, type(None))


def set_waker(waker: Waker | None) -> None:
    global _waker
    _waker = waker


def _pending(key: str):
    # SKIP LOCKED: a row the scheduler is running right now is left alone (no lock wait, so no
    # deadlock with a job that locks the same round); that job sees the new state and does nothing.
    return Timer.id.in_(select(Timer.id).where(Timer.key == key, Timer.status == "pending")
                        .with_for_update(skip_locked=True).scalar_subquery())


def set_timer(session: Session, key: str, job_name: str, run_at: datetime, *args) -> None:
    """Run ``floor.jobs.JOBS[job_name](session, settings, *args)`` at ``run_at`` (replacing a pending
    timer of the same key). ``args`` are plain JSON values (ids)."""
    if run_at.tzinfo is None:
        raise ValueError("timers run at timezone-aware UTC times")
    if not all(isinstance(a, _PLAIN) for a in args):
        raise TypeError(f"timer {key}: only plain values cross to the scheduler, got {args!r}")
    now = datetime.now(timezone.utc)
    session.execute(update(Timer).where(_pending(key)).values(status="replaced")
                    .execution_options(synchronize_session=False))
    session.execute(insert(Timer).values(key=key, job=job_name, args=list(args), due_at=run_at, status="pending",
                                         set_at=now, attempts=0))
    due = session.info.get(_KEY)
    session.info[_KEY] = run_at if due is None else min(due, run_at)


def cancel_timer(session: Session, key: str) -> None:
    session.execute(update(Timer).where(_pending(key)).values(status="cancelled")
                    .execution_options(synchronize_session=False))


def pending(session: Session, key: str) -> Timer | None:
    """The pending timer of a key, if any (pages and tests read it)."""
    return session.execute(select(Timer).where(Timer.key == key, Timer.status == "pending")
                           .order_by(Timer.id.desc()).limit(1)).scalar_one_or_none()


@event.listens_for(Session, "after_commit")
def _wake(session: Session) -> None:
    if session.in_nested_transaction():   # a savepoint, not the transaction itself
        return
    due = session.info.pop(_KEY, None)
    if due is None or _waker is None:
        return
    try:
        _waker(due)
    except Exception:  # the scheduler's poll still finds the row; a lost wake-up only delays it
        log.exception("timer wake-up for %s failed", due.isoformat())


@event.listens_for(Session, "after_rollback")
def _drop(session: Session) -> None:
    if session.in_nested_transaction():   # a savepoint, not the transaction itself
        return
    session.info.pop(_KEY, None)
