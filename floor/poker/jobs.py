"""Timer jobs of the poker room (run by the scheduler with their own session; the runner commits)."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from floor.jobs import job
from floor.poker import seating, waitlist
from floor.settings import HouseSettings


@job("waitlist.call_expired")
def call_expired(session: Session, settings: HouseSettings, call_id: int, now: datetime | None = None) -> None:
    """A called player's response time ran out (floor.poker.waitlist.expire_call)."""
    waitlist.expire_call(session, call_id, now)


@job("seating.pickup_due")
def pickup_due(session: Session, settings: HouseSettings, away_id: int, now: datetime | None = None) -> None:
    """A player has been away long enough for a chip pickup: alert the floor if a list waits."""
    seating.pickup_alert(session, away_id, now)
