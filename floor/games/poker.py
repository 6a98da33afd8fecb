"""Poker hand ranking and showdown (docs/rules.md, "Showdown and pots").

Hold'em and Omaha high go through phevaluator (native, 7462 equivalence classes, proven here by the
full 5-card enumeration and by differential tests against pokerkit). Six Plus and the 8-or-better
low have no maintained evaluator with our rules, so they are written below in plain Python.

``hand_rank`` returns a ``HandRank``: greater wins, equal ranks split, ``.category`` names the hand.
Ranks compare only within one variant.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Iterable, Optional, Sequence, Union

from phevaluator import _pheval

from .base import ROUNDINGS, GameInputError, Rounding, cards_of, check_amount, check_choice, check_fraction, round_cents
from .cards import Card

VARIANTS = ("holdem", "omaha", "omaha_hilo", "sixplus")
CATEGORIES = ("straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
              "three_of_a_kind", "two_pair", "pair", "high_card")  # standard order, best first
# Six Plus: trips beat a straight, a flush beats a full house.
SIXPLUS_ORDER = ("high_card", "pair", "two_pair", "straight", "three_of_a_kind", "full_house",
                 "flush", "four_of_a_kind", "straight_flush")  # weakest first
STANDARD_ORDER = tuple(reversed(CATEGORIES))

_HOLE_COUNT = {"holdem": 2, "sixplus": 2, "omaha": 4, "omaha_hilo": 4}
_SUIT_ID = {"C": 0, "D": 1, "H": 2, "S": 3}  # phevaluator's card id: rank index * 4 + suit
# phevaluator ranks 1 (royal flush) .. 7462 (7-5-4-3-2); the last rank of each category, best first.
_PHE_CATEGORY_ENDS = (10, 166, 322, 1599, 1609, 2467, 3325, 6185, 7462)


class HandRank:
    """A comparable hand strength: greater wins. ``value`` is an int, so ranks sort and hash cheaply."""

    __slots__ = ("value", "_order")

    def __init__(self, value: int, order: Optional[tuple[str, ...]] = None):
        self.value = value
        self._order = order  # None: a phevaluator rank (7463 - phe); else strength << 20 | kickers

    @property
    def category(self) -> str:
        if self._order is not None:
            return self._order[self.value >> 20]
        phe = 7463 - self.value
        for name, end in zip(CATEGORIES, _PHE_CATEGORY_ENDS):
            if phe <= end:
                return name
        raise AssertionError(f"phevaluator rank out of range: {phe}")

    def _same_kind(self, other: "HandRank") -> None:
        if self._order is not other._order:
            raise TypeError("hand ranks of different variants do not compare")

    def __eq__(self, other):
        if not isinstance(other, HandRank):
            return NotImplemented
        return self._order is other._order and self.value == other.value

    def __hash__(self):
        return hash(self.value)

    def __lt__(self, other):
        if not isinstance(other, HandRank):
            return NotImplemented
        self._same_kind(other)
        return self.value < other.value

    def __le__(self, other):
        if not isinstance(other, HandRank):
            return NotImplemented
        self._same_kind(other)
        return self.value <= other.value

    def __gt__(self, other):
        if not isinstance(other, HandRank):
            return NotImplemented
        self._same_kind(other)
        return self.value > other.value

    def __ge__(self, other):
        if not isinstance(other, HandRank):
            return NotImplemented
        self._same_kind(other)
        return self.value >= other.value

    def __repr__(self) -> str:
        return f"HandRank({self.category}, {self.value})"


# --- input -------------------------------------------------------------------------------------

def _cards(cards, what: str) -> tuple[Card, ...]:
    if isinstance(cards, tuple) and all(type(c) is Card for c in cards):
        return cards
    return cards_of(cards, what)


def _ids(cards: Iterable[Card]) -> list[int]:
    return [(c.rank - 2) * 4 + _SUIT_ID[c.suit] for c in cards]


def _check_hand(variant: str, hole: tuple[Card, ...], board: tuple[Card, ...], ids: list[int]) -> None:
    if variant not in _HOLE_COUNT:
        raise GameInputError("no poker variant {variant!r} (one of {variants})", variant=variant, variants=', '.join(VARIANTS))
    if len(hole) != _HOLE_COUNT[variant]:
        raise GameInputError("{variant}: {count} hole cards given, {expected} expected", variant=variant, count=len(hole), expected=_HOLE_COUNT[variant])
    if not 3 <= len(board) <= 5:
        raise GameInputError("{variant}: {count} board cards given, 3 to 5 expected", variant=variant, count=len(board))
    if len(set(ids)) != len(ids):
        seen: set[int] = set()
        for c, i in zip(hole + board, ids):
            if i in seen:
                raise GameInputError("{variant}: card {card} appears twice", variant=variant, card=c)
            seen.add(i)
    if variant == "sixplus" and any(c.rank < 6 for c in hole + board):
        raise GameInputError("sixplus: the 36-card deck has no 2, 3, 4 or 5")


# --- high hands ----------------------------------------------------------------------------------

def hand_rank(variant: str, hole, board) -> HandRank:
    """Best high hand: hold'em and Six Plus any five of hole + board, Omaha exactly two hole cards
    and three from the board. The board may hold 3 to 5 cards (flop, turn, river)."""
    hole = _cards(hole, "hole cards")
    board = _cards(board, "board")
    ids = _ids(hole + board)
    _check_hand(variant, hole, board, ids)
    if variant == "holdem":
        n = len(ids)
        phe = (_pheval.evaluate_7cards if n == 7 else _pheval.evaluate_6cards if n == 6
               else _pheval.evaluate_5cards)(*ids)
        return HandRank(7463 - phe)
    if variant == "sixplus":
        return HandRank(max(_five_key(five, SIXPLUS_ORDER) for five in combinations(hole + board, 5)),
                        SIXPLUS_ORDER)
    hole_ids, board_ids = ids[:4], ids[4:]
    if len(board_ids) == 5:
        phe = _pheval.evaluate_omaha_cards(*board_ids, *hole_ids)
    else:
        phe = min(_pheval.evaluate_5cards(*h, *b)
                  for h in combinations(hole_ids, 2) for b in combinations(board_ids, 3))
    return HandRank(7463 - phe)


def _five_key(cards: Sequence[Card], order: tuple[str, ...]) -> int:
    """Strength of exactly five cards: category strength << 20, then the deciding ranks, 4 bits each.

    The ace plays low in the lowest straight: A-2-3-4-5, or A-6-7-8-9 in Six Plus (no 2-5 in its deck).
    """
    ranks = sorted((c.rank for c in cards), reverse=True)
    flush = len({c.suit for c in cards}) == 1
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = tuple(n for _, n in groups)
    top = None
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            top = ranks[0]
        elif ranks[0] == 14 and ranks[1:] == ([9, 8, 7, 6] if order is SIXPLUS_ORDER else [5, 4, 3, 2]):
            top = ranks[1]
    if top is not None:
        name, kickers = ("straight_flush" if flush else "straight"), [top]
    else:
        kickers = [r for r, _ in groups]
        name = {(4, 1): "four_of_a_kind", (3, 2): "full_house", (3, 1, 1): "three_of_a_kind",
                (2, 2, 1): "two_pair", (2, 1, 1, 1): "pair"}.get(shape, "flush" if flush else "high_card")
        if name == "high_card" and flush:
            name = "flush"
    key = order.index(name)
    for i in range(5):
        key = (key << 4) | (kickers[i] if i < len(kickers) else 0)
    return key


def five_card_rank(cards, variant: str = "holdem") -> HandRank:
    """Strength of exactly five cards under the variant's order (the Six Plus code path)."""
    cards = _cards(cards, "five cards")
    if len(cards) != 5:
        raise GameInputError("{count} cards given, 5 expected", count=len(cards))
    return HandRank(_five_key(cards, SIXPLUS_ORDER if variant == "sixplus" else STANDARD_ORDER),
                    SIXPLUS_ORDER if variant == "sixplus" else STANDARD_ORDER)


