"""Casino Hold'em (the Casino Hold'em rules, docs/rules.md): the player against the dealer, plus the AA Bonus.

Hands are ranked by the hold'em code path of ``poker.hand_rank``, so the pay tables and the
qualification rest on the same proven evaluator as the poker room.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

from .base import GameInputError, cards_of, check_amount, check_count, check_distinct, check_pays
from .cards import RANKS, Card, parse_cards
from .poker import HandRank, hand_rank


@dataclass(frozen=True)
class CasinoHoldemSettings:
    """Pay tables ("x to 1") and the dealer's qualifying pair, defaults from the Casino Hold'em rules."""

    royal_flush: int = 100
    straight_flush: int = 20
    four_of_a_kind: int = 10
    full_house: int = 3
    flush: int = 2
    straight_or_less: int = 1
    aa_flush_or_better: int = 25
    aa_aces_to_straight: int = 7   # a pair of aces up to a straight
    dealer_qualifies_with: int = 4  # the lowest pair that qualifies (rank 2..14)

    def __post_init__(self) -> None:
        check_pays(self, "royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight_or_less",
                   "aa_flush_or_better", "aa_aces_to_straight")
        rank = self.dealer_qualifies_with
        if isinstance(rank, bool) or not isinstance(rank, int) or not 2 <= rank <= 14:
            raise GameInputError("{setting} must be a card rank from 2 to 14 (the ace), not {value}",
                                 setting="CasinoHoldemSettings.dealer_qualifies_with", value=rank)


DEFAULT = CasinoHoldemSettings()


@lru_cache(maxsize=None)
def _lowest_pair(rank: int) -> HandRank:
    """The weakest five-card hand holding a pair of ``rank``: the pair and the three lowest other ranks."""
    kickers = [r for r in range(2, 15) if r != rank][:3]
    pair = parse_cards(f"{RANKS[rank - 2]}S {RANKS[rank - 2]}H")
    return hand_rank("holdem", pair, [Card(r, s) for r, s in zip(kickers, "DCS")])


@lru_cache(maxsize=None)
def _royal() -> HandRank:
    return hand_rank("holdem", parse_cards("AS KS"), parse_cards("QS JS TS"))


def _hand(player, what: str) -> tuple[Card, ...]:
    cards = cards_of(player, what)
    check_count(cards, (2,), what)
    return cards


def dealer_qualifies(dealer, board, settings: CasinoHoldemSettings) -> bool:
    """The dealer plays on with a pair of 4s or better (his two cards and the five on the board)."""
    dealer, board = _hand(dealer, "dealer's cards"), cards_of(board, "board")
    check_count(board, (5,), "board")
    check_distinct(dealer + board, "casino hold'em")
    return hand_rank("holdem", dealer, board) >= _lowest_pair(settings.dealer_qualifies_with)


def ante_pays(player, board, settings: CasinoHoldemSettings) -> int:
    """Odds the ante pays ("x to 1") for the player's best five of seven."""
    rank = hand_rank("holdem", _hand(player, "player's cards"), cards_of(board, "board"))
    if rank == _royal():
        return settings.royal_flush
    return {"straight_flush": settings.straight_flush, "four_of_a_kind": settings.four_of_a_kind,
            "full_house": settings.full_house, "flush": settings.flush}.get(rank.category,
                                                                           settings.straight_or_less)


def aa_bonus_pays(player, flop, settings: CasinoHoldemSettings) -> Optional[int]:
    """Odds of the AA Bonus on the player's two cards and the flop; None when it loses."""
    flop = cards_of(flop, "flop")
    check_count(flop, (3,), "flop")
    rank = hand_rank("holdem", _hand(player, "player's cards"), flop)
    if rank.category in ("flush", "full_house", "four_of_a_kind", "straight_flush"):
        return settings.aa_flush_or_better
    if rank >= _lowest_pair(14):
        return settings.aa_aces_to_straight
    return None


def returned(ante: int, aa_bonus: int, called: bool, player, dealer, board,
             settings: CasinoHoldemSettings) -> int:
    """Total handed back on the ante, the call (2 x ante, when ``called``) and the AA Bonus.

    A fold loses the ante and the AA Bonus; ``board`` may then be the flop alone."""
    check_amount(ante, "ante")
    check_amount(aa_bonus, "AA bonus")
    if ante == 0:
        raise GameInputError("casino hold'em: the ante is the bet that buys the hand")
    player, dealer = _hand(player, "player's cards"), _hand(dealer, "dealer's cards")
    board = cards_of(board, "board")
    check_count(board, (5,) if called else (3, 5), "board")
    check_distinct(player + dealer + board, "casino hold'em")
    if not called:
        return 0
    bonus_odds = aa_bonus_pays(player, board[:3], settings) if aa_bonus else None
    bonus = aa_bonus * (1 + bonus_odds) if bonus_odds is not None else 0
    call = 2 * ante
    ante_won = ante * (1 + ante_pays(player, board, settings))
    if not dealer_qualifies(dealer, board, settings):
        return ante_won + call + bonus  # ante paid by the table, call pushes
    mine, theirs = hand_rank("holdem", player, board), hand_rank("holdem", dealer, board)
    if mine > theirs:
        return ante_won + 2 * call + bonus
    if mine == theirs:
        return ante + call + bonus
    return bonus
