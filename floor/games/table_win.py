"""A table's win from its chips, and its reconciliation with the rounds it settled.

Pure arithmetic over whole cents; no clock, no database. The pit reruns it in a dispute.

The words (docs/table-accounting.md):

- **drop**: the cash and markers exchanged for chips at the table, as the count room counted it;
- **opening** / **closing**: the tray's chips counted (and verified) at the start and end of a shift;
- **fills**: chips brought from the cage to the tray; **credits**: chips sent back to the cage;
- **handle**: the sum of the stakes (not used here);
- **rounds' win**: the house's result of the rounds settled at the table with chips on the layout:
  stakes lost, minus payouts beyond the stakes, plus commission, with the corrections of rulings.

The inventory win::

    win = drop + (closing - opening) + credits - fills
    hold = win / drop                      (none when the drop is zero)

Why it equals the rounds' win. Every chip that leaves or enters the tray is one of: chips sold for
the drop (out), a losing stake taken (in), a payout (out), a fill (in), a credit (out). So::

    closing = opening - sold + (lost - paid) + fills - credits
    win     = drop - sold + (lost - paid)

and when the chips sold are exactly what went into the drop box, ``win = lost - paid``: the rounds'
win. Chips a player brought from elsewhere or took away need no term of their own: what he lost of
them went into the tray and what he won came out of it, so they are already in the rounds' result.
What a player bets from his account (a remote balance bet) never passes through the tray and is
left out of the rounds' win that is compared. Hence::

    difference = inventory win - rounds' win

is 0.00 for a table whose every bet went through the floor and whose counts are right. A payout the
dealer made 25.00 short leaves 25.00 more in the tray than the rounds say: +25.00. A closing count
25.00 short: -25.00. A buy-in whose cash is missing from the drop box: -its amount.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Mapping

from .base import GameInputError


def _cents(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise GameInputError("{what} is a whole number of cents", what=what)
    return value


def _non_negative(value, what: str) -> int:
    value = _cents(value, what)
    if value < 0:
        raise GameInputError("{what} cannot be negative", what=what)
    return value


def inventory_win(*, drop: int, opening: int, closing: int, fills: int, credits: int) -> int:
    """``drop + (closing - opening) + credits - fills``, in cents (positive: the house won)."""
    drop, opening, closing = (_non_negative(drop, "the drop"), _non_negative(opening, "the opening count"),
                              _non_negative(closing, "the closing count"))
    fills, credits = _non_negative(fills, "the fills"), _non_negative(credits, "the credits")
    return drop + (closing - opening) + credits - fills


def hold_basis_points(win: int, drop: int) -> int | None:
    """``win / drop`` in hundredths of a percent (1234 = 12.34 %), rounded half away from zero;
    None when nothing was dropped (a hold of nothing is not 0 %)."""
    win, drop = _cents(win, "the win"), _non_negative(drop, "the drop")
    if drop == 0:
        return None
    ratio = Fraction(win * 10_000, drop)
    sign = -1 if ratio < 0 else 1
    whole, rest = divmod(abs(ratio), 1)
    return sign * (int(whole) + (1 if rest >= Fraction(1, 2) else 0))


def tray_total(chips: Mapping[int, int], denominations: Iterable[int]) -> int:
    """The value of a count: ``{denomination (cents): number of chips}``; every denomination must be
    one of the house's chips and every number a whole, non-negative count."""
    allowed = set(denominations)
    total = 0
    for denom, count in chips.items():
        if isinstance(denom, bool) or not isinstance(denom, int) or denom not in allowed:
            raise GameInputError("{denomination} is not a chip of the house", denomination=denom)
        total += denom * _non_negative(count, "a number of chips")
    return total


@dataclass(frozen=True)
class Reconciliation:
    """A table's shift seen from its chips and from its rounds; ``difference`` = inventory - rounds."""

    drop: int
    opening: int
    closing: int
    fills: int
    credits: int
    inventory_win: int
    rounds_win: int
    difference: int
    hold_bp: int | None

    @property
    def reconciles(self) -> bool:
        return self.difference == 0


def reconcile(*, drop: int, opening: int, closing: int, fills: int, credits: int, rounds_win: int) -> Reconciliation:
    """Inventory win, rounds' win and their difference (see the module's docstring for the formula)."""
    win = inventory_win(drop=drop, opening=opening, closing=closing, fills=fills, credits=credits)
    rounds_win = _cents(rounds_win, "the rounds' win")
    return Reconciliation(drop=drop, opening=opening, closing=closing, fills=fills, credits=credits,
                          inventory_win=win, rounds_win=rounds_win, difference=win - rounds_win,
                          hold_bp=hold_basis_points(win, drop))


def over_threshold(rec: Reconciliation, threshold: int) -> bool:
    """A difference the pit must look at: more than ``threshold`` cents either way."""
    return abs(rec.difference) > _non_negative(threshold, "the threshold")
