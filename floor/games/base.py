"""Shared checks and money arithmetic for the game rules.

Every game module validates its input the same way and rounds money the same way, so a pit boss
rerunning a round gets the same cents as the table did.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Iterable, Literal

from floor.errors import BadInput

from .cards import Card, InvalidCard, parse_cards

Rounding = Literal["down", "up", "half_up"]
ROUNDINGS = ("down", "up", "half_up")


class GameInputError(BadInput, ValueError):
    """Input no real round can produce: wrong card count, duplicate card, negative stake...

    A ValueError (plain callers can catch it as such) and a BadInput (the web layer turns it into a 400).
    """

    code = "invalid_game_input"


def cards_of(cards, what: str) -> tuple[Card, ...]:
    """Parse ``cards`` (codes, Card objects or a space separated string) into a tuple."""
    if cards is None:
        raise GameInputError("{what}: no cards given", what=what)
    try:
        return tuple(parse_cards(cards))
    except InvalidCard as e:  # a misread card is bad input like any other: a 400, not a 500
        raise GameInputError("{what}: {problem}", what=what, problem=e) from e


def check_count(cards: tuple[Card, ...], allowed: Iterable[int], what: str) -> None:
    allowed = tuple(allowed)
    if len(cards) not in allowed:
        want = " or ".join(str(n) for n in allowed)
        raise GameInputError("{what}: {count} cards given, {want} expected", what=what, count=len(cards), want=want)


def check_distinct(cards: Iterable[Card], what: str) -> None:
    """One deck holds each card once; a repeated card means a misread or a wrong entry."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise GameInputError("{what}: card {card} appears twice", what=what, card=card)
        seen.add(card)


def check_amount(amount, what: str) -> int:
    """Amounts are whole cents, never floats, never negative."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise GameInputError("{what} must be whole cents (an int), got {amount!r}", what=what, amount=amount)
    if amount < 0:
        raise GameInputError("{what} cannot be negative: {amount}", what=what, amount=amount)
    return amount


def round_cents(value: Fraction, mode: Rounding = "down") -> int:
    """Round an exact amount of cents to a whole cent, the way the house setting says."""
    value = Fraction(value)
    if mode == "down":
        return value.numerator // value.denominator
    if mode == "up":
        return -((-value.numerator) // value.denominator)
    if mode == "half_up":
        return (2 * value.numerator + value.denominator) // (2 * value.denominator)
    raise GameInputError("unknown rounding mode {mode!r} (down, up or half_up)", mode=mode)


# --- the checks of the games' own settings (each settings class runs them when it is made) ----------

def check_pays(settings, *names: str) -> None:
    """Odds "x to 1" are whole numbers of at least 1: a winning bet that pays nothing is a typo."""
    for name in names:
        value = getattr(settings, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise GameInputError("{setting} must be a whole number of at least 1, not {value}",
                                 setting=f"{type(settings).__name__}.{name}", value=value)


def check_flags(settings, *names: str) -> None:
    for name in names:
        value = getattr(settings, name)
        if not isinstance(value, bool):
            raise GameInputError("{setting} must be true or false, not {value}",
                                 setting=f"{type(settings).__name__}.{name}", value=value)


def check_choice(settings, name: str, choices: Iterable[str]) -> None:
    value, choices = getattr(settings, name), tuple(choices)
    if not isinstance(value, str) or value not in choices:
        raise GameInputError("{setting} must be one of {choices}, not {value}",
                             setting=f"{type(settings).__name__}.{name}", choices=", ".join(choices), value=value)


def check_fraction(settings, name: str, *, share: bool = False) -> None:
    """An exact number (an int or a Fraction, never a float): a payout above 0, or a share of an amount
    from 0 to below 1."""
    value = getattr(settings, name)
    exact = isinstance(value, (int, Fraction)) and not isinstance(value, bool)
    if share and not (exact and 0 <= value < 1):
        raise GameInputError("{setting} must be an exact share from 0 to below 1 (like 5/100), not {value}",
                             setting=f"{type(settings).__name__}.{name}", value=value)
    if not share and not (exact and value > 0):
        raise GameInputError("{setting} must be an exact number above 0 (like 3/2), not {value}",
                             setting=f"{type(settings).__name__}.{name}", value=value)
