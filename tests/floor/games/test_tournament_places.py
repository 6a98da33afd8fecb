"""Finishing places when several players go out on one hand; positions and heads-up blinds."""
from collections import Counter

import pytest

from floor.games.base import GameInputError
from floor.games.tournament import Bust, Draw, blind_positions, bust_places, clockwise_from_button, deal_final_places

SEED = bytes(range(7, 39))


def places(result) -> dict:
    return {p.player: p.place for p in result}


def test_more_chips_at_the_start_of_the_hand_finishes_higher():
    result = bust_places(20, [Bust("ann", 3000), Bust("bob", 5000)], "random")
    assert places(result) == {"bob": 19, "ann": 20}
    assert [p.player for p in result] == ["bob", "ann"]  # best place first
    result = bust_places(10, [Bust("a", 1000), Bust("b", 4000), Bust("c", 2500)], "seat_order")
    assert places(result) == {"b": 8, "c": 9, "a": 10}
    assert places(bust_places(5, [Bust("x", 700)], "seat_order")) == {"x": 5}


def test_equal_chips_by_seat_order_from_the_button():
    """Nine-seat table, button on seat 9: seat 2 is 2nd to the button's left, seat 5 the 5th, the
    button itself last. Equal stacks: the one nearer the button's left finishes higher."""
    busts = [Bust(p, 2000, table=3, from_button=clockwise_from_button(seat, 9, 9))
             for p, seat in (("on_button", 9), ("seat5", 5), ("seat2", 2))]
    assert places(bust_places(12, busts, "seat_order")) == {"seat2": 10, "seat5": 11, "on_button": 12}
    # a bigger stack still comes first whatever the seat
    busts.append(Bust("big", 2500, table=3, from_button=7))
    assert places(bust_places(12, busts, "seat_order")) == {"big": 9, "seat2": 10, "seat5": 11, "on_button": 12}


def test_positions_from_the_button():
    assert clockwise_from_button(1, 9, 9) == 1
    assert clockwise_from_button(3, 1, 9) == 2
    assert clockwise_from_button(9, 9, 9) == 9
    assert clockwise_from_button(4, 6, 10) == 8
    with pytest.raises(GameInputError):
        clockwise_from_button(10, 1, 9)


def test_equal_chips_drawn_at_random_each_equally_likely():
    wins = Counter()
    for k in range(600):
        result = bust_places(9, [Bust("a", 1500), Bust("b", 1500), Bust("c", 1500)], "random",
                             Draw(SEED, f"hand-{k}"))
        assert sorted(p.place for p in result) == [7, 8, 9]
        wins[result[0].player] += 1
    assert set(wins) == {"a", "b", "c"} and all(150 < w < 250 for w in wins.values())  # 200 expected
    again = bust_places(9, [Bust("c", 1500), Bust("a", 1500), Bust("b", 1500)], "random", Draw(SEED, "hand-0"))
    first = bust_places(9, [Bust("a", 1500), Bust("b", 1500), Bust("c", 1500)], "random", Draw(SEED, "hand-0"))
    assert again == first  # the draw does not depend on the order the busts were entered


def test_seat_order_between_tables_falls_back_to_a_draw():
    busts = [Bust("t1", 800, table=1, from_button=2), Bust("t2", 800, table=2, from_button=5)]
    with pytest.raises(GameInputError):
        bust_places(30, busts, "seat_order")
    result = bust_places(30, busts, "seat_order", Draw(SEED, "hfh-1"))
    assert sorted(p.place for p in result) == [29, 30]


@pytest.mark.parametrize("args", [
    (3, [Bust("a", 10), Bust("b", 20), Bust("c", 30)], "random"),      # nobody left to win
    (5, [Bust("a", 10), Bust("a", 20)], "random"),                      # out twice
    (5, [Bust("a", 10), Bust("b", 10)], "seat_order"),                  # no positions given
    (5, [Bust("a", 10)], "chips"),
    (1, [], "random"),
])
def test_impossible_busts_are_refused(args):
    with pytest.raises(GameInputError):
        bust_places(*args)
    with pytest.raises(GameInputError):
        Bust("nochips", 0)


def test_final_places_after_a_deal_that_ends_the_tournament():
    # bigger stack higher; the two 5000 stacks: the one nearer the button's left (position 2) is 2nd
    assert deal_final_places([5000, 8000, 5000], [3, 1, 2]) == [3, 1, 2]
    with pytest.raises(GameInputError):
        deal_final_places([5000, 8000], [1, 1])


def test_heads_up_the_button_posts_the_small_blind_and_acts_first_preflop():
    hu = blind_positions([3, 7], 7)
    assert (hu.button, hu.small_blind, hu.big_blind) == (7, 7, 3)
    assert (hu.first_preflop, hu.first_postflop) == (7, 3)
    assert blind_positions([3, 7], 3).small_blind == 3


def test_three_or_more_the_blinds_sit_left_of_the_button():
    three = blind_positions([2, 5, 8], 8)
    assert (three.small_blind, three.big_blind, three.first_preflop, three.first_postflop) == (2, 5, 8, 2)
    six = blind_positions([1, 2, 4, 6, 7, 9], 7)
    assert (six.small_blind, six.big_blind, six.first_preflop, six.first_postflop) == (9, 1, 2, 9)
    with pytest.raises(GameInputError):
        blind_positions([4], 4)
    with pytest.raises(GameInputError):
        blind_positions([1, 2, 3], 5)


def test_heads_up_the_button_posts_the_small_blind_and_acts_first_before_the_flop():
    from floor.games.tournament import hand_postings
    h = hand_postings(500, 1_000, 1_000, True, [3, 7], 7)
    assert (h.positions.small_blind, h.positions.big_blind) == (7, 3)
    assert (h.positions.first_preflop, h.positions.first_postflop) == (7, 3)
    assert [(p.seat, p.what, p.amount) for p in h.postings] == [(7, "small_blind", 500), (3, "big_blind", 1_000),
                                                               (3, "ante", 1_000)]


def test_the_level_on_the_clock_makes_the_postings_of_a_full_table():
    from floor.games.tournament import hand_postings
    # level 100/200 ante 25 for everyone, button on seat 2, seats 1, 2, 5, 9 occupied
    h = hand_postings(100, 200, 25, False, [1, 2, 5, 9], 2)
    assert (h.positions.small_blind, h.positions.big_blind, h.positions.first_preflop) == (5, 9, 1)
    assert [(p.seat, p.what, p.amount) for p in h.postings] == [
        (5, "small_blind", 100), (9, "big_blind", 200), (1, "ante", 25), (2, "ante", 25), (5, "ante", 25), (9, "ante", 25)]
    assert h.total() == 400
    # short stacks: the ante before the blind for everyone's ante (seat 9 is all in on his ante); the big blind before a big-blind ante
    short = hand_postings(100, 200, 25, False, [1, 2, 5, 9], 2, stacks={1: 1_000, 2: 1_000, 5: 110, 9: 20})
    assert [(p.seat, p.what, p.amount) for p in short.postings] == [
        (5, "small_blind", 85), (1, "ante", 25), (2, "ante", 25), (5, "ante", 25), (9, "ante", 20)]
    bba = hand_postings(400, 800, 800, True, [1, 2, 5], 1, stacks={1: 5_000, 2: 5_000, 5: 1_000})
    assert [(p.seat, p.what, p.amount) for p in bba.postings] == [(2, "small_blind", 400), (5, "big_blind", 800),
                                                                 (5, "ante", 200)]
