"""Serial barcode card scanner, docs/protocols.md: decoder and encoder.

One ASCII line per card: ``[prefix] <suit><rank> [suffix] \\r\\n`` with the payload matching
``^[SHDC](10|[2-9TJQKA])$``. A card read again within the duplicate window (300 ms by default)
is one read. Time comes from the caller (``feed(data, now)``) or an injected clock, so the
decoder stays pure and testable.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Callable

from devices.events import FrameError, Refused, frame_error
from devices.framing import LineDecoder, LineFramer
from floor.errors import Msg
from floor.games.cards import Card

__all__ = ["CardRead", "CardInNoise", "FrameError", "PlayerCardRead", "ScannerDecoder", "encode_card", "encode_player_card"]

_PAYLOAD = re.compile(rb"[SHDC](10|[2-9TJQKA])")
_TAIL = re.compile(rb"[SHDC](?:10|[2-9TJQKA])\Z")
# A player card's barcode: "P" then the card number (letters and digits), so it can never be
# taken for a playing card (those start with a suit letter).
_PLAYER = re.compile(rb"P([A-Za-z0-9]{1,38})")
MAX_LINE = 40
DUPLICATE_WINDOW_S = 0.3


@dataclass(frozen=True, slots=True)
class CardRead:
    card: Card


@dataclass(frozen=True, slots=True)
class PlayerCardRead:
    card_number: str


@dataclass(frozen=True, slots=True)
class CardInNoise(Refused):
    """A refused line that ends like a card: line noise with no line end ran into a card's read.
    The card is not taken (noise can end like a card too), and the floor must hear of it: a card
    the dealer dealt may be missing from the deal."""


class ScannerDecoder(LineDecoder):
    """Incremental line decoder; ``feed`` never raises."""

    kind = "scanner"
    timed = True   # feed(data, now): the double-read window counts from the arrival time

    @classmethod
    def from_config(cls, config) -> "ScannerDecoder":
        return cls(config.prefix, config.suffix, duplicate_window_s=config.duplicate_window_s)

    def __init__(self, prefix: bytes = b"", suffix: bytes = b"", *,
                 duplicate_window_s: float = DUPLICATE_WINDOW_S,
                 clock: Callable[[], float] = time.monotonic, max_line: int = MAX_LINE) -> None:
        self.prefix, self.suffix = bytes(prefix), bytes(suffix)
        self.window = duplicate_window_s
        self.clock = clock
        self.framer = LineFramer(max_line + len(self.prefix) + len(self.suffix), allowed=self.prefix + self.suffix)
        self._last: tuple[Card, float] | None = None  # last card seen and when (reads and repeats)
        self.frames = 0
        self.duplicates = 0
        self.errors = 0

    def _line(self, line: bytes, events: list, now: float | None) -> None:
        if not line.strip():
            return
        raw = line
        payload = line
        if self.prefix and payload.startswith(self.prefix):
            payload = payload[len(self.prefix):]
        elif self.prefix:
            payload = None
        if payload is not None and self.suffix:
            payload = payload[: -len(self.suffix)] if payload.endswith(self.suffix) else None
        player = _PLAYER.fullmatch(payload) if payload is not None else None
        if payload is None or not (player or _PAYLOAD.fullmatch(payload)):
            lost = self._card_at_end(raw)
            if lost is not None:
                events.append(CardInNoise(Msg("card {card} after line noise: not read", card=lost), bytes(raw[-64:])))
            else:
                events.append(frame_error("not a card", raw))
            self.errors += 1
            return
        if player:
            card = PlayerCardRead(player.group(1).decode("ascii"))
        else:
            text = payload.decode("ascii")
            card = Card.parse(text[1:] + text[0])  # wire is suit then rank; Card.parse wants rank then suit
        at = self.clock() if now is None else now
        last = self._last
        self._last = (card, at)  # sliding: a card held over the reader stays one read
        if last is not None and last[0] == card and 0 <= at - last[1] < self.window:
            self.duplicates += 1
            return
        self.frames += 1
        events.append(card if isinstance(card, PlayerCardRead) else CardRead(card))


    def _card_at_end(self, line: bytes) -> str | None:
        """The card (rank then suit) a refused line ends with, after bytes that are not part of it."""
        if self.suffix:
            if not line.endswith(self.suffix):
                return None
            line = line[: -len(self.suffix)]
        if self.prefix:
            start = line.rfind(self.prefix)
            if start < 0:
                return None
            line, tail = line[:start], line[start + len(self.prefix):]
            m = _PAYLOAD.fullmatch(tail)
        else:
            m = _TAIL.search(line)
            tail = m.group(0) if m else b""
        if m is None:
            return None
        text = tail.decode("ascii")
        return str(Card.parse(text[1:] + text[0]))


def encode_card(card: Card | str, prefix: bytes = b"", suffix: bytes = b"") -> bytes:
    card = Card.parse(card) if isinstance(card, str) else card
    rank = "10" if card.rank == 10 else card.rank_char
    return prefix + (card.suit + rank).encode("ascii") + suffix + b"\r\n"


def encode_player_card(card_number: str, prefix: bytes = b"", suffix: bytes = b"") -> bytes:
    return prefix + b"P" + card_number.encode("ascii") + suffix + b"\r\n"
