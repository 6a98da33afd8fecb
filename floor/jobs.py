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


import floor.rounds.jobs  # noqa: E402,F401  (the live rounds' timer jobs register themselves)