# --- 8-or-better low ---------------------------------------------------------------------------

def _low(rank: int) -> int:
    return 1 if rank == 14 else rank


def low_rank(hole, board) -> Optional[tuple[int, ...]]:
    """Omaha 8-or-better low: exactly two hole cards and three board cards, five distinct ranks all
    8 or under, ace low; straights and flushes ignored. Returns the five ranks highest first (ace = 1):
    the smaller tuple wins. None when no qualifying low can be made."""
    hole = _cards(hole, "hole cards")
    board = _cards(board, "board")
    _check_hand("omaha_hilo", hole, board, _ids(hole + board))
    board_lows = sorted({_low(c.rank) for c in board if _low(c.rank) <= 8})
    best = None
    for a, b in combinations(hole, 2):
        pair = {_low(a.rank), _low(b.rank)}
        if len(pair) != 2 or max(pair) > 8:
            continue
        rest = [r for r in board_lows if r not in pair][:3]  # the three smallest are the best
        if len(rest) < 3:
            continue
        low = tuple(sorted(pair | set(rest), reverse=True))
        if best is None or low < best:
            best = low
    return best


# --- showdown ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class RakeSettings:
    """Rake as a share of the pot, with an optional cap, rounded to the chip (default down)."""

    percent: Fraction = Fraction(0)
    cap: Optional[int] = None
    rounding: Rounding = "down"

    def __post_init__(self) -> None:
        check_fraction(self, "percent", share=True)
        if self.cap is not None:
            check_amount(self.cap, "RakeSettings.cap")
        check_choice(self, "rounding", ROUNDINGS)

    def amount(self, pot: int) -> int:
        rake = round_cents(Fraction(pot) * Fraction(self.percent), self.rounding)
        return rake if self.cap is None else min(rake, self.cap)


