"""A winning-number-only wheel (docs/protocols.md, "The winning-number-only wheel"): decoder and encoder.

Many wheels in service tell the host nothing but the result: one ASCII line per spin, when the ball
has come to rest, with the number and the rotor's direction, and nothing else (no states, no
heartbeat, no misspin flag, no spin counter). The line (*ours*: the layout such wheels use, fixed
here):

    N:<number>:<direction> CR LF        number 0-36 written plainly, direction CW or CCW

``N:17:CW`` is 17 with the rotor turning clockwise, ``N:0:CCW`` zero with it turning anticlockwise.
Some of these wheels send the line again (two or three copies within a second or so): the same line
again within ``repeat_window_s`` (5 s by default; no real spin is that short) is one result. The
time is the chunk's arrival time (``feed(data, now)``), so a replay of the stored stream gives the
same results.

The decoder gives ``devices.wheel.WinningNumber(number, direction, alone=True)``: the same event as
the SS2-style wheel's bare number, marked as the wheel's whole say on the spin. The rounds take it
for the round the dealer closed betting on. A refused line that ends like a number line is a
``NumberInNoise``: the floor hears of it (the number of the spin may be lost), never silently.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Callable

from devices.events import FrameError, Refused, frame_error
from devices.framing import LineDecoder, LineFramer
from devices.wheel import WinningNumber

__all__ = ["NumberWheelDecoder", "NumberInNoise", "WinningNumber", "FrameError", "encode_number",
           "DIRECTIONS", "REPEAT_WINDOW_S"]

DIRECTIONS = {"CW": 0, "CCW": 1}   # the rotor's direction as the floor keeps it: 0 clockwise, 1 anticlockwise
REPEAT_WINDOW_S = 5.0
MAX_LINE = 16   # the longest line is N:36:CCW (9 bytes)

_LINE = re.compile(rb"N:(\d{1,2}):(CW|CCW)")
_TAIL = re.compile(rb"N:\d{1,2}:(?:CW|CCW)\Z")


@dataclass(frozen=True, slots=True)
class NumberInNoise(Refused):
    """A refused line that ends like a number line: printable noise ran into the wheel's result. The
    number is not taken (noise can end like a number too), and the floor must hear of it: the spin's
    result may be lost."""


class NumberWheelDecoder(LineDecoder):
    """Incremental line decoder; ``feed`` never raises."""

    kind = "wheel"
    heartbeat = False   # the wheel says nothing between results: silence is not a lost line
    timed = True        # feed(data, now): repeats are counted by arrival time

    def __init__(self, *, repeat_window_s: float = REPEAT_WINDOW_S,
                 clock: Callable[[], float] = time.monotonic, max_line: int = MAX_LINE) -> None:
        if not repeat_window_s >= 0:
            raise ValueError(f"repeat_window_s must be 0 or more, not {repeat_window_s!r}")
        self.window = float(repeat_window_s)
        self.clock = clock
        self.framer = LineFramer(max_line)
        self._last: tuple[bytes, float] | None = None   # the last good line and when it (or a copy) came
        self.frames = 0
        self.duplicates = 0
        self.errors = 0

    @classmethod
    def from_config(cls, config) -> "NumberWheelDecoder":
        """``repeat_window_s`` from the device's entry (an option of this protocol), else 5 s."""
        window = config.options.get("repeat_window_s", REPEAT_WINDOW_S)
        if isinstance(window, bool) or not isinstance(window, (int, float)):
            raise ValueError(f"repeat_window_s is a number of seconds, not {window!r}")
        return cls(repeat_window_s=float(window))

    def _line(self, line: bytes, events: list, now: float | None) -> None:
        if not line.strip():
            return   # a blank line carries nothing
        m = _LINE.fullmatch(line)
        reason = None
        if m is None:
            reason = "not a number line"
        elif len(m.group(1)) == 2 and m.group(1).startswith(b"0"):
            reason = "number not written plainly (leading zero)"
        elif int(m.group(1)) > 36:
            reason = "winning number outside 0-36"
        if reason is not None:
            self.errors += 1
            if m is None and _TAIL.search(line):
                events.append(NumberInNoise(f"{reason}: a number line run into by noise",
                                            bytes(line[-64:])))
            else:
                events.append(frame_error(reason, line))
            return
        now = self.clock() if now is None else now
        key = bytes(line)
        if self._last is not None and self._last[0] == key and now - self._last[1] <= self.window:
            self._last = (key, now)   # the window slides: a wheel repeating itself is one result
            self.duplicates += 1
            return
        self._last = (key, now)
        self.frames += 1
        events.append(WinningNumber(int(m.group(1)), DIRECTIONS[m.group(2).decode("ascii")], alone=True))


def encode_number(number: int, direction: int = 0) -> bytes:
    """The wheel's line for a result: ``encode_number(17, 0)`` -> ``b"N:17:CW\\r\\n"``."""
    name = {v: k for k, v in DIRECTIONS.items()}[direction]
    return f"N:{number}:{name}\r\n".encode("ascii")
