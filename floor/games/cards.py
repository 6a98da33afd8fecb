"""Playing cards: parsing, printing and shoes.

A card prints rank then suit (``AS``, ``TD``, ``9H``); ``10`` is accepted on input and printed as ``T``.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

RANKS = "23456789TJQKA"
SUITS = "SHDC"
_RANK_VALUE = {r: i + 2 for i, r in enumerate(RANKS)}


class InvalidCard(ValueError):
    """A card code that is not a rank followed by a suit."""


@dataclass(frozen=True, slots=True, order=True)
class Card:
    rank: int  # 2..14, ace high
    suit: str  # one of "SHDC"

    def __post_init__(self) -> None:
        if not (2 <= self.rank <= 14) or self.suit not in SUITS or len(self.suit) != 1:
            raise InvalidCard(f"no such card: rank={self.rank!r} suit={self.suit!r}")

    @classmethod
    def parse(cls, text: str) -> "Card":
        if not isinstance(text, str):
            raise InvalidCard(f"a card is text like 'AS', not {type(text).__name__}")
        code = text.strip().upper()
        if len(code) == 3 and code.startswith("10"):
            code = "T" + code[2]
        if len(code) != 2 or code[0] not in _RANK_VALUE or code[1] not in SUITS:
            raise InvalidCard(f"not a card: {text!r} (expected rank then suit, e.g. 'AS', '10H', 'Td')")
        return cls(_RANK_VALUE[code[0]], code[1])

    @property
    def rank_char(self) -> str:
        return RANKS[self.rank - 2]

    def __str__(self) -> str:
        return self.rank_char + self.suit

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


def parse_cards(codes) -> list[Card]:
    """Parse a list of codes, or a space/comma separated string of them."""
    if isinstance(codes, str):
        codes = codes.replace(",", " ").split()
    return [c if isinstance(c, Card) else Card.parse(c) for c in codes]


def deck() -> list[Card]:
    """One 52-card deck in a fixed order."""
    return [Card(rank, suit) for suit in SUITS for rank in range(2, 15)]


def shoe(decks: int = 1, rng: random.Random | None = None) -> list[Card]:
    """A shoe of ``decks`` decks; shuffled when an ``rng`` is given, in deck order otherwise."""
    if decks < 1:
        raise ValueError("a shoe holds at least one deck")
    cards = deck() * decks
    if rng is not None:
        rng.shuffle(cards)
    return cards
