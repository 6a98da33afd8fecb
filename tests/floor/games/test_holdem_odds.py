"""Casino Hold'em: the AA Bonus by exact enumeration, the ante's published edge and its estimator."""
from fractions import Fraction
from math import comb

import pytest

from floor.games.base import GameInputError
from floor.games.cards import parse_cards
from floor.games.casino_holdem import CasinoHoldemSettings
from floor.games.holdem_odds import aa_bonus_edge, aa_bonus_odds, ante_edge, ante_edge_monte_carlo, simple_call

HOUSE = CasinoHoldemSettings()

# Five-card poker hands out of C(52,5): the standard table of frequencies.
FLUSH_OR_BETTER = 4 + 36 + 624 + 3_744 + 5_108          # royal, straight flush, quads, full house, flush
STRAIGHT_TO_TWO_PAIR = 10_200 + 54_912 + 123_552         # straight, trips, two pair
PAIR_OF_ACES = 6 * comb(12, 3) * 4 ** 3                  # two of the four aces, three other ranks


def test_aa_bonus_counts_are_the_poker_hand_frequencies():
    odds = aa_bonus_odds(HOUSE)
    assert odds.total == comb(52, 5) == 2_598_960
    assert odds.counts[25] == FLUSH_OR_BETTER
    assert odds.counts[7] == STRAIGHT_TO_TWO_PAIR + PAIR_OF_ACES
    assert odds.counts[None] == comb(52, 5) - FLUSH_OR_BETTER - STRAIGHT_TO_TWO_PAIR - PAIR_OF_ACES


def test_aa_bonus_edge():
    edge = aa_bonus_edge(HOUSE)
    assert edge == 1 - Fraction(26 * FLUSH_OR_BETTER + 8 * (STRAIGHT_TO_TWO_PAIR + PAIR_OF_ACES), comb(52, 5))
    assert round(float(edge) * 100, 2) == 6.40


def test_aa_bonus_edge_follows_the_pay_table():
    better = CasinoHoldemSettings(aa_aces_to_straight=8)
    moved = aa_bonus_edge(HOUSE) - aa_bonus_edge(better)
    assert moved == Fraction(STRAIGHT_TO_TWO_PAIR + PAIR_OF_ACES, comb(52, 5))


def test_ante_edge_is_the_published_figure_for_the_standard_table_only():
    assert ante_edge(HOUSE) == Fraction("0.0216")
    assert ante_edge(CasinoHoldemSettings(aa_flush_or_better=30)) == Fraction("0.0216")  # bonus is its own bet
    with pytest.raises(GameInputError, match="no published"):
        ante_edge(CasinoHoldemSettings(full_house=4))
    with pytest.raises(GameInputError):
        ante_edge("standard")


@pytest.mark.parametrize("player,flop,calls", [
    ("7C 2D", "7H KS 9D", True),      # pair with a hole card
    ("5C 5D", "AH KS 9D", True),      # pocket pair
    ("2H 3H", "9H KH 7C", True),      # four to a flush
    ("8C 9D", "TH JS 2D", True),      # open-ended straight draw
    ("KC 2D", "7H 8S 4D", True),      # a king in hand
    ("TC 3D", "JH QS 5D", True),      # a ten in hand
    ("9C 3D", "7H 6S 2D", True),      # a nine over the flop
    ("9C 3D", "JH 6S 2D", False),     # a nine under a jack, nothing else
    ("4C 2D", "7H 9S QD", False),
    ("7C 2D", "8H 8S 3D", False),     # the board's pair is the dealer's too
])
def test_simple_call(player, flop, calls):
    assert simple_call(parse_cards(player), parse_cards(flop)) is calls


def test_estimator_is_seeded():
    a = ante_edge_monte_carlo(HOUSE, 2_000, seed=3)
    assert a == ante_edge_monte_carlo(HOUSE, 2_000, seed=3)
    assert a != ante_edge_monte_carlo(HOUSE, 2_000, seed=4)
    assert 0 < a.called < 1 and a.standard_error > 0


def test_estimator_always_folding_loses_the_ante_exactly():
    e = ante_edge_monte_carlo(HOUSE, 500, seed=1, calls=lambda player, flop: False)
    assert e.edge == 1.0 and e.standard_error == 0.0 and e.called == 0.0


@pytest.mark.slow
def test_simulated_ante_edge_agrees_with_the_published_figure():
    # ~6 s. simple_call cannot beat the best play, and gives up little against it: the estimate
    # lands within three standard errors of the published 2.16 %.
    e = ante_edge_monte_carlo(HOUSE, 200_000, seed=2024)
    assert abs(e.edge - float(ante_edge(HOUSE))) <= 3 * e.standard_error
    assert 0.78 <= e.called <= 0.84  # the best play calls about 82 % of hands


def test_estimator_refuses_nonsense():
    with pytest.raises(GameInputError):
        ante_edge_monte_carlo(HOUSE, 1, seed=1)
