"""Game pace: rounds per hour over a window, per hour of the day, and slow spans."""
from datetime import datetime, timedelta, timezone

import pytest

from floor.games.base import GameInputError
from floor.games.pace import below_target, hour_of_day_rates, rate_series, rounds_in, rounds_per_hour

T0 = datetime(2024, 5, 1, 14, 0, tzinfo=timezone.utc)


def every(start, seconds, count):
    return [start + timedelta(seconds=seconds * i) for i in range(count)]


def test_rounds_per_hour_over_a_window():
    times = every(T0, 90, 40)                      # a round every 90 s: 40 an hour
    assert rounds_per_hour(times, T0, T0 + timedelta(hours=1)) == 40
    assert rounds_per_hour(times, T0, T0 + timedelta(minutes=30)) == 40
    assert rounds_in(times, T0, T0 + timedelta(minutes=3)) == 2   # 0 s and 90 s; 180 s is the next window's
    with pytest.raises(GameInputError):
        rounds_per_hour(times, T0, T0)


def test_hour_of_day_rates_count_partial_hours_by_their_share():
    start = T0 + timedelta(minutes=30)               # 14:30 .. 16:00
    times = every(start, 60, 30) + every(T0 + timedelta(hours=1), 120, 30)
    rates = hour_of_day_rates(times, start, T0 + timedelta(hours=2))
    assert rates == {14: 60.0, 15: 30.0}             # 30 rounds in half an hour; 30 in a full hour


def test_hour_of_day_rates_over_two_days_pool_each_clock_hour():
    day2 = T0 + timedelta(days=1)
    times = every(T0, 60, 60) + every(day2, 120, 30)
    rates = hour_of_day_rates(times, T0, day2 + timedelta(hours=1))
    assert rates[14] == 45.0                          # 90 rounds in two 14 o'clock hours
    assert all(rates[h] == 0 for h in rates if h != 14) and len(rates) == 24


def test_rate_series_is_a_rolling_window():
    times = every(T0, 60, 60) + every(T0 + timedelta(hours=1), 180, 30)   # 60/h then 20/h
    series = rate_series(times, timedelta(minutes=30), timedelta(minutes=30), T0 + timedelta(minutes=30),
                         T0 + timedelta(hours=2))
    assert [r for _, r in series] == [60.0, 60.0, 20.0, 20.0]


def test_below_target_for_at_least_m_minutes():
    at = lambda m: T0 + timedelta(minutes=m)  # noqa: E731
    points = [(at(0), 50), (at(10), 30), (at(20), 25), (at(35), 45), (at(40), 20), (at(45), 41), (at(60), 10)]
    spans = below_target(points, target=40, minutes=15, until=at(80))
    assert [(s.start, s.end, s.lowest) for s in spans] == [(at(10), at(35), 25), (at(60), at(80), 10)]
    assert spans[0].minutes == 25
    # the 5-minute dip at 40 is short; without `until` the open span ends at its own reading
    assert [s.start for s in below_target(points, 40, 5)] == [at(10), at(40)]
    assert below_target([], 40, 10) == []


def test_below_target_refuses_unordered_readings():
    with pytest.raises(GameInputError):
        below_target([(T0 + timedelta(minutes=5), 10), (T0, 10)], 40, 10)
