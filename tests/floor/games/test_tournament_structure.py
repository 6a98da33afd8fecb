"""Blind structure and clock: levels, breaks, late registration, pauses and the bubble."""
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from floor.games.base import GameInputError
from floor.games.tournament import (
    DAILY_TURBO,
    TEMPLATES,
    WEEKLY_DEEP_STACK,
    Break,
    Level,
    Structure,
    bubble_action,
    clock,
    running_seconds,
    structure_from_data,
    structure_to_data,
)

MIN = 60
SHORT = Structure("short", 10_000, (Level(25, 50, 20), Level(50, 100, 20), Break(10), Level(75, 150, 20),
                                    Level(100, 200, 20, ante=200, big_blind_ante=True)),
                  late_registration_levels=2)


def test_first_second_of_the_weekly_deep_stack():
    r = clock(WEEKLY_DEEP_STACK, 0)
    assert (r.level_number, r.level.small_blind, r.level.big_blind) == (1, 100, 200)
    assert r.seconds_left == 30 * MIN and r.seconds_to_next_level == 30 * MIN
    assert r.next_level_number == 2 and r.next_level.big_blind == 300
    assert r.next_break.minutes == 15 and r.seconds_to_next_break == 4 * 30 * MIN
    # late registration: levels 1-8 (4 h) and both 15-minute breaks up to the end of the second one
    assert r.late_registration_open and r.seconds_to_late_registration_end == 8 * 30 * MIN + 2 * 15 * MIN


def test_level_four_ends_and_the_break_begins():
    r = clock(WEEKLY_DEEP_STACK, 4 * 30 * MIN - 1)
    assert r.level_number == 4 and r.seconds_left == 1 and r.levels_completed == 3
    r = clock(WEEKLY_DEEP_STACK, 4 * 30 * MIN)
    assert r.on_break and r.level_number is None and r.levels_completed == 4
    assert r.seconds_left == 15 * MIN
    assert r.next_level_number == 5 and r.seconds_to_next_level == 15 * MIN
    assert r.level.big_blind == 600  # on a break, the level that comes next
    assert r.next_break.note == "colour-up of the 100 chips"
    assert r.seconds_to_next_break == 15 * MIN + 4 * 30 * MIN


def test_late_registration_closes_at_the_end_of_the_break_after_level_eight():
    end = 8 * 30 * MIN + 2 * 15 * MIN
    before, at = clock(WEEKLY_DEEP_STACK, end - 1), clock(WEEKLY_DEEP_STACK, end)
    assert before.on_break and before.late_registration_open and before.seconds_to_late_registration_end == 1
    assert at.level_number == 9 and not at.late_registration_open and at.seconds_to_late_registration_end is None


def test_late_registration_without_the_break():
    # SHORT: registration until the end of level 2 (40 min); the break after it does not count
    assert clock(SHORT, 40 * MIN - 1).late_registration_open
    r = clock(SHORT, 40 * MIN)
    assert r.on_break and not r.late_registration_open
    through = Structure("s", 10_000, SHORT.steps, 2, late_registration_through_break=True)
    assert clock(through, 50 * MIN - 1).late_registration_open and not clock(through, 50 * MIN).late_registration_open
    none = Structure("s", 10_000, SHORT.steps, 0)
    assert not clock(none, 0).late_registration_open


def test_the_last_level_runs_on_past_the_schedule():
    end = 4 * 20 * MIN + 10 * MIN
    r = clock(SHORT, end - 1)
    assert r.level_number == 4 and r.seconds_left == 1 and not r.beyond_schedule
    assert r.next_level is None and r.next_break is None and r.seconds_to_next_break is None
    r = clock(SHORT, end + 3600)
    assert r.beyond_schedule and r.level_number == 4 and r.seconds_left == 0 and r.levels_completed == 4
    assert r.level.big_blind_ante and r.level.ante == 200


@given(st.sampled_from(list(TEMPLATES.values()) + [SHORT]), st.integers(0, 20 * 3600))
def test_running_out_a_step_moves_to_the_next_step(structure, elapsed):
    r = clock(structure, elapsed)
    starts = structure.starts()
    if r.beyond_schedule:
        assert r.step_index == len(structure.steps) - 1
        return
    assert starts[r.step_index] + r.step.seconds - r.seconds_left == elapsed
    assert 0 < r.seconds_left <= r.step.seconds
    after = clock(structure, elapsed + r.seconds_left)
    assert after.beyond_schedule or after.step_index == r.step_index + 1
    if r.next_level is not None:
        assert clock(structure, elapsed + r.seconds_to_next_level).level == r.next_level
    if r.next_break is not None:
        assert clock(structure, elapsed + r.seconds_to_next_break).step == r.next_break


