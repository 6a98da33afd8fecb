"""What a UART receives from a device set to another line speed or framing, pure.

A device and its host must agree on the line's speed and framing (``9600 8N1``: 9600 bits a second,
8 data bits, no parity, one stop bit). When they do not, the host's UART still finds "characters" in
the waveform, and reads garbage. ``garble`` works that garbage out bit by bit, the way a UART does:

- the device sends each byte as a start bit (low), its data bits least significant first, a parity
  bit when its framing has one, and a stop bit (high); the bytes of one write follow each other with
  no gap, and the line is idle (high) before and after;
- the host's UART waits for a falling edge, checks the start bit half a bit later (still low, or it
  was a glitch), samples its own data bits in the middle of each of its bit times, then its parity
  and stop bits, and delivers the data bits it sampled, whatever the parity and the stop bit said
  (pyserial leaves the kernel's parity check off, so a framing or parity error reaches the reader
  as the bits it sampled, a break as 0x00). After a stop bit sampled low it waits for the line to
  go high before the next start.

Times are counted in integer ticks (one tick = 1 / (2 × tx speed × rx speed) s), so the result is
exact and the same on every machine. The device simulators use ``garble`` for their wrong-speed
fault; ``devices.conformance`` uses it to find the speed and framing that fit garbled input.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Line", "COMMON_SPEEDS", "FRAMINGS", "garble", "parse_line"]

COMMON_SPEEDS = (4800, 9600, 19200, 38400, 57600, 115200)
FRAMINGS = ("8N1", "8E1", "8O1", "7E1", "7O1")


@dataclass(frozen=True, slots=True)
class Line:
    """A line setting: speed in baud, data bits (7 or 8), parity ``N``, ``E`` or ``O``."""

    baudrate: int
    bits: int = 8
    parity: str = "N"

    def __post_init__(self) -> None:
        if self.baudrate <= 0 or self.bits not in (7, 8) or self.parity not in ("N", "E", "O"):
            raise ValueError(f"not a line setting: {self.baudrate} {self.bits}{self.parity}1")

    @property
    def framing(self) -> str:
        return f"{self.bits}{self.parity}1"

    def __str__(self) -> str:
        return f"{self.baudrate} {self.framing}"

    def frame_bits(self, byte: int) -> list[int]:
        """The levels of one character on the wire: start, data (LSB first), parity, stop."""
        data = [(byte >> i) & 1 for i in range(self.bits)]
        bits = [0, *data]
        if self.parity != "N":
            ones = sum(data)
            bits.append(ones & 1 if self.parity == "E" else (ones & 1) ^ 1)
        bits.append(1)
        return bits


def parse_line(text: str) -> Line:
    """``"9600"``, ``"9600 8N1"``, ``"19200 7E1"`` -> a Line."""
    parts = text.split()
    if not parts or not parts[0].isdigit():
        raise ValueError(f"not a line setting: {text!r}")
    framing = parts[1].upper() if len(parts) > 1 else "8N1"
    if len(framing) != 3 or framing[0] not in "78" or framing[1] not in "NEO" or framing[2] != "1":
        raise ValueError(f"not a framing: {framing!r} (e.g. 8N1, 7E1)")
    return Line(int(parts[0]), int(framing[0]), framing[1])


def garble(data: bytes, sent: Line, received: Line) -> bytes:
    """The bytes a UART set to ``received`` reads when a device set to ``sent`` writes ``data`` in
    one go onto an idle line. Equal settings give ``data`` back (less bit 7 on a 7-bit line)."""
    if not data:
        return b""
    if sent == received:
        return bytes(data) if received.bits == 8 else bytes(b & 0x7F for b in data)
    wave: list[int] = []
    for byte in data:
        wave.extend(sent.frame_bits(byte))
    tx = 2 * received.baudrate     # ticks per sent bit
    rx = 2 * sent.baudrate         # ticks per received bit (half of it: sent.baudrate)
    half = sent.baudrate
    end = len(wave) * tx

    def level(t: int) -> int:
        return wave[t // tx] if 0 <= t < end else 1   # idle before and after: high

    def next_fall(after: int) -> int | None:
        """The first falling edge at a bit boundary strictly after tick ``after`` (or at 0)."""
        k = 0 if after < 0 else after // tx + 1
        while k < len(wave):
            if wave[k] == 0 and (k == 0 or wave[k - 1] == 1):
                return k * tx
            k += 1
        return None

    out = bytearray()
    extra = 1 if received.parity != "N" else 0
    t = -1
    while True:
        edge = next_fall(t)
        if edge is None:
            break
        if level(edge + half) != 0:      # a glitch, not a start bit
            t = edge + half
            continue
        value = 0
        for i in range(received.bits):
            value |= level(edge + half + (i + 1) * rx) << i
        stop_at = edge + half + (received.bits + extra + 1) * rx
        out.append(value)
        t = stop_at                      # low stop: next_fall needs the line high first anyway
    return bytes(out)
