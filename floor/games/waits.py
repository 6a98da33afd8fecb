"""How long each waiting player is likely to wait for a seat, from the floor's own history.

Seats open for a list when players leave its game's tables (a bust, going home); seat changes do not
count. Over a recent window the floor saw ``openings`` such departures in ``seat_minutes`` of play
(the minutes each seat was occupied, summed): a player leaves at a rate per minute seated that is not
known exactly; with a Jeffreys prior it is Gamma(openings + 1/2, seat_minutes) given what was seen.
While a list waits the tables are full, so seats open at that rate times the ``seated`` players now (a
count of openings over the window alone would take a quiet, half-empty hour as a slow one). A player
at place ``k`` with ``free`` seats free now needs
``k - free`` more openings (none when ``k <= free``); a table the floor could open adds its seats at
once, after the minutes the floor takes to open one.

The wait is then a distribution, not a number: the estimate is its median and the range its 10th to
90th percentiles, drawn from sample paths shared by every place (so a later place never shows a
shorter wait) with a fixed seed (the same floor gives the same answer on every tablet).
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

from .base import GameInputError

SAMPLES = 400
PRIOR_SHAPE = 0.5     # Jeffreys: an hour with one opening says about as much as it should
LOW, HIGH = 0.10, 0.90


@dataclass(frozen=True)
class Wait:
    minutes: int     # the median
    low: int         # 10th percentile
    high: int        # 90th percentile


@dataclass(frozen=True)
class TableToOpen:
    """A closed table of the game the floor would open for the list: its seats, and how long it takes."""
    seats: int
    after_minutes: float


def _quantile(sorted_values: list[float], q: float) -> float:
    i = min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[i]


def estimate(waiting: int, free: int, seated: int, openings: int, seat_minutes: float, *,
             table: TableToOpen | None = None, samples: int = SAMPLES, seed: int = 0) -> list[Wait | None]:
    """One estimate per waiting place (1 first). None where nothing seen gives a basis: nobody left
    in the window (or nobody sits now) and no table could open for that place."""
    if min(waiting, free, seated, openings) < 0 or seat_minutes < 0 or samples < 1:
        raise GameInputError("the wait model needs counts and minutes of zero or more", field="seat_minutes")
    if table is not None and (table.seats < 1 or table.after_minutes < 0):
        raise GameInputError("a table to open has seats and a delay of zero or more", field="table")
    needed = [max(0, k - free) for k in range(1, waiting + 1)]
    most = max(needed, default=0)
    extra = table.seats if table else 0
    if most == 0:
        return [Wait(0, 0, 0) for _ in needed]
    if (openings == 0 or seated == 0 or seat_minutes == 0) and not extra:
        return [Wait(0, 0, 0) if n == 0 else None for n in needed]
    rng = random.Random(seed)
    # times[s][j]: in sample path s, the minute the (j+1)-th seat opens by a departure
    times: list[list[float]] = []
    for _ in range(samples):
        per_seat = rng.gammavariate(openings + PRIOR_SHAPE, 1.0) / seat_minutes if openings and seat_minutes else 0.0
        rate = per_seat * seated
        t, path = 0.0, []
        for _ in range(most):
            t = t + rng.expovariate(rate) if rate > 0 else math.inf
            path.append(t)
        times.append(path)
    out: list[Wait | None] = []
    for n in needed:
        if n == 0:
            out.append(Wait(0, 0, 0))
            continue
        waits = []
        for path in times:
            t = path[n - 1]
            if table is not None:
                # the new table's seats come at once when it opens; the rest still need departures
                rest = n - extra
                by_table = table.after_minutes if rest <= 0 else max(table.after_minutes, path[rest - 1])
                t = min(t, by_table)
            waits.append(t)
        waits.sort()
        if math.isinf(_quantile(waits, 0.5)):
            out.append(None)
            continue
        out.append(Wait(math.ceil(_quantile(waits, 0.5)), math.floor(_quantile(waits, LOW)),
                        _ceil_or_none(_quantile(waits, HIGH))))
    return out


def _ceil_or_none(x: float) -> int:
    # A 90th percentile past any departure (only the table would seat him, and it may not) is shown as
    # a long wait rather than infinity: a day.
    return math.ceil(x) if math.isfinite(x) else 24 * 60
