"""Events shared by every decoder."""
from __future__ import annotations

from dataclasses import dataclass

# How many bytes of a bad frame we keep in a FrameError (enough to see what went wrong, bounded
# so a flood of noise cannot grow memory).
RAW_KEEP = 64


@dataclass(frozen=True, slots=True)
class FrameError:
    """Bytes that did not make a valid frame; reported and dropped, never fatal."""

    reason: str
    raw: bytes


@dataclass(frozen=True, slots=True)
class Refused(FrameError):
    """A frame error the floor must hear of (a shoe's reused SEQ, a card lost in line noise):
    dropped like every frame error, and alerted on the table."""


def frame_error(reason: str, raw: bytes | bytearray) -> FrameError:
    return FrameError(reason, bytes(raw[:RAW_KEEP]))


@dataclass(frozen=True, slots=True)
class Silence:
    """Not from the line but about it: no heartbeat for ``seconds`` while it mattered (the reader
    reports it once, when the device goes lost)."""

    seconds: float


@dataclass(frozen=True, slots=True)
class ClockStep:
    """Not from the line but about the host: the wall clock jumped ``seconds`` against the steady
    clock. The line's times do not follow it (deadlines are counted from them); the floor is told."""

    seconds: float
