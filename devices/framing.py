"""The line framer of the ASCII devices (the wheel controller and the card scanner), pure.

A line ends with CR LF and with nothing else. Everything the framer refuses comes out as one
``FrameError`` per run of refused bytes, at the terminator that ends the run (so slicing the stream
never changes what comes out):

- a line ended by LF alone, or a CR not followed by LF, is refused: a stray ``9\\n`` never becomes
  a line;
- a byte no line can hold (a control byte other than CR and LF, or anything above 0x7E, unless the
  device's own prefix or suffix uses it) breaks the line: what came before it is refused and the next
  line starts right after it, so a valid line that follows noise is still read;
- printable bytes past the maximum length without a line end are refused, but only the overflow:
  the framer keeps the last ``max_line`` bytes, so a packet at the end of a long run still arrives.
"""
from __future__ import annotations

from devices.events import RAW_KEEP, FrameError

CR, LF = 0x0D, 0x0A

__all__ = ["LineDecoder", "LineFramer"]


class LineFramer:
    """``feed(data) -> list[bytes | FrameError]``: complete lines (without CR LF) and refusals, in order."""

    def __init__(self, max_line: int, allowed: bytes = b"") -> None:
        self.max_line = max_line
        self._allowed = frozenset(allowed)   # bytes outside printable ASCII a line may hold anyway
        self._buf = bytearray()
        self._cr = False
        self._refused = bytearray()   # the current run of refused bytes (the first RAW_KEEP of them)
        self._reason: str | None = None

    def reconnected(self) -> None:
        """The port was reopened: a half line from before belongs to nothing."""
        self._buf.clear()
        self._cr = False
        self._refused.clear()
        self._reason = None

    def feed(self, data: bytes) -> list:
        out: list = []
        for byte in bytes(data):
            if self._cr:
                self._cr = False
                if byte == LF:
                    self._flush(out)
                    if self._buf:
                        out.append(bytes(self._buf))
                    self._buf.clear()
                    continue
                self._refuse(self._buf + b"\r", "CR without LF")
                # the byte after the lone CR starts the next line
            if byte == CR:
                self._cr = True
            elif byte == LF:
                self._refuse(self._buf + b"\n", "line ended by LF alone")
                self._flush(out)
            elif (byte < 0x20 or byte > 0x7E) and byte not in self._allowed:
                self._refuse(self._buf + bytes([byte]), "noise on the line")
            else:
                self._buf.append(byte)
                if len(self._buf) > self.max_line:
                    self._refuse_head(f"no line end within {self.max_line} bytes")
        return out

    def _refuse(self, raw: bytes | bytearray, reason: str) -> None:
        self._reason = self._reason or reason
        self._refused += raw[:max(0, RAW_KEEP - len(self._refused))]
        self._buf.clear()

    def _refuse_head(self, reason: str) -> None:
        """Only the overflow is refused: the last ``max_line`` bytes may still end as a packet."""
        self._reason = self._reason or reason
        if len(self._refused) < RAW_KEEP:
            self._refused.append(self._buf[0])
        del self._buf[0]

    def _flush(self, out: list) -> None:
        if self._reason is not None:
            out.append(FrameError(self._reason, bytes(self._refused)))
            self._refused.clear()
            self._reason = None


class LineDecoder:
    """What the wheel's and the scanner's decoders share: lines from the framer, refusals counted and
    passed on as events. A subclass sets ``self.framer`` and decodes one line in ``_line``."""

    framer: LineFramer
    errors: int

    def feed(self, data: bytes, now: float | None = None) -> list:
        """Decode what arrived; never raises (``now``: when it was read, for decoders that time reads)."""
        events: list = []
        for item in self.framer.feed(data):
            if isinstance(item, FrameError):
                events.append(item)
                self.errors += 1
            else:
                self._line(item, events, now)
        return events

    def reconnected(self) -> None:
        """The port was reopened: a half line from before belongs to nothing."""
        self.framer.reconnected()

    def _line(self, line: bytes, events: list, now: float | None) -> None:
        raise NotImplementedError
