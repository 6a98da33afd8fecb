"""Baccarat drawing rules, just enough for the shoe simulator (private: the floor's own rules
live in floor.games.baccarat; the lead swaps this for floor.games.baccarat.next_target)."""
from __future__ import annotations

from floor.games.cards import Card


def value(card: Card) -> int:
    return 1 if card.rank == 14 else (0 if card.rank >= 10 else card.rank)


def total(cards: list[Card]) -> int:
    return sum(value(c) for c in cards) % 10


def next_target(player: list[Card], banker: list[Card]) -> str | None:
    """Who gets the next card ("player"/"banker"), or None when the coup is complete."""
    if len(player) < 2 or len(banker) < 2:
        return "player" if len(player) <= len(banker) else "banker"
    p, b = total(player[:2]), total(banker[:2])
    if p >= 8 or b >= 8:
        return None  # a natural: both stand
    if len(player) == 2 and p <= 5:
        return "player"
    if len(banker) == 3:
        return None
    if len(player) == 2:  # player stood on 6 or 7
        return "banker" if b <= 5 else None
    p3 = value(player[2])
    draws = (b <= 2 or (b == 3 and p3 != 8) or (b == 4 and 2 <= p3 <= 7)
             or (b == 5 and 4 <= p3 <= 7) or (b == 6 and p3 in (6, 7)))
    return "banker" if draws else None


def outcome(player: list[Card], banker: list[Card]) -> tuple[str, bool, bool]:
    """(winner, player_pair, banker_pair) of a complete coup."""
    p, b = total(player), total(banker)
    winner = "player" if p > b else "banker" if b > p else "tie"
    return winner, player[0].rank == player[1].rank, banker[0].rank == banker[1].rank
