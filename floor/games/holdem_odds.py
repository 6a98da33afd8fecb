"""Casino Hold'em: the exact edge of the AA Bonus, the published edge of the ante, and a seeded
Monte Carlo estimator of the ante to check it.

AA Bonus. It is judged on the player's two cards and the flop: five cards whose order and split
between hand and flop do not matter. The C(52,5) = 2,598,960 five-card sets fall into 7,462 rank
patterns times "flush or not"; each pattern is judged once by ``casino_holdem.aa_bonus_pays`` on a
representative and weighted by how many suit assignments give it, so the edge is exact. The bonus is
paid only when the player calls: the edge assumes he calls whenever the bonus wins (calling also
buys the ante's own chances; folding a winning bonus would only throw it away).

Ante. Its edge with the best call-or-fold decision needs, for each of the 25,989,600 (cards, flop)
deals, the exact value of calling over the 1,070,190 turn-river-dealer completions: far beyond a
pure-Python run. So ``ante_edge`` gives the published figure for the pay table (2.16 % of the ante
for royal 100, straight flush 20, four of a kind 10, full house 3, flush 2, the rest 1, dealer
qualifying with a pair of fours), and ``ante_edge_monte_carlo`` estimates the edge of a given call
rule by seeded simulation settled by ``casino_holdem.returned``. ``simple_call`` is a short call
rule close to the best play (see its docstring for what it gives up).
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, fields
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb
from typing import Callable, Sequence

from .base import GameInputError
from .cards import Card, deck
from .casino_holdem import CasinoHoldemSettings, aa_bonus_pays, returned


def _pay_table(settings: CasinoHoldemSettings) -> tuple:
    if not isinstance(settings, CasinoHoldemSettings):
        raise GameInputError("Casino Hold'em needs CasinoHoldemSettings, got {__name__}", __name__=type(settings).__name__)
    return tuple((f.name, getattr(settings, f.name)) for f in fields(settings) if not f.name.startswith("aa_"))


# Published house edge of the ante, per (ante pay table, qualifying pair), for best play.
PUBLISHED_ANTE_EDGE = {
    _pay_table(CasinoHoldemSettings(royal_flush=100, straight_flush=20, four_of_a_kind=10, full_house=3,
                                    flush=2, straight_or_less=1, dealer_qualifies_with=4)): Fraction("0.0216"),
}


def ante_edge(settings: CasinoHoldemSettings) -> Fraction:
    """The published edge of the ante (per unit of ante, best call strategy) for the table's pay
    table; a pay table with no published figure is refused rather than guessed."""
    key = _pay_table(settings)
    if key not in PUBLISHED_ANTE_EDGE:
        raise GameInputError("no published Casino Hold'em ante edge for this pay table: estimate it with "
                             "ante_edge_monte_carlo and add it to PUBLISHED_ANTE_EDGE")
    return PUBLISHED_ANTE_EDGE[key]


@dataclass(frozen=True)
class BonusOdds:
    """How many of the C(52,5) five-card sets pay each AA Bonus odds (None: the bonus loses)."""

    counts: dict
    total: int


@lru_cache(maxsize=32)
def aa_bonus_odds(settings: CasinoHoldemSettings) -> BonusOdds:
    counts: dict = {}
    suits = "SHDC"
    for ranks in combinations_with_replacement(range(2, 15), 5):
        mult = {r: ranks.count(r) for r in set(ranks)}
        if max(mult.values()) > 4:
            continue
        ways = math.prod(comb(4, m) for m in mult.values())
        cases = []
        if len(mult) == 5:
            cases.append((4, [Card(r, "S") for r in ranks]))                      # one suit: a flush
            cases.append((ways - 4, [Card(r, "S") for r in ranks[:4]] + [Card(ranks[4], "H")]))
        else:
            seen: dict = {}
            cards = []
            for r in ranks:  # repeated ranks take different suits: never a flush
                cards.append(Card(r, suits[seen.get(r, 0)]))
                seen[r] = seen.get(r, 0) + 1
            cases.append((ways, cards))
        for n, cards in cases:
            odds = aa_bonus_pays(tuple(cards[:2]), tuple(cards[2:]), settings)
            counts[odds] = counts.get(odds, 0) + n
    total = sum(counts.values())
    if total != comb(52, 5):
        raise AssertionError("AA Bonus enumeration lost hands")
    return BonusOdds(counts, total)


def aa_bonus_edge(settings: CasinoHoldemSettings) -> Fraction:
    """Exact edge of the AA Bonus (the player calls whenever it wins)."""
    _pay_table(settings)  # checks the settings before they reach the cache
    odds = aa_bonus_odds(settings)
    back = sum(n * (1 + k) for k, n in odds.counts.items() if k is not None)
    return 1 - Fraction(back, odds.total)


# --- the ante by simulation ---------------------------------------------------------------------

CallRule = Callable[[Sequence[Card], Sequence[Card]], bool]


def _straight_draw(ranks: set[int]) -> bool:
    """Four ranks in a row that a card at either end completes (not A-2-3-4 or J-Q-K-A)."""
    return any(all(r + i in ranks for i in range(4)) for r in range(2, 11))


def simple_call(player: Sequence[Card], flop: Sequence[Card]) -> bool:
    """A short call rule: call with a pair or better that uses a hole card, four to a flush or an
    open-ended straight draw, a ten or better in hand, or an 8 or 9 above every flop card; fold the
    rest. (Drawn from simulated call values by the high hole card: unpaired hands are worth calling,
    i.e. lose less than the ante, from about a ten up.)"""
    hole = {c.rank for c in player}
    board = {c.rank for c in flop}
    if len(hole) == 1 or hole & board:
        return True
    for suit in "SHDC":
        if sum(c.suit == suit for c in (*player, *flop)) >= 4 and any(c.suit == suit for c in player):
            return True
    if _straight_draw(hole | board):  # the flop's three ranks alone cannot make four in a row
        return True
    high = max(hole)
    return high >= 10 or (high >= 8 and high > max(board))


@dataclass(frozen=True)
class Estimate:
    edge: float             # mean loss per unit of ante
    standard_error: float
    hands: int
    called: float           # share of hands called


def ante_edge_monte_carlo(settings: CasinoHoldemSettings, hands: int, seed: int,
                          calls: CallRule = simple_call) -> Estimate:
    """Estimate the ante's edge for the call rule ``calls`` over ``hands`` seeded random deals,
    each settled by ``casino_holdem.returned`` (ante 1, call 2, no bonus)."""
    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 2:
        raise GameInputError("hands must be a whole number of at least 2, got {hands!r}", hands=hands)
    rng = random.Random(seed)
    cards = deck()
    total = total_sq = 0.0
    n_called = 0
    for _ in range(hands):
        dealt = rng.sample(cards, 9)
        player, dealer, board = tuple(dealt[:2]), tuple(dealt[2:4]), tuple(dealt[4:])
        called = calls(player, board[:3])
        staked = 3 if called else 1
        net = returned(1, 0, called, player, dealer, board if called else board[:3], settings) - staked
        n_called += called
        total += net
        total_sq += net * net
    mean = total / hands
    var = (total_sq - hands * mean * mean) / (hands - 1)
    return Estimate(-mean, math.sqrt(var / hands), hands, n_called / hands)
