"""Decoder classes named by dotted path in the tests of ``protocol`` (devices/protocols.py): one that
honours the decoder contract from outside the devices package, and ones that do not."""
from __future__ import annotations

from devices.events import frame_error
from devices.framing import LineDecoder, LineFramer
from devices.wheel import WinningNumber


class WinLineDecoder(LineDecoder):
    """A wheel that prints ``WIN 17``: a whole adapter in a dozen lines."""

    kind = "wheel"

    def __init__(self) -> None:
        self.framer = LineFramer(16)
        self.frames = self.errors = 0

    def _line(self, line: bytes, events: list, now: float | None) -> None:
        text = line.decode("ascii")
        if text.startswith("WIN ") and text[4:].isdigit() and int(text[4:]) <= 36:
            self.frames += 1
            events.append(WinningNumber(int(text[4:]), alone=True))
        else:
            self.errors += 1
            events.append(frame_error("not a WIN line", line))


class NoKind(WinLineDecoder):
    kind = None


class NoFeed:
    kind = "wheel"

    def reconnected(self) -> None:
        pass


class FailsToBuild(WinLineDecoder):
    @classmethod
    def from_config(cls, config):
        raise ValueError("needs a licence key")


class Uncounted(WinLineDecoder):
    def __init__(self) -> None:
        self.framer = LineFramer(16)


def not_a_class():
    return WinLineDecoder()
