"""Finishing places, and who sits where relative to the button (blinds, heads-up).

Places: with ``players_left`` players in before a hand, the players who go out on that hand take
places ``players_left``, ``players_left - 1``, ...; the one who started the hand with more chips
finishes higher. Equal chips at the start of the hand (a house setting, ``tie_rule``):

* ``random`` (the online room's tournament rules): a draw, each tied player equally likely to
  finish higher;
* ``seat_order`` (the other room's rules): the tied player seated first to the left of the button
  finishes higher. Players at different tables (hand-for-hand) have no common button, so a tie
  between them is drawn as under ``random``.
"""
from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Literal, Optional, Sequence

from ..base import GameInputError
from .cents import check_count
from .draw import Draw, as_draw

Player = Hashable
TieRule = Literal["random", "seat_order"]


def clockwise_from_button(seat: int, button_seat: int, seats_per_table: int) -> int:
    """1 for the first seat to the button's left, ..., ``seats_per_table`` for the button itself."""
    check_count(seats_per_table, "seats_per_table", 2)
    for what, s in (("seat", seat), ("button_seat", button_seat)):
        check_count(s, what, 1)
        if s > seats_per_table:
            raise GameInputError("{what} {seat} is not one of seats 1..{seats}", field=what, what=what, seat=s,
                                 seats=seats_per_table)
    return (seat - button_seat - 1) % seats_per_table + 1


@dataclass(frozen=True)
class Bust:
    """A player out on the hand: chips at the start of the hand; table and position (see
    ``clockwise_from_button``) for the seat-order tie rule."""

    player: Player
    chips_at_start: int
    table: int = 0
    from_button: int = 0

    def __post_init__(self):
        check_count(self.chips_at_start, "chips_at_start", 1)


@dataclass(frozen=True)
class Place:
    player: Player
    place: int


def bust_places(players_left: int, busts: Sequence[Bust], tie_rule: TieRule,
                draw: Optional[Draw] = None) -> tuple[Place, ...]:
    """Places of the players out on one hand, best place first. ``players_left`` counts the players
    in the tournament before the hand (the busted ones included). ``draw`` is needed only when a tie
    has to be drawn."""
    check_count(players_left, "players_left", 2)
    busts = list(busts)
    if not busts:
        return ()
    if len(busts) >= players_left:
        raise GameInputError("{out} players out of {left}: someone must be left to win", field="busts",
                             out=len(busts), left=players_left)
    if len({str(b.player) for b in busts}) != len(busts):
        raise GameInputError("a player is out twice on the same hand", field="busts")
    if tie_rule not in ("random", "seat_order"):
        raise GameInputError("tie rule is 'random' or 'seat_order', got {given}", field="tie_rule",
                             given=repr(tie_rule))
    stream = None
    ordered: list[Bust] = []
    for chips in sorted({b.chips_at_start for b in busts}, reverse=True):
        tied = sorted((b for b in busts if b.chips_at_start == chips), key=lambda b: str(b.player))
        if len(tied) > 1 and tie_rule == "seat_order" and len({b.table for b in tied}) == 1:
            if any(b.from_button < 1 for b in tied) or len({b.from_button for b in tied}) != len(tied):
                raise GameInputError("seat order needs each tied player's position from the button",
                                     field="from_button")
            tied.sort(key=lambda b: b.from_button)
        elif len(tied) > 1:
            if draw is None:
                raise GameInputError("equal chips: the tie is drawn, and no draw was given", field="draw")
            stream = stream or as_draw(draw).stream()
            tied = stream.shuffled(tied)
        ordered.extend(tied)
    best = players_left - len(busts) + 1
    return tuple(Place(b.player, best + i) for i, b in enumerate(ordered))


def deal_final_places(stacks: Sequence[int], from_button: Sequence[int]) -> list[int]:
    """Final places when a deal ends the tournament (the online room's deal rule): the bigger stack
    places higher; equal stacks, the player nearer the button's left places higher. Returns the
    place of each player in the order given."""
    if len(stacks) != len(from_button) or not stacks:
        raise GameInputError("one position per stack", field="from_button")
    for s in stacks:
        check_count(s, "stack", 1)
    if len(set(from_button)) != len(from_button):
        raise GameInputError("two players at the same position", field="from_button")
    order = sorted(range(len(stacks)), key=lambda i: (-stacks[i], from_button[i]))
    places = [0] * len(stacks)
    for place, i in enumerate(order, start=1):
        places[i] = place
    return places


