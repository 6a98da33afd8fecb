"""The registry of timer jobs. A job is ``fn(session, settings, *args)``: it takes the session the
runner opened (the runner commits) and the house settings of the process, then plain ids.

Jobs are registered by name so a job stored in the job store keeps working across code reloads.
Each area registers its own (floor.poker.jobs, floor.rounds.jobs); the scheduler process imports them
all (floor.runtime.scheduler).
"""
from __future__ import annotations

from typing import Callable

from sqlalchemy.orm import Session

from floor import health
from floor.settings import HouseSettings

JOBS: dict[str, Callable] = {}


def job(name: str):
    def deco(fn):
        JOBS[name] = fn
        return fn
    return deco


@job("heartbeat")
def heartbeat(session: Session, settings: HouseSettings) -> None:
    """Tells /healthz (in any process) that the scheduler is alive."""
    health.beat(session, "scheduler")
