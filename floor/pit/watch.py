"""What the pit watches on its own: the scheduler calls ``watch`` every minute (``WATCH_SECONDS`` in
``floor/runtime/scheduler.py``) with the process's clock; each check raises its alerts once per
occurrence, so a late or repeated call does nothing twice."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from floor.pit import game_pace, wheel_watch
from floor.settings import HouseSettings

CHECKS = (game_pace.check, wheel_watch.check)


def watch(session: Session, house: HouseSettings, now: datetime) -> int:
    """Run every check; returns how many alerts they raised (the caller commits)."""
    return sum(len(check(session, house, now)) for check in CHECKS)
