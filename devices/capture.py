"""Capture files: the bytes of one device line with their arrival times, pure (no port, no database).

A capture is JSON Lines, UTF-8. The first line says what it is::

    {"format": "floorman-capture", "version": 1, "kind": "shoe", "port": "/dev/ttyUSB0",
     "baudrate": 4800, "started_at": "2026-12-03T05:00:00.000000+00:00"}

then one line per chunk read from the line, in order::

    {"t": 0.512034, "hex": "0531440391c30332340d"}

``t`` is the chunk's arrival, in seconds since ``started_at``; ``hex`` its bytes in lower-case hex. An
empty ``hex`` marks the port being (re)opened (a decoder drops any half frame there), the way the
reader's stored stream and its journal mark it. ``flask floor devices capture`` writes these files,
``flask floor devices replay`` and ``check --file`` read them, and the pit exports a device's stored
stream as one.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import IO, Iterable

FORMAT = "floorman-capture"
VERSION = 1
KINDS = ("wheel", "shoe", "scanner")

__all__ = ["FORMAT", "VERSION", "Capture", "CaptureError", "Header", "append", "dumps", "header_line",
           "read", "write_header"]


class CaptureError(ValueError):
    """The file is not a capture this code can read; the message says where and why."""


@dataclass(frozen=True)
class Header:
    kind: str
    port: str
    baudrate: int
    started_at: datetime   # timezone-aware, UTC

    def as_dict(self) -> dict:
        return {"format": FORMAT, "version": VERSION, "kind": self.kind, "port": self.port,
                "baudrate": self.baudrate, "started_at": _iso(self.started_at)}


@dataclass
class Capture:
    header: Header
    chunks: list[tuple[float, bytes]] = field(default_factory=list)   # (seconds since started_at, bytes)

    @property
    def kind(self) -> str:
        return self.header.kind

    def stream(self) -> list[tuple[datetime, bytes]]:
        """The chunks as (arrival time, bytes): what ``devices.replay.replay`` takes."""
        start = self.header.started_at
        return [(start + timedelta(seconds=t), data) for t, data in self.chunks]


def _iso(at: datetime) -> str:
    if at.tzinfo is None:
        raise ValueError("started_at must be timezone-aware")
    return at.astimezone(timezone.utc).isoformat(timespec="microseconds")


def header_line(kind: str, port: str, baudrate: int, started_at: datetime) -> str:
    """The first line of a capture (with its newline)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}")
    return json.dumps(Header(kind, str(port), int(baudrate), started_at).as_dict()) + "\n"


def chunk_line(t: float, data: bytes) -> str:
    """One chunk's line (with its newline)."""
    return json.dumps({"t": round(float(t), 6), "hex": bytes(data).hex()}) + "\n"


def write_header(f: IO[str], kind: str, port: str, baudrate: int, started_at: datetime) -> None:
    """Start a capture on the text file ``f``."""
    f.write(header_line(kind, port, baudrate, started_at))
    f.flush()


def append(f: IO[str], t: float, data: bytes) -> None:
    """One chunk that arrived ``t`` seconds after the header's ``started_at`` (``b""``: the port was
    (re)opened), written and flushed: a capture cut short keeps every chunk written before."""
    f.write(chunk_line(t, data))
    f.flush()


def dumps(kind: str, port: str, baudrate: int, started_at: datetime,
          stream: Iterable[tuple[datetime, bytes]]) -> str:
    """A whole capture as text, from (arrival time, bytes) pairs (a stored stream)."""
    lines = [header_line(kind, port, baudrate, started_at)]
    for at, data in stream:
        lines.append(chunk_line((at - started_at).total_seconds(), data))
    return "".join(lines)


def read(source: IO[str] | str) -> Capture:
    """A capture from a text file or a path. A last line cut short (a capture stopped mid-write) is
    left out; anything else that is not a capture raises ``CaptureError``."""
    if isinstance(source, str):
        with open(source, encoding="utf-8") as f:
            return read(f)
    lines = source.read().split("\n")
    complete = lines[:-1]           # everything before the last newline
    tail = lines[-1]                # after it: empty, or a line cut short
    if not complete and not tail:
        raise CaptureError("empty file: not a capture")
    first = complete[0] if complete else tail
    try:
        head = json.loads(first)
    except ValueError:
        raise CaptureError("line 1: not JSON: not a capture") from None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise CaptureError(f'line 1: not a capture (no "format": "{FORMAT}")')
    if head.get("version") != VERSION:
        raise CaptureError(f"line 1: capture version {head.get('version')!r} (this code reads {VERSION})")
    try:
        started = datetime.fromisoformat(str(head["started_at"]).replace("Z", "+00:00"))
        header = Header(str(head["kind"]), str(head["port"]), int(head["baudrate"]),
                        started if started.tzinfo else started.replace(tzinfo=timezone.utc))
    except (KeyError, ValueError, TypeError) as exc:
        raise CaptureError(f"line 1: bad header: {exc}") from None
    if header.kind not in KINDS:
        raise CaptureError(f"line 1: unknown kind {header.kind!r}")
    capture = Capture(header)
    body = complete[1:]
    for number, line in enumerate(body, start=2):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            capture.chunks.append((float(item["t"]), bytes.fromhex(item["hex"])))
        except (ValueError, KeyError, TypeError) as exc:
            raise CaptureError(f"line {number}: bad chunk: {exc}") from None
    if complete and tail.strip():
        try:   # the last line had no newline: keep it when whole, drop it when cut short
            item = json.loads(tail)
            capture.chunks.append((float(item["t"]), bytes.fromhex(item["hex"])))
        except (ValueError, KeyError, TypeError):
            pass
    return capture
