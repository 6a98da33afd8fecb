"""Timer jobs of the tournaments (run by the scheduler with their own session; the runner commits)."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from floor.jobs import job
from floor.settings import HouseSettings
from floor.tournaments import clock, core, eliminations, places


@job(clock.JOB)
def clock_job(session: Session, settings: HouseSettings, tournament_id: int, now: datetime | None = None) -> None:
    """The end of a level or a break: the clock moves on and the next timer is set."""
    clock.tick(session, tournament_id, now)
    t = core.get(session, tournament_id)
    now = core.now_or(now)
    if places.settle_field(session, settings, t, now) or t.status == "finished":   # late registration closed now
        core.publish(session, t, "tournament.entries")
        core.publish(session, t, "tournament.clock")
    eliminations.sync_hand_for_hand(session, settings, t, now)   # late registration may just have closed


@job(eliminations.BUBBLE_RESUME_JOB)
def bubble_resume_job(session: Session, settings: HouseSettings, tournament_id: int, now: datetime | None = None) -> None:
    """The short pause on the bubble is over: the clock runs again."""
    eliminations.bubble_resume(session, tournament_id, now)
