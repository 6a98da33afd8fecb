"""Bounties: knockout, progressive knockout, mystery envelopes, and split pots."""
from collections import Counter

import pytest

from floor.games.base import GameInputError
from floor.games.tournament import Draw, draw_mystery_bounty, knockout_awards, mystery_stage_open, progressive_awards

SEED = bytes(range(50, 82))


def test_a_knockout_pays_the_whole_bounty():
    (award,) = knockout_awards(25_00, ["ann"])
    assert (award.player, award.cash, award.onto_bounty) == ("ann", 25_00, 0)


def test_a_split_pot_splits_the_bounty_odd_cent_nearest_the_button():
    # winners listed from the button's left: the first gets the odd cent
    assert [(a.player, a.cash) for a in knockout_awards(25_01, ["sb", "co"])] == [("sb", 12_51), ("co", 12_50)]
    assert [a.cash for a in knockout_awards(1_00, ["a", "b", "c"])] == [34, 33, 33]
    with pytest.raises(GameInputError):
        knockout_awards(1_00, ["a", "a"])
    with pytest.raises(GameInputError):
        knockout_awards(1_00, [])


def test_progressive_half_in_cash_half_on_the_winners_head():
    """A (bounty 50.00) knocks out B (50.00): 25.00 cash, A's bounty 75.00. C (50.00) then knocks out
    A: 37.50 cash, C's bounty 50.00 + 37.50 = 87.50."""
    (a_wins,) = progressive_awards(50_00, ["A"], cash_percent=50)
    assert (a_wins.cash, a_wins.onto_bounty) == (25_00, 25_00)
    a_head = 50_00 + a_wins.onto_bounty
    (c_wins,) = progressive_awards(a_head, ["C"], cash_percent=50)
    assert (c_wins.cash, c_wins.onto_bounty, 50_00 + c_wins.onto_bounty) == (37_50, 37_50, 87_50)


def test_progressive_odd_cents_go_to_the_cash():
    (w,) = progressive_awards(50_01, ["A"], cash_percent="50")
    assert (w.cash, w.onto_bounty) == (25_01, 25_00)
    # split pot of a 50.01 head: 25.01 and 25.00; each half in cash rounded up
    split = progressive_awards(50_01, ["A", "B"], cash_percent=50)
    assert [(a.cash, a.onto_bounty) for a in split] == [(12_51, 12_50), (12_50, 12_50)]
    (w,) = progressive_awards(10_00, ["A"], cash_percent=30)
    assert (w.cash, w.onto_bounty) == (3_00, 7_00)
    with pytest.raises(GameInputError):
        progressive_awards(10_00, ["A"], cash_percent=150)


ENVELOPES = [1000_00, 500_00, 500_00, 200_00, 100_00]


def test_a_mystery_envelope_is_drawn_from_those_left():
    result = draw_mystery_bounty(Draw(SEED, "ko-1"), ENVELOPES, ["ann"])
    left = list(result.envelopes_left)
    assert sorted(left + [result.amount]) == sorted(ENVELOPES) and left == sorted(left, reverse=True)
    assert result.awards[0].cash == result.amount
    # the order the envelopes are listed in does not change the draw
    assert draw_mystery_bounty(Draw(SEED, "ko-1"), list(reversed(ENVELOPES)), ["ann"]) == result


def test_mystery_envelopes_are_drawn_fairly():
    drawn = Counter(draw_mystery_bounty(Draw(SEED, f"ko-{k}"), ENVELOPES, ["x"]).amount for k in range(1000))
    assert 330 < drawn[500_00] < 470    # two envelopes of five: 400 expected
    assert all(140 < drawn[a] < 260 for a in (1000_00, 200_00, 100_00))  # 200 expected


def test_a_split_mystery_bounty_is_one_envelope_shared():
    result = draw_mystery_bounty(Draw(SEED, "ko-2"), [333_33], ["a", "b"])
    assert [a.cash for a in result.awards] == [166_67, 166_66] and result.envelopes_left == ()
    with pytest.raises(GameInputError):
        draw_mystery_bounty(Draw(SEED, "ko-3"), [], ["a"])


def test_when_mystery_bounties_start():
    common = dict(late_registration_open=False, levels_completed=0, start_level=None, players_left=40,
                  paid_places=15)
    assert mystery_stage_open("late_registration_end", **common)
    assert not mystery_stage_open("late_registration_end", **{**common, "late_registration_open": True})
    assert not mystery_stage_open("level", **{**common, "start_level": 10, "levels_completed": 9})
    assert mystery_stage_open("level", **{**common, "start_level": 10, "levels_completed": 10})
    assert not mystery_stage_open("in_the_money", **common)
    assert mystery_stage_open("in_the_money", **{**common, "players_left": 15})
    with pytest.raises(GameInputError):
        mystery_stage_open("level", **common)
    with pytest.raises(GameInputError):
        mystery_stage_open("day_2", **common)
