"""The seam between readers and the rest of the floor (database, bridge, Socket.IO).

A reader thread calls its sink with plain data only. A sink must be thread-safe: readers of
several devices call it from their own threads. If a sink method raises, the reader logs it,
counts it (``sink_errors``), reports a health change and keeps reading.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Protocol, runtime_checkable


@dataclass(frozen=True, slots=True)
class DeviceHealth:
    """A snapshot of one device's line, for the floor and pit pages and alerts."""

    name: str
    table: str
    kind: str
    port: str
    state: str = "starting"  # starting | connected | disconnected | stopped
    connected: bool = False
    lost: bool = False  # heartbeat missing mid-round (or no frame for heartbeat_s when set)
    fault: str | None = None  # device-reported fault (wheel flag 4, shoe error); None when clear
    bytes_in: int = 0
    bytes_out: int = 0
    frames: int = 0  # valid frames decoded (repeats not counted)
    duplicates: int = 0  # repeated frames / double reads dropped
    frame_errors: int = 0
    io_errors: int = 0  # open/read/write failures
    reconnects: int = 0  # successful opens after the first
    sink_errors: int = 0
    last_frame_at: datetime | None = None
    last_error: str | None = None
    last_error_at: datetime | None = None
    connected_since: datetime | None = None

    @property
    def errors(self) -> int:
        return self.frame_errors + self.io_errors + self.sink_errors

    def last_frame_age(self, now: datetime) -> float | None:
        return None if self.last_frame_at is None else (now - self.last_frame_at).total_seconds()


@runtime_checkable
class Sink(Protocol):
    def raw(self, device: str, data: bytes, arrived_at: datetime) -> None:
        """Every chunk as received, in order. ``b""`` marks a (re)opened port, so a replay can
        drop a half frame from before the break exactly as the live decoder did."""

    def events(self, device: str, events: list, arrived_at: datetime) -> None:
        """Decoded events of one chunk, in order (including the shoe's ``Reply`` events), and the
        reader's own ``Silence`` when the device goes lost."""

    def health(self, device: str, snapshot: DeviceHealth) -> None:
        """On connect, disconnect, lost, fault and error changes."""

    # Optional: ``written(device, data, at)``, the bytes the host wrote to the device (a shoe's ACK or
    # NAK, a command), when the write succeeded; a sink without it is not told.


@dataclass
class RecordingSink:
    """Keeps everything in memory (tests, tools). Thread-safe."""

    raws: list[tuple[str, bytes, datetime]] = field(default_factory=list)
    event_log: list[tuple[str, object, datetime]] = field(default_factory=list)
    health_log: list[tuple[str, DeviceHealth]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)

    def raw(self, device: str, data: bytes, arrived_at: datetime) -> None:
        with self.changed:
            self.raws.append((device, bytes(data), arrived_at))
            self.changed.notify_all()

    def events(self, device: str, events: list, arrived_at: datetime) -> None:
        with self.changed:
            self.event_log.extend((device, e, arrived_at) for e in events)
            self.changed.notify_all()

    def health(self, device: str, snapshot: DeviceHealth) -> None:
        with self.changed:
            self.health_log.append((device, snapshot))
            self.changed.notify_all()

    # --- helpers for tests ------------------------------------------------------------------

    def events_of(self, device: str | None = None, kind: type | tuple | None = None) -> list:
        with self.lock:
            return [e for d, e, _ in self.event_log
                    if (device is None or d == device) and (kind is None or isinstance(e, kind))]

    def timed_events(self, device: str) -> list[tuple[datetime, object]]:
        with self.lock:
            return [(t, e) for d, e, t in self.event_log if d == device]

    def stream(self, device: str) -> list[tuple[datetime, bytes]]:
        with self.lock:
            return [(t, b) for d, b, t in self.raws if d == device]

    def healths(self, device: str | None = None) -> list[DeviceHealth]:
        with self.lock:
            return [h for d, h in self.health_log if device is None or d == device]

    def wait_for(self, predicate, timeout: float = 5.0) -> bool:
        """Wait until ``predicate(self)`` holds (re-checked on every change and every 50 ms)."""
        import time
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                self.lock.release()
                try:
                    ok = predicate(self)
                finally:
                    self.lock.acquire()
                if ok:
                    return True
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.changed.wait(min(left, 0.05))


__all__ = ["DeviceHealth", "Sink", "RecordingSink", "replace"]
