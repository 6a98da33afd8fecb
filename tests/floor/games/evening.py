"""A simulated evening of a poker game with known rates, to check the wait model against waits that
really happened: tables full at the start, players who stay an exponential time, arrivals who join the
list when no seat is free, a list called first come first served, and a floor that opens a spare table
when enough are waiting. Every arrival who waits is shown the model's estimate at his place, made only
from what the floor could have measured by then (seats opened over the last window); when he sits,
his real wait is recorded beside it."""
from __future__ import annotations

import heapq
import math
import random
from dataclasses import dataclass

from floor.games import waits


@dataclass
class Shown:
    place: int
    estimate: waits.Wait | None
    naive: float | None        # the old estimate: place x window / openings, free seats ignored
    actual: float | None = None


def evening(seed: int, *, hours: float = 10, tables: int = 2, seats: int = 9, arrivals_per_hour: float = 14,
            stay_minutes: float = 75, window_minutes: float = 180, warm_up_minutes: float = 180,
            spare_table_after: float | None = 15, open_at_waiting: int = 5) -> list[Shown]:
    rng = random.Random(seed)
    end = hours * 60
    events: list[tuple[float, int, str]] = []      # (minute, tie-break, kind)
    tick = 0

    def push(t: float, kind: str) -> None:
        nonlocal tick
        tick += 1
        heapq.heappush(events, (t, tick, kind))

    capacity = tables * seats
    seated = capacity
    for _ in range(seated):
        push(rng.expovariate(1 / stay_minutes), "leave")
    push(rng.expovariate(arrivals_per_hour / 60), "arrive")
    spare_open, spare_pending = False, False
    openings: list[float] = []
    occupancy: list[tuple[float, int]] = [(0.0, seated)]     # (from minute, players seated)
    queue: list[Shown] = []
    shown: list[Shown] = []

    def seat_from_list(t: float) -> None:
        nonlocal seated
        while queue and seated < capacity:
            s = queue.pop(0)
            seated += 1
            push(t + rng.expovariate(1 / stay_minutes), "leave")
            if s.actual is None:
                s.actual = t - s.actual_from    # type: ignore[attr-defined]

    while events and (queue or min(events)[0] <= end):
        t, _, kind = heapq.heappop(events)
        if t > end and (kind == "arrive" or not queue):
            continue    # the doors close at the end; play goes on until the list is seated
        if kind == "leave":
            seated -= 1
            openings.append(t)
            seat_from_list(t)
        elif kind == "arrive":
            push(t + rng.expovariate(arrivals_per_hour / 60), "arrive")
            if seated < capacity and not queue:
                seated += 1
                push(t + rng.expovariate(1 / stay_minutes), "leave")
                continue
            place = len(queue) + 1
            window = min(window_minutes, t)      # the floor has measured since it opened, at most the window
            seen = sum(1 for o in openings if o >= t - window)
            exposure = _seat_minutes(occupancy, t - window, t)
            could_open = (spare_table_after is not None and not spare_open and not spare_pending
                          and place >= open_at_waiting)
            table = waits.TableToOpen(seats, spare_table_after) if could_open else None
            est = waits.estimate(place, max(0, capacity - seated), seated, seen, exposure, table=table)[-1]
            s = Shown(place, est, place * window / seen if seen else None)
            s.actual_from = t          # type: ignore[attr-defined]
            queue.append(s)
            if t >= warm_up_minutes:
                shown.append(s)
            if could_open:
                spare_pending = True
                push(t + spare_table_after, "open_spare")
        elif kind == "open_spare":
            spare_open, spare_pending = True, False
            capacity += seats
            seat_from_list(t)
        if seated != occupancy[-1][1]:
            occupancy.append((t, seated))
    return [s for s in shown if s.actual is not None]


def _seat_minutes(occupancy: list[tuple[float, int]], start: float, end: float) -> float:
    total = 0.0
    for i, (at, n) in enumerate(occupancy):
        until = occupancy[i + 1][0] if i + 1 < len(occupancy) else end
        total += n * max(0.0, min(until, end) - max(at, start))
    return total


def figures(shown: list[Shown]) -> dict[str, float]:
    rated = [s for s in shown if s.estimate is not None]
    naive = [s for s in shown if s.naive is not None]
    return {
        "waits": len(shown),
        "mean_wait_minutes": sum(s.actual for s in shown) / len(shown),
        "mae_minutes": sum(abs(s.estimate.minutes - s.actual) for s in rated) / len(rated),
        "bias_minutes": sum(s.estimate.minutes - s.actual for s in rated) / len(rated),
        "in_range": sum(1 for s in rated if s.estimate.low <= s.actual <= s.estimate.high) / len(rated),
        "naive_mae_minutes": sum(abs(s.naive - s.actual) for s in naive) / len(naive) if naive else math.nan,
        "estimated": len(rated) / len(shown),
    }
