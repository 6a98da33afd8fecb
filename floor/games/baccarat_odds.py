"""Exact odds of punto banco over a full shoe, walked through the tableau of ``baccarat``.

A coup takes at most six cards, so every coup of a fresh shoe of N decks is one of the ordered
draws of six cards; cards the coup does not take still count as the rest of that six-card draw. The
walk goes by card *value* (ten-valued cards are one value, 16 of them per deck), weighting each
branch by how many cards of that value are left, so it visits about a hundred thousand tableau
states instead of 416^6 card sequences. ``next_target`` decides at every step where the next card
goes, ``play`` and ``returned`` settle each distinct outcome, so the figures follow the module's own
rules and the table's payouts.

Pair bets depend only on the first two cards of a hand, and a pair is two cards of the same *rank*
(a jack and a queen are no pair): they are counted over the 13 ranks, not the 10 values.

The first call for a number of decks takes 1 to 2.5 s on the two-core development machine (1.1 s
idle, 2.3 s shared; ``make bench`` prints it as ``baccarat_shoe_8_decks_s``); results are cached per
number of decks, and the edges per (decks, settings).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from .baccarat import SPOTS, BaccaratSettings, next_target, play, returned, total
from .base import GameInputError
from .cards import Card

# One card of each baccarat value, to show the tableau (value 0: a ten).
_REP = {0: Card(10, "S"), 1: Card(14, "S"), **{v: Card(v, "S") for v in range(2, 10)}}
MAX_DECKS = 12


def falling(n: int, k: int) -> int:
    """n (n-1) ... (n-k+1): ordered draws of k cards out of n."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


@dataclass(frozen=True)
class ShoeOdds:
    """Every coup of a fresh shoe, as weights over all ordered six-card draws (``total`` of them).

    ``outcomes`` maps (player total, banker total, player cards, banker cards) to the weight of that
    outcome and one deal that produces it; ``wins`` sums the weights per winner."""

    decks: int
    total: int
    outcomes: dict[tuple[int, int, int, int], tuple[int, tuple[Card, ...]]]
    wins: dict[str, int]
    player_pair: Fraction  # probability that the player's first two cards are a pair
    banker_pair: Fraction


def _check_decks(decks) -> int:
    if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= MAX_DECKS:
        raise GameInputError("a baccarat shoe holds 1 to {MAX_DECKS} decks, got {decks!r}", MAX_DECKS=MAX_DECKS, decks=decks)
    return decks


def shoe_odds(decks: int) -> ShoeOdds:
    """Enumerate every coup of a fresh shoe of ``decks`` decks exactly (cached per ``decks``)."""
    return _shoe_odds(_check_decks(decks))


@lru_cache(maxsize=None)
def _shoe_odds(decks: int) -> ShoeOdds:
    size = 52 * decks
    counts = [16 * decks] + [4 * decks] * 9
    outcomes: dict[tuple[int, int, int, int], list] = {}

    def settle(cards: list[Card], sides: list[str], weight: int) -> None:
        player = [c for c, s in zip(cards, sides) if s == "player"]
        banker = [c for c, s in zip(cards, sides) if s == "banker"]
        key = (total(player), total(banker), len(player), len(banker))
        w = weight * falling(size - len(cards), 6 - len(cards))
        if key in outcomes:
            outcomes[key][0] += w
        else:
            outcomes[key] = [w, tuple(cards)]

    def walk(cards: list[Card], sides: list[str], weight: int) -> None:
        # after six cards the coup is always complete; below that the tableau says
        target = next_target(cards) if len(cards) < 6 else None
        if target is None:
            settle(cards, sides, weight)
            return
        for v in range(10):
            n = counts[v]
            if n:
                counts[v] -= 1
                cards.append(_REP[v])
                sides.append(target)
                walk(cards, sides, weight * n)
                cards.pop()
                sides.pop()
                counts[v] += 1

    walk([], [], 1)
    wins = {"player": 0, "banker": 0, "tie": 0}
    frozen = {}
    for key, (w, rep) in outcomes.items():
        frozen[key] = (w, rep)
        wins[play(rep).winner] += w
    total_weight = falling(size, 6)
    if sum(wins.values()) != total_weight:  # every draw lands in exactly one outcome
        raise AssertionError("baccarat enumeration lost draws")
    return ShoeOdds(decks, total_weight, frozen, wins,
                    _pair_probability(decks, "player"), _pair_probability(decks, "banker"))


def _pair_probability(decks: int, side: str) -> Fraction:
    """P(the side's first two cards are a pair), judged by ``play`` on a natural coup with those cards."""
    per_rank, size = 4 * decks, 52 * decks
    hits = 0
    for r1 in range(2, 15):
        for r2 in range(2, 15):
            ways = per_rank * (per_rank - (r1 == r2))
            # the other hand holds two nines: a natural, so the coup stops after four cards
            a, b = Card(r1, "S"), Card(r2, "H")
            deal = (a, Card(9, "D"), b, Card(9, "C")) if side == "player" else (Card(9, "D"), a, Card(9, "C"), b)
            coup = play(deal)
            if coup.player_pair if side == "player" else coup.banker_pair:
                hits += ways
    return Fraction(hits, size * (size - 1))


def _unit_stake(settings: BaccaratSettings) -> int:
    """A stake on which the commission comes out in whole cents, so the cent rounding plays no part."""
    return Fraction(settings.banker_commission).denominator


def baccarat_edge(spot: str, decks: int, settings: BaccaratSettings) -> Fraction:
    """House edge of a baccarat spot: the expected loss per unit staked, exact, for a fresh shoe.

    Banker: the commission is taken exactly (on a stake where it is a whole number of cents); the
    table's rounding of the commission to the cent moves a real bet by less than a cent.
    Player and banker push on a tie, as ``returned`` says."""
    if spot not in SPOTS:
        raise GameInputError("no baccarat spot {spot!r} (one of {spots})", spot=spot, spots=', '.join(SPOTS))
    if not isinstance(settings, BaccaratSettings):
        raise GameInputError("baccarat needs BaccaratSettings, got {__name__}", __name__=type(settings).__name__)
    # checked before the cache: 8.0 and True hash like 8 and 1
    return _edge(spot, _check_decks(decks), settings)


@lru_cache(maxsize=256)
def _edge(spot: str, decks: int, settings: BaccaratSettings) -> Fraction:
    odds = shoe_odds(decks)
    stake = _unit_stake(settings)
    if spot in ("player_pair", "banker_pair"):
        p = odds.player_pair if spot == "player_pair" else odds.banker_pair
        hit = play("8S 9D 8H 9C") if spot == "player_pair" else play("9D 8S 9C 8H")
        miss = play("8S 9D 7H 9C") if spot == "player_pair" else play("9D 8S 9C 7H")
        back = p * returned(spot, stake, hit, settings) + (1 - p) * returned(spot, stake, miss, settings)
        return 1 - back / stake
    back = sum(w * returned(spot, stake, play(rep), settings) for w, rep in odds.outcomes.values())
    return 1 - Fraction(back, odds.total * stake)
