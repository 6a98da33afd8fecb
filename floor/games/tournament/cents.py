"""Exact division of cents: every split here sums to the amount split, to the cent.

Shares are computed exactly (fractions), floored to whole cents, and the cents left over go one
each to the largest fractional parts (largest-remainder rounding). Ties between equal fractional
parts go to the earlier entry in the order given, so the same inputs always give the same cents.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from floor.errors import Money

from ..base import GameInputError


def check_cents(amount, what: str) -> int:
    """Whole cents (an int, not a bool), never negative."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise GameInputError("{what} must be whole cents (an int), got {given}", field=what, what=what,
                             given=repr(amount))
    if amount < 0:
        raise GameInputError("{what} cannot be negative: {amount}", field=what, what=what, amount=Money(amount))
    return amount


def check_count(value, what: str, minimum: int = 0) -> int:
    """A whole number (chips, players, seats...) at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise GameInputError("{what} must be a whole number, got {given}", field=what, what=what, given=repr(value))
    if value < minimum:
        raise GameInputError("{what} must be at least {minimum}, got {given}", field=what, what=what,
                             minimum=minimum, given=value)
    return value


def largest_remainder(exact: Sequence[Fraction], total: int, priority: Sequence[int] | None = None) -> list[int]:
    """Round exact non-negative amounts that sum to ``total`` to whole cents that sum to ``total``.

    ``priority`` orders the ties between equal fractional parts (lower first); by default the
    order given.
    """
    floors = [value.numerator // value.denominator for value in exact]
    left = total - sum(floors)
    if left < 0 or left > len(exact):
        raise AssertionError(f"shares do not sum to {total}: {exact}")
    order = priority if priority is not None else range(len(exact))
    ranked = sorted(range(len(exact)), key=lambda i: (-(exact[i] - floors[i]), order[i]))
    for i in ranked[:left]:
        floors[i] += 1
    return floors


def split_by_weight(amount: int, weights: Sequence[int], priority: Sequence[int] | None = None) -> list[int]:
    """``amount`` cents shared in proportion to ``weights`` (chips), largest remainder."""
    whole = sum(weights)
    if whole <= 0:
        raise GameInputError("nothing to share in proportion to: every weight is zero")
    exact = [Fraction(amount * w, whole) for w in weights]
    return largest_remainder(exact, amount, priority)


def split_equally(amount: int, count: int, priority: Sequence[int] | None = None) -> list[int]:
    """``amount`` cents in ``count`` equal shares; the odd cents one each to the first by ``priority``
    (by default the order given)."""
    if count <= 0:
        raise GameInputError("nobody to share between")
    return largest_remainder([Fraction(amount, count)] * count, amount, priority)
