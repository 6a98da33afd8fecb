"""The gaming day: the casino's business day, which rolls over at a house-set local time.

The timezone and the rollover are the house's settings (``timezone``, ``gaming_day_rollover``): callers
pass them, there is no default."""
from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo


def _rollover(rollover: str) -> time:
    hh, mm = rollover.split(":")
    return time(int(hh), int(mm))


def gaming_day(at: datetime, tz: str, rollover: str) -> date:
    """The gaming day that ``at`` belongs to: before the rollover it is still yesterday's."""
    local = at.astimezone(ZoneInfo(tz))
    day = local.date()
    if local.time() < _rollover(rollover):
        day -= timedelta(days=1)
    return day


def gaming_day_bounds(day: date, tz: str, rollover: str) -> tuple[datetime, datetime]:
    """UTC start (inclusive) and end (exclusive) of a gaming day."""
    zone = ZoneInfo(tz)
    start = datetime.combine(day, _rollover(rollover), zone)
    end = datetime.combine(day + timedelta(days=1), _rollover(rollover), zone)
    return start.astimezone(timezone.utc), end.astimezone(timezone.utc)


def end_of_gaming_day(at: datetime, tz: str, rollover: str) -> datetime:
    return gaming_day_bounds(gaming_day(at, tz, rollover), tz, rollover)[1]
