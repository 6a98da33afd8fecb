"""Shared money rounding and input errors."""
from fractions import Fraction

import pytest

from floor.errors import BadInput
from floor.games.base import GameInputError, check_amount, round_cents
from floor.games.poker import hand_rank


@pytest.mark.parametrize("value,mode,cents", [
    (Fraction(15, 2), "down", 7), (Fraction(15, 2), "up", 8), (Fraction(15, 2), "half_up", 8),
    (Fraction(29, 4), "half_up", 7), (Fraction(7), "up", 7), (Fraction(1, 20), "down", 0),
])
def test_round_cents(value, mode, cents):
    assert round_cents(value, mode) == cents


@pytest.mark.parametrize("amount", [-1, 1.0, "5", True, None])
def test_amounts_are_whole_non_negative_cents(amount):
    with pytest.raises(GameInputError):
        check_amount(amount, "stake")


def test_errors_are_value_errors_and_bad_input():
    with pytest.raises(GameInputError) as info:
        hand_rank("holdem", "AS XX", "2C 3D 4H")
    assert isinstance(info.value, ValueError) and isinstance(info.value, BadInput)
    assert info.value.status == 400 and "hole cards" in str(info.value)
