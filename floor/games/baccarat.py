"""Punto banco (docs/rules.md, Baccarat): the drawing rules and the settlement of a coup.

Cards go Player, Banker, Player, Banker, then third cards by the tableau. ``next_target`` answers
"where does the next card go?" from the cards dealt so far, so a smart shoe, a dealer terminal and
``play`` all follow the same tableau.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, Optional

from .base import (ROUNDINGS, GameInputError, Rounding, cards_of, check_amount, check_choice, check_fraction,
                   check_pays, round_cents)
from .cards import Card

Side = Literal["player", "banker"]
SPOTS = ("player", "banker", "tie", "player_pair", "banker_pair")


@dataclass(frozen=True)
class BaccaratSettings:
    """House payouts (odds "x to 1") and the banker commission with its rounding."""

    player_pays: int = 1
    banker_pays: int = 1
    banker_commission: Fraction = Fraction(5, 100)  # of the amount won
    commission_rounding: Rounding = "down"  # the commission is rounded to the cent this way
    tie_pays: int = 8
    pair_pays: int = 11  # player pair / banker pair side bets

    def __post_init__(self) -> None:
        check_pays(self, "player_pays", "banker_pays", "tie_pays", "pair_pays")
        check_fraction(self, "banker_commission", share=True)
        check_choice(self, "commission_rounding", ROUNDINGS)


DEFAULT = BaccaratSettings()


def card_value(card: Card) -> int:
    """2-9 count face value, 10 and pictures 0, ace 1."""
    if card.rank == 14:
        return 1
    return card.rank if card.rank < 10 else 0


def total(cards) -> int:
    return sum(card_value(c) for c in cards) % 10


def player_draws(player_total: int) -> bool:
    """Player draws on 0-5 (called only when neither hand is a natural)."""
    return player_total <= 5


def banker_draws(banker_total: int, player_third: Optional[int]) -> bool:
    """The banker's tableau. ``player_third`` is the value of the player's third card, None if he stood."""
    if player_third is None:
        return banker_total <= 5
    if banker_total <= 2:
        return True
    if banker_total == 3:
        return player_third != 8
    if banker_total == 4:
        return 2 <= player_third <= 7
    if banker_total == 5:
        return 4 <= player_third <= 7
    if banker_total == 6:
        return 6 <= player_third <= 7
    return False


def next_target(cards_so_far) -> Optional[Side]:
    """Where the next card out of the shoe goes; None once the coup is complete."""
    cards = cards_of(cards_so_far, "baccarat coup")
    n = len(cards)
    if n < 4:
        return ("player", "banker")[n % 2]
    p_total = total((cards[0], cards[2]))
    b_total = total((cards[1], cards[3]))
    if p_total >= 8 or b_total >= 8:  # a natural: both stand
        return None
    p_draws = player_draws(p_total)
    if n == 4:
        if p_draws:
            return "player"
        return "banker" if banker_draws(b_total, None) else None
    if p_draws:
        if n == 5:
            return "banker" if banker_draws(b_total, card_value(cards[4])) else None
        return None
    return None


@dataclass(frozen=True)
class Coup:
    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    player_total: int
    banker_total: int
    winner: Literal["player", "banker", "tie"]
    cards_used: int
    natural: bool
    player_pair: bool  # the player's first two cards have the same rank
    banker_pair: bool


def play(cards) -> Coup:
    """Deal a coup from ``cards`` in shoe order; uses 4 to 6 of them, ignores any after."""
    cards = cards_of(cards, "baccarat coup")
    used: list[Card] = []
    player: list[Card] = []
    banker: list[Card] = []
    while (target := next_target(used)) is not None:
        if len(used) == len(cards):
            raise GameInputError(
                "baccarat coup: {count} cards given, the tableau needs another for the {target}", count=len(cards), target=target)
        card = cards[len(used)]
        used.append(card)
        (player if target == "player" else banker).append(card)
    p_total, b_total = total(player), total(banker)
    winner = "player" if p_total > b_total else "banker" if b_total > p_total else "tie"
    return Coup(
        player=tuple(player), banker=tuple(banker), player_total=p_total, banker_total=b_total,
        winner=winner, cards_used=len(used),
        natural=total(player[:2]) >= 8 or total(banker[:2]) >= 8,
        player_pair=player[0].rank == player[1].rank, banker_pair=banker[0].rank == banker[1].rank,
    )


def returned(spot: str, stake: int, coup: Coup, settings: BaccaratSettings) -> int:
    """Total handed back on a bet of ``stake`` cents on ``spot`` (stake included; 0 for a loss)."""
    check_amount(stake, "baccarat stake")
    if spot not in SPOTS:
        raise GameInputError("no baccarat spot {spot!r} (one of {spots})", spot=spot, spots=', '.join(SPOTS))
    if spot == "tie":
        return stake * (1 + settings.tie_pays) if coup.winner == "tie" else 0
    if spot in ("player_pair", "banker_pair"):
        hit = coup.player_pair if spot == "player_pair" else coup.banker_pair
        return stake * (1 + settings.pair_pays) if hit else 0
    if coup.winner == "tie":
        return stake  # player and banker bets push on a tie
    if coup.winner != spot:
        return 0
    if spot == "player":
        return stake * (1 + settings.player_pays)
    won = stake * settings.banker_pays
    commission = round_cents(Fraction(won) * settings.banker_commission, settings.commission_rounding)
    return stake + won - commission
