"""A provably fair random stream: a recorded seed and a label in, the same numbers out forever.

Every random choice of a tournament (the seat draw, the button cards, who moves when tables are
balanced or broken, a mystery bounty envelope, a tie on equal chips) is taken from this stream. The
floor records the seed (e.g. 32 bytes from ``secrets.token_bytes``) before the draw and shows it
afterwards; anyone can then redo the draw by hand or with the short script in
``docs/tournament-rules.md``:

* number ``i`` of the stream (i = 0, 1, 2...) is the first 8 bytes, read big-endian, of
  ``HMAC-SHA256(key=seed, message=f"{label}:{i}")`` (the label and ``i`` as UTF-8 text);
* a number below ``n`` takes the next stream number ``u``, skips it while ``u >= 2**64 - 2**64 % n``
  (so that every result is exactly equally likely) and answers ``u % n``;
* a shuffle is Fisher–Yates from the end: for ``i`` from ``len - 1`` down to 1, swap item ``i`` with
  item ``below(i + 1)``.

The label keeps draws apart: the seat draw and the balancing after bust number 17 use different
labels, so one can be checked without the other.
"""
from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Sequence, TypeVar

from ..base import GameInputError
from ..cards import Card

T = TypeVar("T")

ALGORITHM = "hmac-sha256-counter/fisher-yates/v1"
MIN_SEED_BYTES = 16
_SPAN = 1 << 64
# Card strength for drawing the button: rank first, then suit spades > hearts > diamonds > clubs.
SUIT_ORDER = "CDHS"  # weakest first


def seed_bytes(seed) -> bytes:
    """A seed given as bytes or as a hex string (what the floor records and prints)."""
    if isinstance(seed, str):
        try:
            seed = bytes.fromhex(seed.strip())
        except ValueError as e:
            raise GameInputError("the seed is not a hex string: {problem}", field="seed", problem=str(e)) from e
    if not isinstance(seed, (bytes, bytearray)):
        raise GameInputError("the seed must be bytes or a hex string, got {given}", field="seed",
                             given=type(seed).__name__)
    if len(seed) < MIN_SEED_BYTES:
        raise GameInputError("the seed must be at least {least} bytes, got {n}", field="seed",
                             least=MIN_SEED_BYTES, n=len(seed))
    return bytes(seed)


@dataclass(frozen=True)
class Draw:
    """What a random choice is made from: the recorded seed and the label of this draw."""

    seed: bytes
    label: str

    def __init__(self, seed, label: str):
        if not isinstance(label, str) or not label:
            raise GameInputError("a draw label is non-empty text, got {given}", field="label", given=repr(label))
        object.__setattr__(self, "seed", seed_bytes(seed))
        object.__setattr__(self, "label", label)

    def stream(self) -> "DrawStream":
        return DrawStream(self)

    @property
    def seed_hex(self) -> str:
        return self.seed.hex()


@dataclass
class DrawStream:
    """The numbers of one draw, consumed in order. ``used`` counts the stream numbers taken."""

    draw: Draw
    used: int = field(default=0)

    def number(self) -> int:
        # the counter follows the last colon, so (label, i) -> message is one-to-one
        message = f"{self.draw.label}:{self.used}".encode("utf-8")
        self.used += 1
        return int.from_bytes(hmac.new(self.draw.seed, message, hashlib.sha256).digest()[:8], "big")

    def below(self, n: int) -> int:
        """A whole number in 0..n-1, every value equally likely."""
        if n <= 0:
            raise GameInputError("cannot draw below {n}", n=n)
        limit = _SPAN - _SPAN % n
        while True:
            u = self.number()
            if u < limit:
                return u % n

    def pick(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """Fisher–Yates from the end; the input is not changed."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def card_strength(card: Card) -> int:
    """0 (2♣) .. 51 (A♠): rank first, then suit ♠ > ♥ > ♦ > ♣."""
    return (card.rank - 2) * 4 + SUIT_ORDER.index(card.suit)


def draw_deck() -> list[Card]:
    """The 52 cards in the order the stream shuffles them: weakest (2♣) first, A♠ last."""
    return [Card(rank, suit) for rank in range(2, 15) for suit in SUIT_ORDER]


def as_draw(draw) -> Draw:
    if not isinstance(draw, Draw):
        raise GameInputError("expected a Draw (seed and label), got {given}", field="draw",
                             given=type(draw).__name__)
    return draw
