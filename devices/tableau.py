"""The baccarat tableau seen hand by hand (Player cards, Banker cards), as the shoe reports them.

The rules themselves are floor.games.baccarat's; this only rebuilds the shoe order from the two hands.
"""
from __future__ import annotations

from floor.games import baccarat
from floor.games.cards import Card

value = baccarat.card_value


def shoe_order(player: list[Card], banker: list[Card]) -> list[Card]:
    """Cards 1 and 3 to the Player, 2 and 4 to the Banker, then the Player's third, then the Banker's.
    (Both hands hold their first two cards.)"""
    first = [c for pair in zip(player[:2], banker[:2]) for c in pair]
    return first + player[2:] + banker[2:]


def next_target(player: list[Card], banker: list[Card]) -> str | None:
    """Who gets the next card ("player"/"banker"), or None when the coup is complete."""
    if len(player) < 2 or len(banker) < 2:
        # Before the fourth card the order simply alternates, starting with the Player.
        return "player" if len(player) <= len(banker) else "banker"
    return baccarat.next_target(shoe_order(player, banker))


def outcome(player: list[Card], banker: list[Card]) -> tuple[str, bool, bool]:
    """(winner, player_pair, banker_pair) of a complete coup."""
    coup = baccarat.play(shoe_order(player, banker))
    return coup.winner, coup.player_pair, coup.banker_pair
