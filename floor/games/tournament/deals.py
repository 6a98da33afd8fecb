"""Deals: ICM (Malmuth–Harville), chip chop, and a save kept back for first place.

ICM: a player's chance to finish first is his share of the chips; given who finished first, his
chance to finish second is his share of the chips left without the winner; and so on. His equity
is the sum over places of (chance of that place) x (prize of that place). Computed exactly with
fractions by going through the sets of players already placed (2**n sets, n players), so ten
players cost about ten thousand exact steps.

Prizes are cents from first place down. Fewer prizes than players: the lower places pay 0. More
prizes than players: only the first ``len(stacks)`` are played for (the others would go to players
already out; they are not part of the deal).

Rounding: each player's exact equity is rounded down to the cent and the cents left go one each to
the largest fractional parts; equal fractional parts (equal stacks) give the cent to the player
listed first. The amounts sum exactly to the prizes played for.

The save: before the deal, ``save`` cents are taken off first prize and kept back; the deal shares
the rest, and play goes on for the save (and the title). The amounts plus the save sum exactly to
the prizes played for.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from floor.errors import Money

from ..base import GameInputError
from .cents import check_cents, check_count, largest_remainder, split_by_weight


def _check(stacks: Sequence[int], prizes: Sequence[int]) -> tuple[list[int], list[int]]:
    stacks = list(stacks)
    if not stacks:
        raise GameInputError("a deal needs at least one player", field="stacks")
    for s in stacks:
        check_count(s, "stack", 1)  # a player with no chips is out, not part of a deal
    prizes = [check_cents(p, "prize") for p in prizes]
    prizes = prizes[:len(stacks)]
    return stacks, prizes + [0] * (len(stacks) - len(prizes))


def icm_equities(stacks: Sequence[int], prizes: Sequence[int]) -> list[Fraction]:
    """Exact Malmuth–Harville equity of each player, in cents, in the order of ``stacks``."""
    stacks, prizes = _check(stacks, prizes)
    n = len(stacks)
    paid = max((k + 1 for k, p in enumerate(prizes) if p), default=0)
    total = sum(stacks)
    equity = [Fraction(0)] * n
    # chance that exactly the players of mask (as a set) took the first |mask| places
    layer = {0: Fraction(1)}
    placed_chips = {0: 0}
    for place in range(paid):
        prize = prizes[place]
        nxt: dict[int, Fraction] = {}
        for mask, chance in layer.items():
            left = total - placed_chips[mask]
            for j in range(n):
                bit = 1 << j
                if mask & bit:
                    continue
                p = chance * stacks[j] / left
                equity[j] += p * prize
                m = mask | bit
                if m in nxt:
                    nxt[m] += p
                else:
                    nxt[m] = p
                    placed_chips[m] = placed_chips[mask] + stacks[j]
        layer = nxt
    return equity


def _priority(stacks: Sequence[int]) -> list[int]:
    return list(range(len(stacks)))


def icm(stacks: Sequence[int], prizes: Sequence[int]) -> list[int]:
    """Each player's ICM share in cents, in the order of ``stacks``, summing to the prizes played for."""
    stacks, played = _check(stacks, prizes)
    return largest_remainder(icm_equities(stacks, played), sum(played), _priority(stacks))


def chip_chop(stacks: Sequence[int], prizes: Sequence[int]) -> list[int]:
    """Every player gets the last prize played for (the prize of place ``len(stacks)``); what is left
    is shared in proportion to the chips (largest remainder, ties to the player listed first)."""
    stacks, played = _check(stacks, prizes)
    floor_prize = played[-1]
    rest = split_by_weight(sum(played) - floor_prize * len(stacks), stacks, _priority(stacks))
    return [floor_prize + r for r in rest]


@dataclass(frozen=True)
class Deal:
    amounts: tuple[int, ...]  # paid now, in the order of the stacks
    save: int                 # kept back, to the player who goes on to win
    method: str

    @property
    def total(self) -> int:
        return sum(self.amounts) + self.save


def deal(stacks: Sequence[int], prizes: Sequence[int], *, method: str, save: int) -> Deal:
    """A deal by ``icm`` or ``chip_chop`` with ``save`` cents kept back for first place (0: none)."""
    stacks, played = _check(stacks, prizes)
    check_cents(save, "save")
    if len(stacks) < 2:
        raise GameInputError("a deal needs at least two players", field="stacks")
    if save > played[0]:
        raise GameInputError("the save ({save}) is more than first prize ({first})", field="save",
                             save=Money(save), first=Money(played[0]))
    if save and played[0] - save < played[1]:
        raise GameInputError("with a save of {save}, first prize would be below second: at most {most}",
                             field="save", save=Money(save), most=Money(played[0] - played[1]))
    reduced = [played[0] - save] + played[1:]
    if method == "icm":
        amounts = icm(stacks, reduced)
    elif method == "chip_chop":
        amounts = chip_chop(stacks, reduced)
    else:
        raise GameInputError("a deal is 'icm' or 'chip_chop', got {given}", field="method", given=repr(method))
    return Deal(tuple(amounts), save, method)
