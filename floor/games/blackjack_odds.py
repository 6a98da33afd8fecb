"""The basic-strategy house edge of blackjack, computed from the rules of ``blackjack``.

Infinite deck, exactly
----------------------
With an infinite shoe every card is drawn with the same odds whatever came before (each of ace..9
1/13, a ten-valued card 4/13), so the best play depends only on the hand's total, whether it is soft,
and the dealer's up card: the optimal strategy *is* the basic strategy, and its expectation is a
finite sum computed here in exact fractions (well under a second, cached per settings):

- the dealer's final totals per up card, drawing by ``dealer_must_draw`` (so soft 17 follows
  ``dealer_hits_soft_17``), a two-card 21 being a blackjack (``is_blackjack``);
- for every hand the better of standing and hitting (no draw on 21), on the first two cards also
  doubling (one card, twice the stake) and, on a pair, splitting once (no re-split), each split
  hand doubling only where ``double_after_split`` and split aces taking one card each where
  ``split_aces_one_card`` (their 21 is no blackjack);
- a player blackjack paid ``blackjack_pays`` and pushed by a dealer blackjack; insurance is never
  taken (it is its own bet: ``insurance_edge``); no surrender (the house offers none).

The dealer looks for a blackjack under an ace before play, so with an ace up the player loses one
bet to a blackjack and plays knowing there is none. Under a ten the blackjack shows after play:
with ``late_blackjack_takes="original_bet"`` the player still loses only the bet he placed before
the deal, which is worth exactly a peek (the published equivalence of "original bets only"), except
in the rare round where both split hands bust before the dealer turns a blackjack (counted here as
one bet lost; it costs the player two: about 0.002 % of the edge). With ``"all_bets"`` the late
blackjack also takes doubles and splits, and the player, not knowing, must play against a dealer
who may hold one: computed exactly as such.

The edge is the expected loss per initial bet (what a rating multiplies the average bet by).

Number of decks
---------------
A finite shoe is better for the player than an infinite one (a blackjack is likelier when the
player's first card does not deplete its partner). The exact finite-deck computation is far larger,
so the deck count enters as the published effect: the player's expectation falls from one deck to
two, four, six and eight decks by 0.35, 0.48, 0.54 and 0.58 percentage points (the number-of-decks
table in Schlesinger's *Blackjack Attack*, the figures every rule-variation chart repeats). Those
four points follow E(N) = E(inf) + K/N within 0.025 point for K = 0.657 %, the least-squares fit
computed below from that table (Griffin, *The Theory of Blackjack*, notes the expectation is close
to linear in 1/N). So the edge for N decks is the exact infinite-deck edge less K/N.

Published checks (tests/floor/games/test_blackjack_odds.py): Griffin's infinite-deck expectation
for his reference rules (stand soft 17, double any two, no double after split, one split, one card
to split aces, 3:2) is -0.6902 %; dealer hits soft 17 costs the player about 0.20 point, 6:5 on
blackjack about 1.36-1.39, double after split is worth about 0.13-0.14 and hitting split aces
about 0.17-0.19.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from .base import GameInputError
from .blackjack import BlackjackSettings, dealer_must_draw, hand_value, is_blackjack
from .cards import Card

_REP = {1: Card(14, "S"), 10: Card(10, "S"), **{v: Card(v, "S") for v in range(2, 10)}}
_P = {v: Fraction(4 if v == 10 else 1, 13) for v in range(1, 11)}
MAX_DECKS = 12

# Player's expectation, in percentage points, against one deck (same rules): the published
# number-of-decks effect.
PUBLISHED_DECK_EFFECT = {1: Fraction(0), 2: Fraction("-0.35"), 4: Fraction("-0.48"),
                         6: Fraction("-0.54"), 8: Fraction("-0.58")}


def _deck_constant() -> Fraction:
    """K of E(N) = E(inf) + K/N, least squares through the published one-deck-relative effects:
    E(N) - E(1) = -K (1 - 1/N)."""
    xs = [(1 - Fraction(1, n), -e) for n, e in PUBLISHED_DECK_EFFECT.items() if n > 1]
    return sum(x * y for x, y in xs) / sum(x * x for x, _ in xs) / 100


DECK_CONSTANT = _deck_constant()


class _Game:
    """The expectations of one rule set against one dealer distribution."""

    def __init__(self, settings: BlackjackSettings, dealer: dict):
        self.s = settings
        self.dealer = dealer  # final dealer total (17..21), "bust" or "bj" -> probability
        self._best: dict = {}

    def stand(self, total: int) -> Fraction:
        if total > 21:
            return Fraction(-1)
        ev = Fraction(0)
        for d, p in self.dealer.items():
            if d == "bust":
                ev += p
            elif d == "bj":
                ev -= p
            elif total > d:
                ev += p
            elif total < d:
                ev -= p
        return ev

    def draws(self, cards: tuple[Card, ...]):
        for v, p in _P.items():
            yield p, cards + (_REP[v],)

    def best(self, cards: tuple[Card, ...]) -> Fraction:
        """Stand or hit, whichever is worth more, from a hand that can no longer double or split."""
        key = hand_value(cards)
        if key not in self._best:
            total = key[0]
            if total > 21:
                value = Fraction(-1)
            elif total == 21:  # no draw on 21
                value = self.stand(21)
            else:
                hit = sum(p * self.best(c) for p, c in self.draws(cards))
                value = max(self.stand(total), hit)
            self._best[key] = value
        return self._best[key]

    def double(self, cards: tuple[Card, ...]) -> Fraction:
        return 2 * sum(p * self.stand(hand_value(c)[0]) for p, c in self.draws(cards))

    def split_hand(self, card: Card) -> Fraction:
        """One hand of a split pair: the pair card and whatever comes next."""
        ev = Fraction(0)
        for p, cards in self.draws((card,)):
            if card.rank == 14 and self.s.split_aces_one_card:
                ev += p * self.stand(hand_value(cards)[0])
                continue
            options = [self.best(cards)]
            if self.s.double_after_split:
                options.append(self.double(cards))
            ev += p * max(options)
        return ev

    def hand(self, a: Card, b: Card) -> Fraction:
        """Expectation of a first hand of two cards (not a blackjack)."""
        cards = (a, b)
        options = [self.best(cards), self.double(cards)]
        if hand_value((a,))[0] == hand_value((b,))[0]:
            options.append(2 * self.split_hand(a))
        return max(options)


def _dealer(up: int, settings: BlackjackSettings, peeked: bool) -> tuple[Fraction, dict]:
    """(P(blackjack), distribution of the dealer's result) for an up card; with ``peeked`` the
    distribution is the one given no blackjack."""
    memo: dict = {}

    def final(cards: tuple[Card, ...]) -> dict:
        key = hand_value(cards)
        if key not in memo:
            if dealer_must_draw(cards, settings):
                out: dict = {}
                for v, p in _P.items():
                    for d, q in final(cards + (_REP[v],)).items():
                        out[d] = out.get(d, 0) + p * q
            else:
                out = {"bust" if key[0] > 21 else key[0]: Fraction(1)}
            memo[key] = out
        return memo[key]

    bj = Fraction(0)
    dist: dict = {}
    for v, p in _P.items():
        cards = (_REP[up], _REP[v])
        if is_blackjack(cards):
            bj += p
            continue
        for d, q in final(cards).items():
            dist[d] = dist.get(d, 0) + p * q
    if peeked:
        return bj, {d: q / (1 - bj) for d, q in dist.items()}
    dist["bj"] = bj
    return bj, dist


@lru_cache(maxsize=64)
def infinite_deck_expectation(settings: BlackjackSettings) -> Fraction:
    """The player's exact expectation per initial bet with optimal (= basic) strategy, infinite deck."""
    if not isinstance(settings, BlackjackSettings):
        raise GameInputError("blackjack needs BlackjackSettings, got {__name__}", __name__=type(settings).__name__)
    total = Fraction(0)
    for up, p_up in _P.items():
        # an ace is always peeked; a ten is as good as peeked unless a late blackjack takes all bets
        peeked = up == 1 or settings.late_blackjack_takes == "original_bet"
        bj, dealer = _dealer(up, settings, peeked)
        game = _Game(settings, dealer)
        ev_up = Fraction(0)
        for a, pa in _P.items():
            for b, pb in _P.items():
                cards = (_REP[a], _REP[b])
                if is_blackjack(cards):
                    ev = (1 - bj) * settings.blackjack_pays  # a dealer blackjack pushes it
                elif peeked:
                    ev = -bj + (1 - bj) * game.hand(*cards)
                else:
                    ev = game.hand(*cards)
                ev_up += pa * pb * ev
        total += p_up * ev_up
    return total


def _check_decks(decks) -> int:
    if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= MAX_DECKS:
        raise GameInputError("a blackjack shoe holds 1 to {MAX_DECKS} decks, got {decks!r}", MAX_DECKS=MAX_DECKS, decks=decks)
    return decks


def blackjack_edge(settings: BlackjackSettings, decks: int) -> Fraction:
    """House edge of the main bet for a basic-strategy player: the exact infinite-deck edge under
    ``settings`` less the published number-of-decks effect, K/N (see the module's docstring)."""
    return -infinite_deck_expectation(settings) - DECK_CONSTANT / _check_decks(decks)


def insurance_edge(settings: BlackjackSettings, decks: int) -> Fraction:
    """Edge of insurance, exact for a fresh shoe: the dealer shows an ace (out of the shoe), the bet
    wins ``insurance_pays`` to 1 when the hole card is one of the 16 ten-valued cards per deck."""
    n = _check_decks(decks)
    p_ten = Fraction(16 * n, 52 * n - 1)
    return 1 - p_ten * (1 + settings.insurance_pays)
