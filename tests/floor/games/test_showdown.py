"""Showdown: side pots, split pots and odd chips, hi/lo halves and quarters, rake, run it twice."""
import random
from fractions import Fraction

import pytest

from floor.games.base import GameInputError
from floor.games.cards import deck
from floor.games.poker import RakeSettings, pots, showdown

BOARD = "2C 7D 9H JS KD"
# trips of kings > trips of jacks > trips of nines > king high
KINGS, JACKS, NINES, NOTHING = "KS KH", "JH JC", "9S 9D", "3C 4C"


def test_side_pots_with_three_all_ins():
    holes = [KINGS, JACKS, NINES, NOTHING]
    won = showdown("holdem", BOARD, holes, [100, 250, 400, 400])
    # main 4 x 100 to the kings; side 3 x 150 to the jacks; side 2 x 150 to the nines
    assert won == {0: 400, 1: 450, 2: 300, 3: 0}


def test_all_in_player_wins_only_what_he_matched():
    holes = [NOTHING, NINES, JACKS, KINGS]  # the biggest stack has the best hand
    assert showdown("holdem", BOARD, holes, [100, 250, 400, 400]) == {0: 0, 1: 0, 2: 0, 3: 1150}
    holes = [KINGS, NOTHING, JACKS, NINES]  # short stack wins the main, jacks the rest
    assert showdown("holdem", BOARD, holes, [100, 250, 400, 400]) == {0: 400, 1: 0, 2: 750, 3: 0}


def test_pot_structure():
    ps = pots([100, 250, 400, 400, 30], folded={4})
    assert [(p.amount, p.eligible) for p in ps] == [(430, (0, 1, 2, 3)), (450, (1, 2, 3)), (300, (2, 3))]


def test_split_pot_odd_chip_to_first_winner_left_of_button():
    board = "AS KD 7C 4H 2S"
    holes = [None, "QS JD", "TS 3D", "QH JC"]
    won = showdown("holdem", board, holes, [25, 100, 100, 100], folded={0})
    assert won == {0: 0, 1: 163, 2: 0, 3: 162}
    # three-way chop of 302: two odd chips, to seats 0 and 1
    won = showdown("holdem", "AC KH QS JD TC", ["2S 3D", "4H 5C", "6D 8S", "9C 9D"],
                   [100, 100, 100, 2], folded={3})
    assert won == {0: 101, 1: 101, 2: 100, 3: 0}


def test_folded_players_chips_go_to_the_pots():
    won = showdown("holdem", BOARD, ["AS AH", None, "QS QH"], [50, 200, 200], folded={1})
    assert won == {0: 150, 1: 0, 2: 300}


def test_everyone_else_folded_needs_no_cards():
    won = showdown("holdem", "", [None, "AS AH", None], [20, 60, 40], folded={0, 2})
    assert won == {0: 0, 1: 120, 2: 0}


def test_omaha_hilo_no_low_high_takes_all():
    board = "KS QD 9C 8H 2S"
    won = showdown("omaha_hilo", board, ["AH AD 3C 4C", "KH 7D 6C 5D"], [100, 100])
    assert won == {0: 200, 1: 0}


def test_omaha_hilo_quartered_pot_and_odd_chip_to_high():
    board = "AS 2D 3C 9H 9S"
    holes = ["4H 5D 9C AD",   # high: nines full of aces; low 5-4-3-2-A
             "4S 5C QD QH",   # high: wheel straight; low 5-4-3-2-A
             "KH KC QS JS"]   # two pair, no low
    won = showdown("omaha_hilo", board, holes, [101, 101, 101])
    # 303: high half 152 (odd chip) to seat 0; low half 151 split 76/75, odd chip to seat 0
    assert won == {0: 228, 1: 75, 2: 0}


def test_omaha_hilo_split_and_scoop():
    board = "AS 2D 7C KH QS"
    holes = ["3H 4D KC KD",   # high: trips kings; low 7-4-3-2-A
             "5H 6D 8C 9C"]   # high: king high; low 7-6-5-2-A... beaten by 7-4-3
    assert showdown("omaha_hilo", board, holes, [100, 100]) == {0: 200, 1: 0}
    holes = ["KC KD JC TD",   # trips kings, no low
             "3H 4D 8C 9C"]   # low 7-4-3-2-A
    assert showdown("omaha_hilo", board, holes, [100, 100]) == {0: 100, 1: 100}


def test_omaha_exactly_two_hole_cards_at_showdown():
    board = "KH QH JH TH 5S"
    # seat 0 holds the ace of hearts but one heart cannot make a flush in Omaha; seat 1 has 9-8 of hearts
    won = showdown("omaha", board, ["AH 2C 3C 4D", "9H 8H 3D 4C"], [100, 100])
    assert won == {0: 0, 1: 200}


