"""Roulette wheel controller (SS2 style, docs/protocols.md): decoder and encoders.

ASCII lines ending ``\\r\\n`` and nothing else (``devices.framing``): status lines
``*X;state;spin;win;flags;rpm10;dir``, bare winning-number lines (two characters, space padded)
and command replies (``*P OK``, ``*F <code>``, ``*V …``).
The decoder is pure: bytes in, events out, whatever the slicing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from devices.events import FrameError, frame_error
from devices.framing import LineDecoder, LineFramer

__all__ = [
    "WheelStatus", "WinningNumber", "SelfTest", "CommandReply", "FrameError", "WheelDecoder",
    "encode_status", "encode_number", "encode_selftest", "encode_command",
    "STATE_BEFORE_GAME", "STATE_PLACE_BETS", "STATE_SPINNING", "STATE_NO_MORE_BETS",
    "STATE_WINNING_NUMBER", "STATE_CLOSED", "STATE_NO_BALL",
    "FLAG_NO_BALL", "FLAG_MISSPIN", "FLAG_FAULT", "FLAG_FAILED_LAUNCH", "FLAG_NAMES", "flag_names",
]

STATE_BEFORE_GAME = 1
STATE_PLACE_BETS = 2
STATE_SPINNING = 3  # ball in rim
STATE_NO_MORE_BETS = 4
STATE_WINNING_NUMBER = 5
STATE_CLOSED = 6
STATE_NO_BALL = 7

FLAG_NO_BALL = 1
FLAG_MISSPIN = 2  # ball turning the same way as the rotor
FLAG_FAULT = 4  # sensor / motor / encoder
FLAG_FAILED_LAUNCH = 8
# The flags by name: the one place their bit values are known (the host rules read the names).
FLAG_NAMES = {FLAG_NO_BALL: "no_ball", FLAG_MISSPIN: "misspin", FLAG_FAULT: "fault",
              FLAG_FAILED_LAUNCH: "failed_launch"}

MAX_LINE = 48  # longest legal line is ~30 chars; anything longer without a newline is noise


@dataclass(frozen=True, slots=True)
class WheelStatus:
    state: int  # 1..7, see STATE_*
    spin: int  # 1..256, wraps
    winning: int | None  # last winning number, None before the first spin
    flags: int  # sum of FLAG_*
    rpm: float  # rotor speed (the wire carries rpm x 10)
    direction: int  # 0 clockwise, 1 anticlockwise

    @property
    def flag_names(self) -> frozenset[str]:
        """The flags raised, by name: ``no_ball``, ``misspin``, ``fault``, ``failed_launch``."""
        return flag_names(self.flags)

    @property
    def no_ball(self) -> bool:
        return bool(self.flags & FLAG_NO_BALL)

    @property
    def misspin(self) -> bool:
        return bool(self.flags & FLAG_MISSPIN)

    @property
    def fault(self) -> bool:
        return bool(self.flags & FLAG_FAULT)

    @property
    def failed_launch(self) -> bool:
        return bool(self.flags & FLAG_FAILED_LAUNCH)


def flag_names(flags: int) -> frozenset[str]:
    """The names of the flags in the status line's hex digit (a sum of FLAG_*)."""
    return frozenset(name for bit, name in FLAG_NAMES.items() if flags & bit)


@dataclass(frozen=True, slots=True)
class WinningNumber:
    number: int  # 0..36
    # The rotor's direction for the spin (0 clockwise, 1 anticlockwise) when the number's own line
    # carries it; None when it does not (this wheel's status lines carry it instead).
    direction: int | None = None
    # The number is all the wheel tells: no states, no second line to agree with (a winning-number-only
    # wheel, devices.wheel_number). The rounds then take it for the round the dealer closed.
    alone: bool = False


@dataclass(frozen=True, slots=True)
class SelfTest:
    code: int | str  # 0 OK, vendor codes otherwise; "BUSY" when the wheel is not idle


@dataclass(frozen=True, slots=True)
class CommandReply:
    """Other replies to host commands: ``*P OK`` -> ("P", "OK"), ``*V 2.10`` -> ("V", "2.10").

    Not among the commands the protocol lists; kept so a host can see its command was understood.
    """

    command: str
    text: str


_STATUS = re.compile(r"\*X;([1-7]);(\d{1,3});( {2}| \d|[1-9]\d);([0-9A-Fa-f]);(\d{1,4});([01])")
# two characters, space padded: " 7", "23"; never "7", "07" or " 07"
_NUMBER = re.compile(r" \d|[1-9]\d")
_SELFTEST = re.compile(r"\*F (\d{1,3}|BUSY)")
_REPLY = re.compile(r"\*([PV]) (.{1,32})")


class WheelDecoder(LineDecoder):
    """Incremental line decoder; ``feed`` never raises."""

    kind = "wheel"
    heartbeat = True   # a status line every 500 ms

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self.framer = LineFramer(max_line)
        self.frames = 0
        self.errors = 0

    def _line(self, line: bytes, events: list, now: float | None = None) -> None:
        if not line.strip():
            return  # blank line: nothing in it, not worth an error
        # A '*' after other bytes: the head is noise glued to a packet; keep the packet.
        star = line.rfind(b"*")
        if star > 0:
            events.append(frame_error("garbage before packet", line[:star]))
            self.errors += 1
            line = line[star:]
        event = _parse(line.decode("ascii"))   # the framer passes printable ASCII only
        if isinstance(event, FrameError):
            events.append(frame_error(event.reason, line))
            self.errors += 1
        else:
            events.append(event)
            self.frames += 1


def _parse(text: str):
    if not text.startswith("*"):
        if text == "00":
            return FrameError("double zero is not a European number", b"")
        if not _NUMBER.fullmatch(text):
            return FrameError("not a packet", b"")
        number = int(text)
        if not 0 <= number <= 36:
            return FrameError("winning number outside 0-36", b"")
        return WinningNumber(number)
    m = _STATUS.fullmatch(text)
    if m:
        state, spin, win, flags, rpm, direction = m.groups()
        if not 1 <= int(spin) <= 256:
            return FrameError("spin number outside 1-256", b"")
        winning = None if not win.strip() else int(win)
        if winning is not None and not 0 <= winning <= 36:
            return FrameError("winning number outside 0-36", b"")
        return WheelStatus(int(state), int(spin), winning, int(flags, 16), int(rpm) / 10, int(direction))
    m = _SELFTEST.fullmatch(text)
    if m:
        code = m.group(1)
        return SelfTest(code if code == "BUSY" else int(code))
    m = _REPLY.fullmatch(text)
    if m:
        return CommandReply(m.group(1), m.group(2))
    return FrameError("unknown packet", b"")


# --- encoders (simulators and tests) -------------------------------------------------------


def encode_status(state: int, spin: int, winning: int | None, flags: int = 0, rpm: float = 0.0,
                  direction: int = 0) -> bytes:
    win = "  " if winning is None else f"{winning:2d}"
    return f"*X;{state};{spin:03d};{win};{flags:X};{round(rpm * 10):d};{direction}\r\n".encode("ascii")


def encode_number(number: int) -> bytes:
    return f"{number:2d}\r\n".encode("ascii")


def encode_selftest(code: int | str) -> bytes:
    return f"*F {code}\r\n".encode("ascii")


def encode_command(command: str) -> bytes:
    """A host command: ``encode_command("R")`` -> ``b"*R\\r\\n"``; a leading '*' is optional."""
    return ("*" + command.lstrip("*") + "\r\n").encode("ascii")
