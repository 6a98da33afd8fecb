"""Roulette: every legal bet is fair to 36/37, illegal layouts are refused, payouts by the table."""
from collections import Counter
from fractions import Fraction

import pytest

from floor.games.roulette import BLACK, DEFAULT, RED, Bet, InvalidBet, RouletteSettings, all_bets, bet, returned


def test_the_layout_has_157_legal_bets():
    bets = all_bets()
    assert len(bets) == 157 == len(set(bets))
    assert Counter(b.kind for b in bets) == {
        "straight": 37, "split": 60, "street": 12, "trio": 2, "corner": 22, "first_four": 1,
        "six_line": 11, "column": 3, "dozen": 3,
        "red": 1, "black": 1, "odd": 1, "even": 1, "low": 1, "high": 1,
    }


def test_every_legal_bet_returns_36_37_of_the_stake_on_average():
    for b in all_bets():
        mean = Fraction(sum(returned(b, 1, n, DEFAULT) for n in range(37)), 37)
        assert mean == Fraction(36, 37), b


def test_colours():
    assert len(RED) == len(BLACK) == 18 and not RED & BLACK and 0 not in RED | BLACK
    assert {1, 3, 36, 19} <= RED and {2, 4, 35, 10, 28} <= BLACK


@pytest.mark.parametrize("kind,numbers", [
    ("split", [1, 5]), ("street", [2, 3, 4]), ("corner", [1, 2, 3, 4]), ("split", [3, 4]),
    ("split", [34, 37]), ("split", [0, 4]), ("corner", [3, 4, 6, 7]), ("six_line", [3, 4, 5, 6, 7, 8]),
    ("straight", [37]), ("straight", [-1]), ("split", [1, 1]), ("trio", [1, 2, 3]),
    ("column", [1, 2, 3]), ("dozen", list(range(2, 14))), ("straight", [1.0]), ("column", None),
    ("basket", [0, 1, 2]), ("first_four", [1, 2, 4, 5]),
])
def test_illegal_layouts_refused(kind, numbers):
    with pytest.raises(InvalidBet):
        bet(kind, numbers)
    assert issubclass(InvalidBet, ValueError)


@pytest.mark.parametrize("kind,numbers,hit,miss,pays", [
    ("straight", [17], 17, 18, 35),
    ("straight", [0], 0, 1, 35),
    ("split", [14, 17], 17, 15, 17),
    ("split", [5, 4], 4, 7, 17),
    ("split", [0, 2], 0, 1, 17),
    ("street", [34, 35, 36], 36, 0, 11),
    ("trio", [0, 2, 3], 3, 1, 11),
    ("corner", [25, 26, 28, 29], 29, 27, 8),
    ("first_four", None, 0, 4, 8),
    ("six_line", [31, 32, 33, 34, 35, 36], 31, 30, 5),
    ("column", list(range(3, 37, 3)), 36, 0, 2),
    ("dozen", list(range(13, 25)), 24, 25, 2),
    ("red", None, 1, 2, 1),
    ("black", None, 2, 0, 1),
    ("odd", None, 35, 0, 1),
    ("even", None, 36, 0, 1),
    ("low", None, 18, 19, 1),
    ("high", None, 19, 0, 1),
])
def test_payouts(kind, numbers, hit, miss, pays):
    b = bet(kind, numbers)
    assert returned(b, 1000, hit, DEFAULT) == 1000 * (pays + 1)
    assert returned(b, 1000, miss, DEFAULT) == 0


def test_zero_loses_every_even_chance():
    for kind in ("red", "black", "odd", "even", "low", "high"):
        assert returned(bet(kind), 500, 0, DEFAULT) == 0


def test_payouts_are_house_settings():
    assert returned(bet("straight", [7]), 100, 7, RouletteSettings(straight=36)) == 3700


@pytest.mark.parametrize("stake,number", [(-5, 1), (1.5, 1), (10, 37), (10, -1), (10, "7")])
def test_bad_settlement_input(stake, number):
    with pytest.raises(ValueError):
        returned(bet("straight", [7]), stake, number, DEFAULT)


def test_forged_bet_refused():
    with pytest.raises(InvalidBet):
        returned(Bet("split", (1, 5)), 100, 1, DEFAULT)
