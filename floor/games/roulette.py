"""Single-zero roulette (docs/rules.md, Roulette): the legal bets of the layout and their settlement.

A bet is settled strictly by its position on the layout, so ``bet`` accepts only the number sets a
chip can actually cover; anything else (split 1-5, street 2-3-4, ...) raises ``InvalidBet``.
The layout has 12 rows of three: row r holds 3r+1, 3r+2, 3r+3; column c (1..3) holds n with n % 3 == c % 3.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Iterable, Optional

from .base import GameInputError, check_amount, check_pays

RED = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})
BLACK = frozenset(range(1, 37)) - RED
KINDS = ("straight", "split", "street", "trio", "corner", "first_four", "six_line",
         "column", "dozen", "red", "black", "odd", "even", "low", "high")


class InvalidBet(GameInputError):
    """A set of numbers no chip on the layout can cover with that kind of bet."""

    code = "invalid_bet"


@dataclass(frozen=True)
class RouletteSettings:
    """Payouts, "x to 1", per kind of bet."""

    straight: int = 35
    split: int = 17
    street: int = 11
    trio: int = 11
    corner: int = 8
    first_four: int = 8
    six_line: int = 5
    column: int = 2
    dozen: int = 2
    red: int = 1
    black: int = 1
    odd: int = 1
    even: int = 1
    low: int = 1
    high: int = 1

    def __post_init__(self) -> None:
        check_pays(self, *(f.name for f in fields(self)))


DEFAULT = RouletteSettings()


@dataclass(frozen=True, order=True)
class Bet:
    kind: str
    numbers: tuple[int, ...]  # sorted

    def __str__(self) -> str:
        return f"{self.kind} {'-'.join(map(str, self.numbers))}"


def _row(r: int) -> list[int]:
    return [3 * r + 1, 3 * r + 2, 3 * r + 3]


@lru_cache(maxsize=None)
def _layouts() -> dict[str, frozenset[frozenset[int]]]:
    """Every legal number set per kind of bet."""
    sets: dict[str, list] = {k: [] for k in KINDS}
    sets["straight"] = [{n} for n in range(37)]
    for r in range(12):
        a, b, c = _row(r)
        sets["split"] += [{a, b}, {b, c}]
        sets["street"].append({a, b, c})
        if r < 11:
            d, e, f = _row(r + 1)
            sets["split"] += [{a, d}, {b, e}, {c, f}]
            sets["corner"] += [{a, b, d, e}, {b, c, e, f}]
            sets["six_line"].append({a, b, c, d, e, f})
    sets["split"] += [{0, 1}, {0, 2}, {0, 3}]
    sets["trio"] = [{0, 1, 2}, {0, 2, 3}]
    sets["first_four"] = [{0, 1, 2, 3}]
    sets["column"] = [{n for n in range(1, 37) if n % 3 == c % 3} for c in (1, 2, 3)]
    sets["dozen"] = [set(range(12 * d + 1, 12 * d + 13)) for d in range(3)]
    sets["red"], sets["black"] = [RED], [BLACK]
    sets["odd"] = [{n for n in range(1, 37) if n % 2}]
    sets["even"] = [{n for n in range(1, 37) if not n % 2}]
    sets["low"], sets["high"] = [set(range(1, 19))], [set(range(19, 37))]
    return {k: frozenset(frozenset(s) for s in v) for k, v in sets.items()}


def bet(kind: str, numbers: Optional[Iterable[int]] = None) -> Bet:
    """The bet of ``kind`` covering ``numbers``; numbers may be left out where the kind has one layout
    (red, black, odd, even, low, high, first_four)."""
    layouts = _layouts()
    if kind not in layouts:
        raise InvalidBet("no roulette bet kind {kind!r} (one of {kinds})", kind=kind, kinds=', '.join(KINDS))
    if numbers is None:
        if len(layouts[kind]) != 1:
            raise InvalidBet("a {kind} bet needs the numbers it covers", kind=kind)
        (only,) = layouts[kind]
        return Bet(kind, tuple(sorted(only)))
    if isinstance(numbers, int):
        numbers = (numbers,)
    numbers = list(numbers)
    if any(isinstance(n, bool) or not isinstance(n, int) for n in numbers):
        raise InvalidBet("roulette numbers are whole numbers 0-36, got {numbers!r}", numbers=numbers)
    covered = frozenset(numbers)
    if len(covered) != len(numbers) or covered not in layouts[kind]:
        shown = "-".join(map(str, numbers))
        raise InvalidBet("{shown} is not a {kind} on the single-zero layout", shown=shown, kind=kind)
    return Bet(kind, tuple(sorted(covered)))


def all_bets() -> list[Bet]:
    """Every legal bet on the single-zero layout (157), in a fixed order."""
    layouts = _layouts()
    return [Bet(kind, tuple(sorted(s))) for kind in KINDS for s in sorted(layouts[kind], key=sorted)]


def returned(b: Bet, stake: int, number: int, settings: RouletteSettings) -> int:
    """Total handed back on ``stake`` cents placed on ``b`` when the ball lands on ``number``."""
    check_amount(stake, "roulette stake")
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= 36:
        raise GameInputError("no pocket {number!r} on a single-zero wheel (0-36)", number=number)
    if not isinstance(b, Bet) or frozenset(b.numbers) not in _layouts().get(b.kind, ()):
        raise InvalidBet("not a legal roulette bet: {bet!r}", bet=b)
    if number not in b.numbers:
        return 0
    return stake * (1 + getattr(settings, b.kind))
