"""Bounties: knockout, progressive knockout and mystery bounties.

* ``knockout``: a fixed bounty on every entry goes, whole, to the player who knocks him out.
* ``progressive``: the knocked-out player's current bounty is split: ``cash_percent`` % (50 in the
  usual "50 % progressive") to the winner in cash, the rest onto the winner's own bounty. An odd cent
  goes to the cash part (what the winner takes now), never lost. The tournament winner finally
  collects his own bounty.
* ``mystery``: from the stage the house sets (after late registration, after a given level, or in the
  money), each knock-out wins an envelope drawn at random from the envelopes left; a knock-out before
  that stage wins nothing.

Several winners of the pot that knocked a player out (a split pot) share the bounty equally
(the other room's rule); the odd cents go one each to the winners nearest the button's left, so pass
the winners in seat order starting left of the button. A mystery envelope is drawn once and its
amount shared the same way.
"""
from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Literal, Optional, Sequence

from ..base import GameInputError
from .cents import check_cents, check_count, split_equally
from .draw import Draw, as_draw
from .payouts import percent

Player = Hashable
BountyKind = Literal["none", "knockout", "progressive", "mystery"]
MysteryStart = Literal["late_registration_end", "level", "in_the_money"]


@dataclass(frozen=True)
class BountyAward:
    player: Player
    cash: int          # paid now
    onto_bounty: int   # added to this player's own bounty (progressive only)


def _winners(winners: Sequence[Player]) -> list[Player]:
    winners = list(winners)
    if not winners:
        raise GameInputError("a knock-out needs at least one winner", field="winners")
    if len({str(w) for w in winners}) != len(winners):
        raise GameInputError("a winner is listed twice", field="winners")
    return winners


def knockout_awards(bounty: int, winners: Sequence[Player]) -> tuple[BountyAward, ...]:
    """A fixed bounty to the winner(s) of the pot that knocked the player out."""
    check_cents(bounty, "bounty")
    winners = _winners(winners)
    return tuple(BountyAward(w, c, 0) for w, c in zip(winners, split_equally(bounty, len(winners))))


def progressive_awards(bounty: int, winners: Sequence[Player], *, cash_percent) -> tuple[BountyAward, ...]:
    """The knocked-out player's bounty: each winner's equal share split into cash (rounded up to the
    cent) and the rest onto the winner's own bounty."""
    check_cents(bounty, "bounty")
    pct = percent(cash_percent, "cash_percent")
    if not 0 <= pct <= 100:
        raise GameInputError("cash_percent is between 0 and 100, got {given}", field="cash_percent",
                             given=cash_percent)
    winners = _winners(winners)
    out = []
    for w, share in zip(winners, split_equally(bounty, len(winners))):
        exact = share * pct / 100
        cash = -((-exact.numerator) // exact.denominator)  # ceiling: the odd cent is paid now
        out.append(BountyAward(w, cash, share - cash))
    return tuple(out)


def mystery_stage_open(start: MysteryStart, *, late_registration_open: bool, levels_completed: int,
                       start_level: Optional[int], players_left: int, paid_places: int) -> bool:
    """Whether a knock-out now wins a mystery bounty: after late registration closed, after the end
    of level ``start_level`` (``levels_completed`` as read by the clock), or once the players left
    are all paid."""
    if start == "late_registration_end":
        return not late_registration_open
    if start == "level":
        check_count(start_level, "start_level", 1)
        return check_count(levels_completed, "levels_completed", 0) >= start_level
    if start == "in_the_money":
        return check_count(players_left, "players_left", 1) <= check_count(paid_places, "paid_places", 1)
    raise GameInputError("mystery bounties start at 'late_registration_end', 'level' or 'in_the_money', "
                         "got {given}", field="start", given=repr(start))


@dataclass(frozen=True)
class MysteryDraw:
    amount: int                     # the envelope drawn
    awards: tuple[BountyAward, ...]  # its split between the winners
    envelopes_left: tuple[int, ...]  # largest first


def draw_mystery_bounty(draw: Draw, envelopes: Sequence[int], winners: Sequence[Player]) -> MysteryDraw:
    """Draw one envelope for one knock-out. The envelopes are put in a fixed order (largest first)
    and one is picked with ``below(len)``; record the label (e.g. the knock-out's number) with it."""
    pool = sorted((check_cents(e, "envelope") for e in envelopes), reverse=True)
    if not pool:
        raise GameInputError("no mystery bounty envelope left", field="envelopes")
    winners = _winners(winners)
    i = as_draw(draw).stream().below(len(pool))
    amount = pool.pop(i)
    awards = tuple(BountyAward(w, c, 0) for w, c in zip(winners, split_equally(amount, len(winners))))
    return MysteryDraw(amount, awards, tuple(pool))