@dataclass(frozen=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]  # seats (indices from left of the button) that can win it
    rakeable: bool  # False for an uncalled bet handed back to the one player who made it


def pots(contributions: Sequence[int], folded: Iterable[int] = ()) -> list[Pot]:
    """Main pot then side pots: each level is what the next all-in player could match from everyone.
    Folded players' chips are dead money in the pots they reached."""
    folded = set(folded)
    live = [i for i in range(len(contributions)) if i not in folded]
    if not live:
        raise GameInputError("showdown: every player folded")
    top_live = max(contributions[i] for i in live)
    if any(c > top_live for c in contributions):
        # whoever put in the most chips was never facing a bigger bet, so he cannot have folded
        raise GameInputError(
            "showdown: a folded player put in more ({most}) than any live player ({top_live})", most=max(contributions), top_live=top_live)
    levels = sorted({contributions[i] for i in live if contributions[i] > 0})
    result: list[Pot] = []
    prev = 0
    for level in levels:
        parts = [min(c, level) - min(c, prev) for c in contributions]
        eligible = tuple(i for i in live if contributions[i] >= level)
        payers = [i for i, p in enumerate(parts) if p > 0]
        result.append(Pot(sum(parts), eligible, not (len(payers) == 1 and payers == list(eligible))))
        prev = level
    if not result:  # nobody live put a chip in: nothing to win
        result.append(Pot(0, tuple(live), False))
    return result


def _split(amount: int, winners: Sequence[int], won: dict[int, int]) -> None:
    """Equal shares; odd chips one each to the winners nearest the button's left."""
    share, odd = divmod(amount, len(winners))
    for n, seat in enumerate(sorted(winners)):
        won[seat] += share + (1 if n < odd else 0)


def _boards(board) -> list[tuple[Card, ...]]:
    """One board, or several (run it twice) given as a list of boards."""
    if isinstance(board, (list, tuple)) and board and not isinstance(board[0], Card) and not (
            isinstance(board[0], str) and len(board[0].split()) == 1 and len(board[0].split(",")) == 1):
        return [_cards(b, f"board {n + 1}") for n, b in enumerate(board)]
    return [_cards(board, "board")]


