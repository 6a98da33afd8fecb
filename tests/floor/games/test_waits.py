"""The wait model: free seats first, then departures at the measured rate, a table the floor could
open, and honest ranges, checked against simulated evenings whose rates are known."""
from __future__ import annotations

import pytest

from floor.games import waits
from floor.games.base import GameInputError
from tests.floor.games.evening import evening, figures


def test_players_with_a_free_seat_ahead_of_them_wait_nothing():
    # the complaint: "~36 min" shown while table 2 had nine free seats
    got = waits.estimate(11, 9, 9, 6, 9 * 180)
    assert got[:9] == [waits.Wait(0, 0, 0)] * 9
    assert all(w.minutes > 0 for w in got[9:])


def test_nine_seated_players_each_staying_about_90_minutes_open_a_seat_every_10():
    # 60 departures seen in 60 x 90 seat-minutes: one per 90 minutes of play; nine seated -> a seat
    # every 10 minutes: the first waits a median of 10 ln 2 ~ 7 min, the second ~17
    [first, second] = waits.estimate(2, 0, 9, 60, 60 * 90)
    assert 5 <= first.minutes <= 10 and 14 <= second.minutes <= 21
    assert first.low <= first.minutes <= first.high and second.minutes > first.minutes


def test_a_later_place_never_shows_a_shorter_wait_and_the_answer_is_the_same_each_time():
    a = waits.estimate(12, 1, 18, 20, 18 * 180)
    assert a == waits.estimate(12, 1, 18, 20, 18 * 180)
    for earlier, later in zip(a, a[1:]):
        assert later.minutes >= earlier.minutes and later.high >= earlier.high and later.low >= earlier.low


def test_more_departures_seen_means_a_shorter_wait_and_a_narrower_range():
    few = waits.estimate(4, 0, 9, 3, 9 * 45)[-1]
    many = waits.estimate(4, 0, 9, 60, 9 * 900)[-1]
    assert few.minutes == pytest.approx(many.minutes, abs=8)     # the same rate, seen more
    assert (many.high - many.low) < (few.high - few.low)


def test_no_departure_seen_gives_no_estimate_unless_a_table_could_open():
    assert waits.estimate(3, 0, 9, 0, 9 * 180) == [None, None, None]
    with_table = waits.estimate(3, 0, 9, 0, 9 * 180, table=waits.TableToOpen(seats=2, after_minutes=10))
    assert with_table[:2] == [waits.Wait(10, 10, 10)] * 2 and with_table[2] is None


def test_a_table_to_open_caps_the_wait_of_those_it_would_seat():
    slow = waits.estimate(6, 0, 9, 2, 9 * 180)
    opened = waits.estimate(6, 0, 9, 2, 9 * 180, table=waits.TableToOpen(seats=9, after_minutes=15))
    assert all(w.high <= 15 for w in opened) and all(s.minutes > 15 for s in slow[2:])


@pytest.mark.parametrize("args", [(-1, 0, 9, 1, 10), (1, -1, 9, 1, 10), (1, 0, 9, -1, 10), (1, 0, 9, 1, -5)])
def test_nonsense_is_refused(args):
    with pytest.raises(GameInputError):
        waits.estimate(*args)


def test_simulated_evenings_with_known_rates():
    """Eight evenings of two 9-seat tables and a spare one, players staying 80 minutes on average and
    18 arriving an hour: 8 in 10 real waits fall in the shown range, and the estimate beats the old
    one (place x window / departures, blind to free seats and to who is seated)."""
    shown = [s for seed in range(8) for s in evening(seed, arrivals_per_hour=18, stay_minutes=80,
                                                      warm_up_minutes=60)]
    f = figures(shown)
    assert f["waits"] > 300 and f["estimated"] == 1.0
    assert 0.70 <= f["in_range"] <= 0.92, f
    assert f["mae_minutes"] < f["naive_mae_minutes"], f
    assert abs(f["bias_minutes"]) < 0.35 * f["mean_wait_minutes"], f
