from datetime import date, datetime, timezone

from floor.gaming_day import end_of_gaming_day, gaming_day, gaming_day_bounds

ZURICH = "Europe/Zurich"


def utc(*a):
    return datetime(*a, tzinfo=timezone.utc)


def test_before_the_rollover_it_is_still_yesterdays_gaming_day():
    # 05:30 in Zurich (winter, UTC+1) is 04:30 UTC: still Sunday's gaming day.
    assert gaming_day(utc(2026, 11, 30, 4, 30), ZURICH, "06:00") == date(2026, 11, 29)
    assert gaming_day(utc(2026, 11, 30, 5, 0), ZURICH, "06:00") == date(2026, 11, 30)   # 06:00 local


def test_rollover_is_a_house_setting_and_follows_summer_time():
    assert gaming_day(utc(2026, 7, 1, 5, 30), ZURICH, "08:00") == date(2026, 6, 30)   # 07:30 local (UTC+2)
    start, end = gaming_day_bounds(date(2026, 7, 1), ZURICH, "06:00")
    assert (start, end) == (utc(2026, 7, 1, 4, 0), utc(2026, 7, 2, 4, 0))


def test_end_of_gaming_day_across_the_autumn_clock_change():
    # The night of 24-25 October 2026 is 25 hours long in Zurich.
    assert end_of_gaming_day(utc(2026, 10, 24, 22, 0), ZURICH, "06:00") == utc(2026, 10, 25, 5, 0)
    start, end = gaming_day_bounds(date(2026, 10, 24), ZURICH, "06:00")
    assert (end - start).total_seconds() == 25 * 3600