def test_templates_are_realistic_and_survive_storage():
    for s in (WEEKLY_DEEP_STACK, DAILY_TURBO):
        assert structure_from_data(structure_to_data(s)) == s
        blinds = [lv.big_blind for lv in s.levels]
        assert blinds == sorted(blinds) and len(set(blinds)) == len(blinds)
        assert s.starting_stack >= 100 * s.levels[0].big_blind
    assert len(WEEKLY_DEEP_STACK.levels) == 24 and DAILY_TURBO.levels[0].minutes == 15


@pytest.mark.parametrize("make", [
    lambda: Level(200, 100, 20),
    lambda: Level(100, 200, 0),
    lambda: Level(100, 200, 20, big_blind_ante=True),
    lambda: Level(100.0, 200, 20),
    lambda: Level(-1, 200, 20),
    lambda: Break(0),
    lambda: Structure("x", 1000, (Level(1, 2, 5), Break(5), Break(5), Level(2, 4, 5)), 0),
    lambda: Structure("x", 1000, (Break(5), Level(1, 2, 5)), 0),
    lambda: Structure("x", 1000, (Level(1, 2, 5), Break(5)), 0),
    lambda: Structure("x", 1000, (Level(1, 2, 5),), 2),
    lambda: Structure("x", 0, (Level(1, 2, 5),), 0),
    lambda: Structure("x", 1000, (), 0),
])
def test_impossible_structures_are_refused(make):
    with pytest.raises(GameInputError):
        make()


def test_bad_stored_data_names_the_field():
    data = structure_to_data(SHORT)
    data["steps"][1]["level"]["big_blind"] = 10
    with pytest.raises(GameInputError) as e:
        structure_from_data(data)
    assert e.value.field == "steps[1].small_blind"
    data = structure_to_data(SHORT)
    del data["starting_stack"]
    with pytest.raises(GameInputError) as e:
        structure_from_data(data)
    assert e.value.field == "starting_stack"
    with pytest.raises(GameInputError):
        structure_from_data({"name": "x", "starting_stack": 1, "steps": [{"pause": {}}], "late_registration_levels": 0})
    with pytest.raises(GameInputError):
        clock(SHORT, -1)


def test_running_seconds_leaves_out_pauses_once():
    # run 1000 -> 5000 (4000 s); pauses 2000-2600 and 2500-3000 overlap (1000 s together),
    # one before the start counts only from the start (0 s), one still open since 4800 (200 s)
    pauses = [(2000, 2600), (2500, 3000), (500, 900), (4800, None)]
    assert running_seconds(1000, 5000, pauses) == 4000 - 1000 - 200
    assert running_seconds(1000, 5000) == 4000
    assert running_seconds(1000, 900) == 0


def test_running_seconds_with_datetimes():
    t0 = datetime(2024, 3, 1, 19, 0, tzinfo=timezone.utc)
    now = t0 + timedelta(hours=2, minutes=10)
    pauses = [(t0 + timedelta(minutes=30), t0 + timedelta(minutes=45))]  # a 15-minute floor call
    elapsed = running_seconds(t0, now, pauses)
    assert elapsed == (2 * 60 + 10 - 15) * MIN
    assert clock(WEEKLY_DEEP_STACK, elapsed).level_number == 4


@pytest.mark.parametrize("args", [
    (0, 10, [(5, 3)]),
    (0, 10, [(5,)]),
    (datetime(2024, 1, 1), 10, []),
    (datetime(2024, 1, 1), datetime(2024, 1, 1, tzinfo=timezone.utc), []),
])
def test_running_seconds_refuses_bad_times(args):
    with pytest.raises(GameInputError):
        running_seconds(*args)


def test_bubble_with_late_registration_open():
    # 15 paid places. The online room pauses on the bubble (16 left) while entries are still taken.
    assert bubble_action(17, 15, True, "pause") == "none"
    assert bubble_action(16, 15, True, "pause") == "pause"
    assert bubble_action(16, 15, False, "pause") == "none"
    assert bubble_action(15, 15, True, "pause") == "none"
    # the other room closes registration once the next player out is paid
    assert bubble_action(16, 15, True, "close_registration") == "none"
    assert bubble_action(15, 15, True, "close_registration") == "close_registration"
    assert bubble_action(12, 15, False, "close_registration") == "none"
    with pytest.raises(GameInputError):
        bubble_action(16, 15, True, "wait")


@pytest.mark.parametrize("left, paid, tables, late, expected", [
    (4, 3, 2, False, True),     # one from the money on two tables
    (5, 3, 2, False, False),    # two from the money
    (3, 3, 2, False, False),    # in the money: the bubble burst
    (4, 3, 1, False, False),    # one table: every hand is already played together
    (4, 3, 2, True, False),     # the field still grows
    (2, 1, 2, False, True),
])
def test_hand_for_hand_at_places_paid_plus_one_on_several_tables(left, paid, tables, late, expected):
    from floor.games.tournament import hand_for_hand
    assert hand_for_hand(left, paid, tables, late) is expected