@dataclass(frozen=True)
class BlindPositions:
    button: int
    small_blind: int
    big_blind: int
    first_preflop: int   # first to act before the flop
    first_postflop: int  # first to act on the flop, turn and river


def blind_positions(seats: Sequence[int], button_seat: int) -> BlindPositions:
    """Who posts and who acts first, seats numbered clockwise. Heads-up (two players) the button
    posts the small blind and acts first before the flop, last after it; with three or more the
    small blind sits left of the button and the player left of the big blind acts first."""
    order = sorted(seats)
    if len(order) < 2 or len(set(order)) != len(order):
        raise GameInputError("at least two distinct occupied seats", field="seats")
    if button_seat not in order:
        raise GameInputError("the button seat {seat} is not occupied", field="button_seat", seat=button_seat)
    i = order.index(button_seat)
    after = lambda k: order[(i + k) % len(order)]  # noqa: E731 - the k-th occupied seat after the button
    if len(order) == 2:
        return BlindPositions(button_seat, button_seat, after(1), button_seat, after(1))
    return BlindPositions(button_seat, after(1), after(2), after(3), after(1))


@dataclass(frozen=True)
class Posting:
    seat: int
    what: Literal["small_blind", "big_blind", "ante"]
    amount: int          # chips; less than the level's when the stack is shorter (all in)


@dataclass(frozen=True)
class HandPostings:
    """What a tournament table posts for one hand at the clock's level."""

    positions: BlindPositions
    postings: tuple[Posting, ...]   # small blind, big blind, then antes in seat order

    def total(self) -> int:
        return sum(p.amount for p in self.postings)


def hand_postings(small_blind: int, big_blind: int, ante: int, big_blind_ante: bool, seats: Sequence[int],
                  button_seat: int, stacks: Optional[dict] = None) -> HandPostings:
    """The blinds and antes of one hand at a tournament table, from the level on the clock: the
    positions of ``blind_positions`` (heads-up the button posts the small blind and acts first before
    the flop); with a big-blind ante the big blind also posts ``ante`` for the table, otherwise every
    player dealt in posts ``ante``. ``stacks`` (seat -> chips, optional): nobody posts more than he
    has: a player's own ante before his blind, the big blind before a big-blind ante (a short big
    blind is all in on his blind and posts no ante).
    ``button_seat`` must be an occupied seat."""
    for what, v in (("small_blind", small_blind), ("ante", ante)):
        check_count(v, what, 0)
    check_count(big_blind, "big_blind", 1)
    pos = blind_positions(seats, button_seat)
    left = dict(stacks) if stacks is not None else None

    def take(seat: int, amount: int) -> int:
        if left is None:
            return amount
        have = left.get(seat)
        if isinstance(have, bool) or not isinstance(have, int) or have < 0:
            raise GameInputError("the stack of seat {seat} is a whole number of chips", field="stacks", seat=seat)
        paid = min(have, amount)
        left[seat] = have - paid
        return paid

    blinds, antes = [], []
    if ante and not big_blind_ante:      # every player's ante comes before his blind
        for seat in sorted(seats):
            paid = take(seat, ante)
            if paid:
                antes.append(Posting(seat, "ante", paid))
    if small_blind:
        blinds.append(Posting(pos.small_blind, "small_blind", take(pos.small_blind, small_blind)))
    blinds.append(Posting(pos.big_blind, "big_blind", take(pos.big_blind, big_blind)))
    if ante and big_blind_ante:          # the big blind's own blind comes before the table's ante
        paid = take(pos.big_blind, ante)
        if paid:
            antes.append(Posting(pos.big_blind, "ante", paid))
    out = [p for p in blinds if p.amount] + antes
    return HandPostings(pos, tuple(out))