def test_rake_from_the_main_pot():
    holes = [KINGS, JACKS, NINES, NOTHING]
    assert showdown("holdem", BOARD, holes, [100, 250, 400, 400], rake=30) == \
        {0: 370, 1: 450, 2: 300, 3: 0}
    # 5 % of 1150 = 57.5, rounded down, capped at 50
    assert showdown("holdem", BOARD, holes, [100, 250, 400, 400],
                    rake=RakeSettings(Fraction(5, 100), cap=50)) == {0: 350, 1: 450, 2: 300, 3: 0}
    assert showdown("holdem", BOARD, holes, [100, 250, 400, 400],
                    rake=RakeSettings(Fraction(5, 100))) == {0: 343, 1: 450, 2: 300, 3: 0}


def test_rake_never_taken_from_an_uncalled_bet():
    won = showdown("holdem", BOARD, ["AS AH", "QS QH"], [100, 300], rake=RakeSettings(Fraction(10, 100)))
    assert won == {0: 180, 1: 200}
    with pytest.raises(GameInputError, match="more than the pot"):
        showdown("holdem", BOARD, ["AS AH", "QS QH"], [100, 300], rake=201)


def test_run_it_twice():
    boards = ["2C 7D 9H 3S 4D", "2C 7D 9H KD 5C"]
    won = showdown("holdem", boards, ["AS AH", "KS KH", None], [500, 500, 1], folded={2})
    assert won == {0: 501, 1: 500, 2: 0}   # 1001: the odd chip rides on the first run


def test_run_it_twice_with_a_side_pot():
    boards = ["2C 7D 9H QD 4S", "2C 7D 9H KD 5S"]
    won = showdown("holdem", boards, ["QS QH", "AS AH", "KS KH"], [200, 500, 500])
    # main 600: run 1 queens, run 2 kings; side 600: run 1 aces, run 2 kings
    assert won == {0: 300, 1: 300, 2: 600}


def test_run_it_twice_boards_come_from_one_deck():
    with pytest.raises(GameInputError, match="two runs"):
        showdown("holdem", ["2C 7D 9H 3S 4D", "2C 7D 9H KD 4D"], ["AS AH", "KS KH"], [500, 500])


def test_run_it_twice_after_rake():
    boards = ["2C 7D 9H 3S 4D", "2C 7D 9H KD 5C"]
    assert showdown("holdem", boards, ["AS AH", "KS KH"], [500, 500], rake=50) == {0: 475, 1: 475}


def test_six_plus_showdown_trips_beat_straight():
    won = showdown("sixplus", "7D KC QS 9D 8H", ["7S 7H", "TS JD"], [300, 300])
    assert won == {0: 600, 1: 0}


@pytest.mark.parametrize("kwargs,match", [
    (dict(holes=["AS AH", "AS KH"], contributions=[100, 100]), "twice"),
    (dict(holes=["AS AH", "QS QH"], contributions=[100, -1]), "negative"),
    (dict(holes=["AS AH", "QS QH"], contributions=[100]), "contributions"),
    (dict(holes=["AS AH", "QS QH"], contributions=[100, 100], folded={0, 1}), "every player folded"),
    (dict(holes=["AS AH", "QS"], contributions=[100, 100]), "hole cards"),
    (dict(holes=["AS AH", "QS QH"], contributions=[100, 100], board="2C 7D 9H JS"), "5 expected"),
    (dict(holes=["AS AH", "QS QH"], contributions=[100, 100], variant="razz"), "variant"),
    (dict(holes=["AS AH", "QS QH"], contributions=[100, 100], folded={5}), "folded"),
    (dict(holes=["AS AH", "QS QH", None], contributions=[100, 100, 150], folded={2}), "folded player"),
])
def test_impossible_showdowns_refused(kwargs, match):
    args = dict(variant="holdem", board=BOARD) | kwargs
    with pytest.raises(GameInputError, match=match):
        showdown(**args)


def test_random_hands_conserve_chips_and_respect_all_ins():
    """Every chip goes somewhere, and nobody wins more than he could match from each player."""
    rng = random.Random(7)
    for _ in range(300):
        n = rng.randint(2, 9)
        variant = rng.choice(["holdem", "omaha", "omaha_hilo"])
        hole = 4 if variant != "holdem" else 2
        cards = rng.sample(deck(), 5 + n * hole)
        holes = [cards[5 + i * hole: 5 + (i + 1) * hole] for i in range(n)]
        contributions = [rng.choice([0, 1, 7, 50, 100, 333, 1000]) for _ in range(n)]
        folded = {i for i in range(n) if rng.random() < 0.3}
        if len(folded) == n:
            folded.discard(0)
        top_live = max(contributions[i] for i in range(n) if i not in folded)
        contributions = [min(c, top_live) if i in folded else c for i, c in enumerate(contributions)]
        rake = rng.choice([0, RakeSettings(Fraction(5, 100), cap=300)])
        won = showdown(variant, cards[:5], holes, contributions, folded, rake)
        rake_taken = sum(contributions) - sum(won.values())
        assert rake_taken >= 0 and (rake != 0 or rake_taken == 0)
        for seat, amount in won.items():
            if seat in folded:
                assert amount == 0
            assert amount <= sum(min(c, contributions[seat]) for c in contributions)
