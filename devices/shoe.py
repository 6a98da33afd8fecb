"""Baccarat smart shoe (Angel Eye II-EX style), docs/protocols.md: decoder and encoders.

Shoe -> host frame: ``ENQ SEQ TYPE DATA… ETX H L`` where ``H L`` is the XOR of SEQ..ETX (or
ENQ..ETX on some firmware) as two hex digits, and every data byte after the type letter has bit 7
set. The decoder answers every frame with a ``Reply`` (ACK, or NAK + code) for the reader to write
back, drops repeats (a SEQ of one of the last five frames with the same content), flags a recent SEQ
with new content, and never raises.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from devices.events import RAW_KEEP, FrameError, Refused, frame_error
from floor.errors import Msg
from floor.games.cards import Card

__all__ = [
    "CardDealt", "CardDrawn", "CardRepeated", "CutCard", "CoupStart", "Standby", "LockStatus",
    "ShoeResult", "ShoeError", "ShoeErrorCleared", "FrameError", "SeqReused", "Reply", "ShoeDecoder",
    "ENQ", "STX", "ETX", "ACK", "NAK", "TARGETS", "WINNERS",
    "encode_frame", "encode_card", "encode_drawn", "encode_result", "encode_error", "encode_simple",
    "encode_lock", "encode_command", "encode_nak", "bcc",
    "NAK_LINE", "NAK_BCC", "NAK_NO_ETX", "NAK_LENGTH", "NAK_COMMAND", "NAK_BUSY",
]

ENQ, STX, ETX, ACK, NAK = 0x05, 0x02, 0x03, 0x06, 0x15

NAK_LINE, NAK_BCC, NAK_NO_ETX, NAK_LENGTH, NAK_COMMAND, NAK_BUSY = 1, 2, 3, 11, 13, 21

# target numbers on the wire (*ours*) <-> names used in events
TARGETS = {1: "player", 2: "banker", 3: "burn"}
_TARGET_CODE = {v: k for k, v in TARGETS.items()}
# result bits 6-4 of a G frame
WINNERS = {1: "player", 2: "tie", 4: "banker", 7: "quit"}
_WINNER_CODE = {v: k for k, v in WINNERS.items()}
# wire suit 1..4 <-> Card suit letters; wire rank 1 = ace .. 13 = king
_SUIT = {1: "D", 2: "C", 3: "S", 4: "H"}
_SUIT_CODE = {v: k for k, v in _SUIT.items()}

# data bytes (after the type letter) each type carries
_DATA_LEN = {"S": (0,), "P": (0,), "C": (0,), "e": (0,), "L": (1,), "E": (1,), "G": (1,),
             "D": (2,), "R": (2,), "d": (1, 2)}
MAX_BODY = 8  # SEQ + type + data: longer without an ETX means the ETX was lost
RECENT = 5  # frames whose SEQ a new frame may not reuse (the shoe cycles through ten)


@dataclass(frozen=True, slots=True)
class CardDealt:
    target: str  # "player", "banker" or "burn"
    index: int  # 1..3, the card's place in that hand
    card: Card


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """A card drawn outside a coup (burn or check)."""

    card: Card


@dataclass(frozen=True, slots=True)
class CardRepeated:
    """``R``: the shoe retransmitting its last card (not a new card; not among the protocol's listed frames)."""

    target: str
    index: int
    card: Card


@dataclass(frozen=True, slots=True)
class CutCard:
    pass


@dataclass(frozen=True, slots=True)
class CoupStart:
    pass


@dataclass(frozen=True, slots=True)
class Standby:
    """``P``: the shoe is idle (not among the protocol's listed frames)."""


@dataclass(frozen=True, slots=True)
class LockStatus:
    """``L``: lock status (not among the protocol's listed frames)."""

    locked: bool


@dataclass(frozen=True, slots=True)
class ShoeResult:
    winner: str  # "player", "tie", "banker" or "quit" (forced quit)
    player_pair: bool
    banker_pair: bool


@dataclass(frozen=True, slots=True)
class ShoeError:
    code: int  # 1 unreadable, 2 overdraw, 3 button, 4/5 pulled back, 6 bad code, 7 timeout


@dataclass(frozen=True, slots=True)
class ShoeErrorCleared:
    pass


@dataclass(frozen=True, slots=True)
class SeqReused(Refused):
    """A recent SEQ with new content (a shoe or a line that lies about which frame is new): dropped
    like every frame error, and alerted."""


@dataclass(frozen=True, slots=True)
class Reply:
    """Bytes the reader must write back to the shoe for a frame it received."""

    data: bytes

    @property
    def ok(self) -> bool:
        return self.data == bytes([ACK])


_ACK_REPLY = Reply(bytes([ACK]))


def encode_nak(code: int) -> bytes:
    return bytes([NAK]) + f"{code:02d}".encode("ascii")


def bcc(body: bytes, start: int | None = None) -> int:
    """XOR of ``body`` (SEQ..ETX), including the start byte when the firmware does."""
    value = start or 0
    for b in body:
        value ^= b
    return value


class ShoeDecoder:
    """Incremental frame decoder; ``feed`` never raises."""

    kind = "shoe"

    @classmethod
    def from_config(cls, config) -> "ShoeDecoder":
        return cls(bcc_includes_start=config.bcc_includes_start)

    def __init__(self, bcc_includes_start: bool = False) -> None:
        self.bcc_includes_start = bcc_includes_start
        self._state = "idle"  # idle | body | bcc
        self._body = bytearray()  # SEQ..ETX of the frame being read
        self._bcc = bytearray()
        self._garbage = bytearray()
        self._recent: deque[bytes] = deque(maxlen=RECENT)  # SEQ+content of the last frames accepted
        self.frames = 0
        self.duplicates = 0
        self.errors = 0

    def reconnected(self) -> None:
        """The port was reopened: a half frame from before belongs to nothing."""
        self._state = "idle"
        self._body.clear()
        self._bcc.clear()
        self._garbage.clear()

    def feed(self, data: bytes) -> list:
        events: list = []
        for byte in bytes(data):
            if byte == ENQ:
                if self._state != "idle":
                    # a new frame starts before this one ended: the ETX or BCC went missing
                    code = NAK_NO_ETX if self._state == "body" else NAK_BCC
                    self._error(events, "frame cut short", bytes([ENQ]) + self._body + self._bcc, code)
                self._flush_garbage(events)
                self._state = "body"
                self._body.clear()
                self._bcc.clear()
            elif self._state == "idle":
                self._garbage.append(byte)
                if len(self._garbage) >= 64:
                    self._flush_garbage(events)
            elif self._state == "body":
                self._body.append(byte)
                if byte == ETX and len(self._body) >= 2:  # byte 0 is SEQ, whatever its value
                    self._state = "bcc"
                elif len(self._body) > MAX_BODY:
                    self._error(events, "no ETX", bytes([ENQ]) + self._body, NAK_NO_ETX)
                    self._state = "idle"
            else:  # bcc
                self._bcc.append(byte)
                if len(self._bcc) == 2:
                    self._frame(events)
                    self._state = "idle"
        return events

    def _flush_garbage(self, events: list) -> None:
        if self._garbage:
            events.append(frame_error("garbage before start byte", self._garbage))
            self.errors += 1
            self._garbage.clear()

    def _error(self, events: list, reason: str, raw: bytes, code: int) -> None:
        events.append(frame_error(reason, raw))
        events.append(Reply(encode_nak(code)))
        self.errors += 1

    def _frame(self, events: list) -> None:
        body = bytes(self._body)
        raw = bytes([ENQ]) + body + bytes(self._bcc)
        try:
            sent = int(self._bcc.decode("ascii"), 16)
        except (UnicodeDecodeError, ValueError):
            sent = -1
        if sent != bcc(body, ENQ if self.bcc_includes_start else None):
            self._error(events, "bad BCC", raw, NAK_BCC)
            return
        seq, kind, payload = body[0], body[1:2], body[2:-1]
        if not kind or kind[0] >= 0x80:
            self._error(events, "no type letter", raw, NAK_LENGTH)
            return
        letter = chr(kind[0])
        if letter not in _DATA_LEN:
            self._error(events, f"unknown type {letter!r}", raw, NAK_COMMAND)
            return
        if len(payload) not in _DATA_LEN[letter]:
            self._error(events, f"wrong length for {letter!r}", raw, NAK_LENGTH)
            return
        if any(b < 0x80 for b in payload):
            self._error(events, "data byte without bit 7", raw, NAK_LINE)
            return
        # The frame is sound: acknowledge it, and keep it unless its SEQ is one of the last frames'
        # (the shoe cycles through ten SEQ values, so a recent SEQ is never a new frame).
        events.append(_ACK_REPLY)
        key = bytes([seq]) + body[1:-1]
        if letter == "P" and (not self._recent or self._recent[-1] != key):
            # Standby: a new shoe (or the shoe idle) numbers its frames afresh, so the SEQs of
            # the frames before it say nothing about the frames after it
            self._recent.clear()
        earlier = next((k for k in self._recent if k[0] == seq), None)
        if earlier == key:
            self.duplicates += 1   # a copy, even after another frame came in between
            return
        if earlier is not None:
            self.errors += 1
            seq_text = chr(seq) if 0x20 <= seq < 0x7F else f"0x{seq:02x}"
            events.append(SeqReused(Msg("SEQ {seq} repeated with new content: not a new frame", seq=repr(seq_text)),
                                    raw[:RAW_KEEP]))
            return
        self._recent.append(key)
        self.frames += 1
        event = _event(letter, [b & 0x7F for b in payload])
        if isinstance(event, FrameError):
            self.errors += 1
            event = frame_error(event.reason, raw)
        events.append(event)


def _card(b: int) -> Card | None:
    suit, rank = _SUIT.get(b >> 4), b & 0x0F
    if suit is None or not 1 <= rank <= 13:
        return None
    return Card(14 if rank == 1 else rank, suit)


def _event(letter: str, data: list[int]):
    if letter == "S":
        return CoupStart()
    if letter == "P":
        return Standby()
    if letter == "C":
        return CutCard()
    if letter == "e":
        return ShoeErrorCleared()
    if letter == "E":
        return ShoeError(data[0])
    if letter == "L":
        if data[0] not in (1, 2):
            return FrameError("bad lock status", b"")
        return LockStatus(data[0] == 2)
    if letter == "G":
        winner = WINNERS.get(data[0] >> 4)
        if winner is None:
            return FrameError("bad result code", b"")
        return ShoeResult(winner, bool(data[0] & 1), bool(data[0] & 2))
    card = _card(data[-1])
    if card is None:
        return FrameError("bad card code", b"")
    if letter == "d":
        return CardDrawn(card)
    target, index = TARGETS.get(data[0] >> 4), data[0] & 0x0F
    if target is None or not 1 <= index <= 3:
        return FrameError("bad target or index", b"")
    return (CardDealt if letter == "D" else CardRepeated)(target, index, card)


# --- encoders (simulators and tests) -------------------------------------------------------


def encode_frame(seq: int | str, letter: str, data: bytes = b"", *, bcc_includes_start: bool = False,
                 corrupt_bcc: bool = False) -> bytes:
    """One shoe frame. ``seq`` is 0..9 (sent as an ASCII digit) or a one-character string."""
    seq_byte = (str(seq) if isinstance(seq, int) else seq).encode("latin-1")[:1]
    body = seq_byte + letter.encode("ascii") + bytes(data) + bytes([ETX])
    value = bcc(body, ENQ if bcc_includes_start else None)
    if corrupt_bcc:
        value ^= 0x5A
    return bytes([ENQ]) + body + f"{value:02X}".encode("ascii")


def _card_byte(card: Card) -> int:
    rank = 1 if card.rank == 14 else card.rank
    return 0x80 | _SUIT_CODE[card.suit] << 4 | rank


def encode_card(seq: int | str, target: str, index: int, card: Card | str, *, letter: str = "D",
                **kw) -> bytes:
    card = Card.parse(card) if isinstance(card, str) else card
    b1 = 0x80 | _TARGET_CODE[target] << 4 | index
    return encode_frame(seq, letter, bytes([b1, _card_byte(card)]), **kw)


def encode_drawn(seq: int | str, card: Card | str, **kw) -> bytes:
    card = Card.parse(card) if isinstance(card, str) else card
    return encode_frame(seq, "d", bytes([_card_byte(card)]), **kw)


def encode_result(seq: int | str, winner: str, player_pair: bool = False, banker_pair: bool = False,
                  **kw) -> bytes:
    b1 = 0x80 | _WINNER_CODE[winner] << 4 | int(banker_pair) << 1 | int(player_pair)
    return encode_frame(seq, "G", bytes([b1]), **kw)


def encode_error(seq: int | str, code: int, **kw) -> bytes:
    return encode_frame(seq, "E", bytes([0x80 | code]), **kw)


def encode_simple(seq: int | str, letter: str, **kw) -> bytes:
    """``S`` coup start, ``P`` standby, ``C`` cut card, ``e`` error cleared."""
    return encode_frame(seq, letter, b"", **kw)


def encode_lock(seq: int | str, locked: bool, **kw) -> bytes:
    return encode_frame(seq, "L", bytes([0x80 | (2 if locked else 1)]), **kw)


def encode_command(kind: str, nn: int, *, bcc_includes_start: bool = False) -> bytes:
    """Host -> shoe: ``STX 'O' 'P' <type> <nn> ETX BCC`` (``LK 01`` unlock, ``GP 00`` confirm…)."""
    body = b"OP" + kind.encode("ascii") + f"{nn:02d}".encode("ascii") + bytes([ETX])
    value = bcc(body, STX if bcc_includes_start else None)
    return bytes([STX]) + body + f"{value:02X}".encode("ascii")
