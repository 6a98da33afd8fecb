"""The line's journal: every chunk a reader reads, appended to a local file and flushed to the disk
(fsync) before it is decoded, so bytes a device sent are never lost with the process that read them.

One file per device, append-only; a record is the arrival time (microseconds since the epoch, 8
bytes), the length (4 bytes) and the bytes as read; an empty record marks a (re)opened port. When
the reader starts it hands on again the records whose events the floor has not all handled yet
(from the device's mark on: ``devices.bridge``), as if it read them again, after feeding the decoder
the few records before them (so a frame split across them is whole). A compaction keeps those
records and the few before them, never a record the floor has not handled.
"""
from __future__ import annotations

import os
import struct
from datetime import datetime, timedelta, timezone
from pathlib import Path

_HEAD = struct.Struct(">qI")
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
KEEP = 64   # records kept at a compaction
MAX_BYTES = 64 * 1024 * 1024   # past this the file is compacted while the reader runs

Record = tuple[datetime, bytes]


def _micros(at: datetime) -> int:
    return (at - _EPOCH) // timedelta(microseconds=1)


class Journal:
    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
        self._size = os.fstat(self._fd).st_size
        self._limit = self._size + MAX_BYTES

    def append(self, at: datetime, data: bytes) -> None:
        """On the disk when this returns (a crash after it loses nothing)."""
        record = _HEAD.pack(_micros(at), len(data)) + bytes(data)
        os.write(self._fd, record)
        os.fsync(self._fd)
        self._size += len(record)

    @property
    def full(self) -> bool:
        """Past ``MAX_BYTES`` since the last compaction: time to compact (the reader says what to keep)."""
        return self._size > self._limit

    def compact(self, keep: list[Record]) -> None:
        """Rewrite the file with ``keep`` only (written aside, flushed, then renamed over it)."""
        tmp = self.path.with_suffix(self.path.suffix + ".new")
        with open(tmp, "wb") as f:
            for at, data in keep:
                f.write(_HEAD.pack(_micros(at), len(data)) + data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        os.close(self._fd)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
        self._size = os.fstat(self._fd).st_size
        self._limit = self._size + MAX_BYTES   # what must be kept may be big: not compacted again at once

    def close(self) -> None:
        os.close(self._fd)


def unhandled(records: list[Record], handled_at: datetime | None) -> int:
    """Where the records still to hand on start: the chunk at the mark (``handled_at``; some of its
    events may not be handled) and everything after it; 0 when nothing is handled yet."""
    if handled_at is None:
        return 0
    return next((i for i, (at, _) in enumerate(records) if at >= handled_at), len(records))


def read(path: str | os.PathLike) -> list[Record]:
    """Every whole record of the file, in order (a record cut short by a crash is left out)."""
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        return []
    out, pos = [], 0
    while pos + _HEAD.size <= len(raw):
        micros, length = _HEAD.unpack_from(raw, pos)
        end = pos + _HEAD.size + length
        if end > len(raw):
            break
        out.append((_EPOCH + timedelta(microseconds=micros), raw[pos + _HEAD.size:end]))
        pos = end
    return out
