"""Scheduled job functions. Each takes a session (and plain ids); the runner owns the transaction.

They are registered by name so a job stored in the job store keeps working across code reloads.
"""
from __future__ import annotations

from typing import Callable

from sqlalchemy.orm import Session

from floor import health

JOBS: dict[str, Callable] = {}


def job(name: str):
    def deco(fn):
        JOBS[name] = fn
        return fn
    return deco


@job("heartbeat")
def heartbeat(session: Session) -> None:
    """Tells /healthz (in any process) that the scheduler is alive."""
    health.beat(session, "scheduler")


@job("waitlist.call_expired")
def call_expired(session: Session, call_id: int, now=None) -> None:
    """A called player's response time ran out (floor.waitlist.expire_call)."""
    from floor import waitlist
    waitlist.expire_call(session, call_id, now)


@job("seating.pickup_due")
def pickup_due(session: Session, away_id: int, now=None) -> None:
    """A player has been away long enough for a chip pickup: alert the floor if a list waits."""
    from floor import seating
    seating.pickup_alert(session, away_id, now)


import floor.rounds.jobs  # noqa: E402,F401  (the live rounds' timer jobs register themselves)
