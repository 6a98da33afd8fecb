"""Game pace: rounds per hour from the times rounds were played, with no clock of its own.

Every function takes the round times (``datetime``s, all naive or all aware, in one zone) and the
window to look at; "now" is always passed in by the caller.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Optional, Sequence

from .base import GameInputError

HOUR = timedelta(hours=1)


def _check_window(start: datetime, end: datetime) -> None:
    if not isinstance(start, datetime) or not isinstance(end, datetime):
        raise GameInputError("a pace window is two datetimes")
    if end <= start:
        raise GameInputError("a pace window must end after it starts ({start} .. {end})", start=start, end=end)


def rounds_in(times: Sequence[datetime], start: datetime, end: datetime) -> int:
    """Rounds played in [start, end)."""
    _check_window(start, end)
    return sum(1 for t in times if start <= t < end)


def rounds_per_hour(times: Sequence[datetime], start: datetime, end: datetime) -> float:
    """Rounds played in [start, end) per hour of that window."""
    return rounds_in(times, start, end) / ((end - start) / HOUR)


def _hour_floor(t: datetime) -> datetime:
    return t.replace(minute=0, second=0, microsecond=0)


def hour_of_day_rates(times: Sequence[datetime], start: datetime, end: datetime) -> dict[int, float]:
    """Rounds per hour for each hour of the day (0..23) over [start, end): the rounds played in that
    clock hour on any day, over the time the window spent in that clock hour (so a window starting
    at 14:30 counts half an hour of 14 o'clock). Hours the window never covers are left out."""
    _check_window(start, end)
    exposure: dict[int, timedelta] = {}
    t = start
    while t < end:
        nxt = min(_hour_floor(t) + HOUR, end)
        exposure[t.hour] = exposure.get(t.hour, timedelta(0)) + (nxt - t)
        t = nxt
    counts: dict[int, int] = {}
    for r in times:
        if start <= r < end:
            counts[r.hour] = counts.get(r.hour, 0) + 1
    return {h: counts.get(h, 0) / (span / HOUR) for h, span in sorted(exposure.items())}


def rate_series(times: Sequence[datetime], window: timedelta, step: timedelta, start: datetime,
                end: datetime) -> list[tuple[datetime, float]]:
    """Rolling rounds per hour: at start, start + step, ... up to end, the rate over the ``window``
    just before each point, (point - window, point]."""
    _check_window(start, end)
    if window <= timedelta(0) or step <= timedelta(0):
        raise GameInputError("the window and the step must be positive")
    ordered = sorted(times)
    series = []
    at = start
    lo = hi = 0
    while at <= end:
        while hi < len(ordered) and ordered[hi] <= at:
            hi += 1
        while lo < hi and ordered[lo] <= at - window:
            lo += 1
        series.append((at, (hi - lo) / (window / HOUR)))
        at += step
    return series


@dataclass(frozen=True)
class SlowSpan:
    start: datetime
    end: datetime
    lowest: float  # the lowest rate seen in the span

    @property
    def minutes(self) -> float:
        return (self.end - self.start) / timedelta(minutes=1)


def below_target(points: Sequence[tuple[datetime, float]], target: float, minutes: float,
                 until: Optional[datetime] = None) -> list[SlowSpan]:
    """Spans where the pace stayed below ``target`` for at least ``minutes``.

    ``points`` are (time, rate) readings in time order; a reading holds until the next one, and the
    last one until ``until`` (or only at its own instant when ``until`` is None). A span starts at
    the first reading below target and ends at the first reading back at or above it."""
    if minutes < 0:
        raise GameInputError("minutes cannot be negative")
    points = list(points)
    for (a, _), (b, _) in zip(points, points[1:]):
        if b < a:
            raise GameInputError("pace readings must be in time order")
    if until is not None and points and until < points[-1][0]:
        raise GameInputError("until is before the last reading")
    spans = []
    begun: Optional[datetime] = None
    lowest = 0.0
    for t, rate in points:
        if rate < target:
            if begun is None:
                begun, lowest = t, rate
            lowest = min(lowest, rate)
        elif begun is not None:
            spans.append(SlowSpan(begun, t, lowest))
            begun = None
    if begun is not None:
        spans.append(SlowSpan(begun, until if until is not None else points[-1][0], lowest))
    return [s for s in spans if s.minutes >= minutes]