def showdown(variant: str, board, holes: Sequence, contributions: Sequence[int],
             folded: Iterable[int] = (), rake: Union[int, RakeSettings] = 0) -> dict[int, int]:
    """Pay every pot of a hand. Seats are indices into ``holes``/``contributions``, in seat order
    starting left of the button. ``board`` is one board, or a list of boards when the hand is run
    more than once (each pot is divided between the runs, odd chip to the first run).
    ``rake`` is a chip amount or a ``RakeSettings``; it comes out of the main pot first, then the
    side pots, and never out of an uncalled bet. Returns {seat: chips won} for every seat."""
    if variant not in VARIANTS:
        raise GameInputError("no poker variant {variant!r} (one of {variants})", variant=variant, variants=', '.join(VARIANTS))
    if len(holes) != len(contributions):
        raise GameInputError("showdown: {hands} hands but {contributions} contributions", hands=len(holes), contributions=len(contributions))
    for i, c in enumerate(contributions):
        check_amount(c, f"seat {i} contribution")
    folded = set(folded)
    if any(not isinstance(f, int) or not 0 <= f < len(holes) for f in folded):
        raise GameInputError("showdown: folded seats {folded} outside 0..{last}", folded=sorted(folded, key=str), last=len(holes) - 1)
    pot_list = pots(contributions, folded)
    boards = _boards(board)
    live = [i for i in range(len(holes)) if i not in folded]
    contested = any(len(p.eligible) > 1 and p.amount for p in pot_list)
    live_holes: dict[int, tuple[Card, ...]] = {}
    if contested:
        for i in live:
            live_holes[i] = _cards(holes[i], f"seat {i} hole cards")
        for n, b in enumerate(boards):
            if len(b) != 5:
                raise GameInputError("showdown: board {board} has {count} cards, 5 expected", board=n + 1, count=len(b))
            for i, h in live_holes.items():
                _check_hand(variant, h, b, _ids(h + b))
            everyone = [c for h in live_holes.values() for c in h] + list(b)
            if len(set(everyone)) != len(everyone):
                dup = next(c for c in everyone if everyone.count(c) > 1)
                raise GameInputError("showdown: card {dup} is dealt twice", dup=dup)
        # run more than once: the boards share their first cards, the rest come from one deck
        shared = 0
        while shared < 5 and all(b[shared] == boards[0][shared] for b in boards):
            shared += 1
        dealt = [c for b in boards for c in b[shared:]] + list(boards[0][:shared])
        if len(set(dealt)) != len(dealt):
            dup = next(c for c in dealt if dealt.count(c) > 1)
            raise GameInputError("showdown: card {dup} comes out on two runs", dup=dup)

    # rake from the main pot first
    rakeable = sum(p.amount for p in pot_list if p.rakeable)
    if isinstance(rake, RakeSettings):
        rake = rake.amount(rakeable)
    check_amount(rake, "rake")
    if rake > rakeable:
        raise GameInputError("rake {rake} is more than the pot ({rakeable})", rake=rake, rakeable=rakeable)
    to_take, net = rake, []
    for p in pot_list:
        take = min(to_take, p.amount) if p.rakeable else 0
        to_take -= take
        net.append(Pot(p.amount - take, p.eligible, p.rakeable))

    won = {i: 0 for i in range(len(holes))}
    cache: dict = {}

    def high(seat, b_index):
        key = ("h", seat, b_index)
        if key not in cache:
            cache[key] = hand_rank(variant, live_holes[seat], boards[b_index])
        return cache[key]

    def low(seat, b_index):
        key = ("l", seat, b_index)
        if key not in cache:
            cache[key] = low_rank(live_holes[seat], boards[b_index])
        return cache[key]

    for p in net:
        if not p.amount:
            continue
        if len(p.eligible) == 1:
            won[p.eligible[0]] += p.amount
            continue
        runs = len(boards)
        base, odd = divmod(p.amount, runs)
        for r in range(runs):
            amount = base + (1 if r < odd else 0)
            best = max(high(s, r) for s in p.eligible)
            high_winners = [s for s in p.eligible if high(s, r) == best]
            if variant == "omaha_hilo":
                lows = {s: low(s, r) for s in p.eligible if low(s, r) is not None}
                if lows:
                    best_low = min(lows.values())
                    low_half = amount // 2  # odd chip goes to the high half
                    _split(amount - low_half, high_winners, won)
                    _split(low_half, [s for s, l in lows.items() if l == best_low], won)
                    continue
            _split(amount, high_winners, won)
    return won
