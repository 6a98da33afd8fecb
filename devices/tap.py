"""The line tap: what the readers hear and write, for the live device page, without slowing the line.

The bridge hands the tap every chunk of bytes, every decoded event (refusals included), every write to
a device (a shoe's ACK/NAK, a host command) and every health snapshot, from the reader's own thread.
On that thread the tap does one thing: when somebody watches, it appends the item to a bounded
buffer; when the buffer is full, or nobody watches, the item is dropped and counted. Nothing waits.

A thread of its own turns the buffer into JSON every ``interval`` seconds and emits it as one
``device.line`` event (``{"items": [...], "dropped": n}``) to the room of the people who watch
(``ROOM``); it also asks, twice a second, whether anybody watches (``watching``: the web processes
note who has the page open). When watching starts it sends each device's last health first, so a
page that opens sees every device at once.
"""
from __future__ import annotations

import dataclasses
import logging
import threading
from collections import deque
from datetime import datetime, timezone
from typing import Callable

from devices.events import FrameError, Refused

log = logging.getLogger(__name__)

ROOM = "devices"
EVENT = "device.line"
BUFFER = 2000          # items waiting for the tap's thread at most; past that, dropped
BATCH = 500            # items a single emit carries at most
Emit = Callable[[str, dict, str], None]


def _utcnow() -> datetime:
    return datetime.now(timezone.utc)


def _plain(value):
    """A field of an event as JSON: a card as its code, bytes as hex, times as ISO 8601."""
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).hex()
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return str(value)


def event_item(device: str, event, at: datetime) -> dict:
    """One decoded event as the page shows it: a refusal (any frame error) with its reason and the
    bytes it refused, anything else by its type and fields."""
    if isinstance(event, FrameError):
        return {"device": device, "kind": "refused", "at": at.isoformat(), "reason": event.reason,
                "hex": event.raw.hex(), "floor": isinstance(event, Refused), "type": type(event).__name__}
    fields = {}
    if dataclasses.is_dataclass(event):
        fields = {f.name: _plain(getattr(event, f.name)) for f in dataclasses.fields(event)}
    return {"device": device, "kind": "event", "at": at.isoformat(), "type": type(event).__name__,
            "fields": fields}


def health_item(device: str, h) -> dict:
    fields = {f.name: _plain(getattr(h, f.name)) for f in dataclasses.fields(h)}
    return {"device": device, "kind": "health", "at": _utcnow().isoformat(), "health": {**fields, "errors": h.errors}}


class LineTap:
    def __init__(self, emit: Emit, watching: Callable[[], bool], *, interval: float = 0.1,
                 watch_every: float = 0.5, buffer: int = BUFFER) -> None:
        self.emit, self.watching_now = emit, watching
        self.interval, self.watch_every, self.limit = interval, watch_every, buffer
        self.watching = False          # read on the readers' threads: a plain attribute, no lock
        self.dropped = 0               # items dropped since the last emit (full buffer)
        self.dropped_total = 0
        self.unwatched = 0             # items dropped because nobody watched (all time)
        self._buf: deque = deque()
        self._health: dict[str, object] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # --- on the readers' threads: append or drop, never wait --------------------------------------

    def _put(self, item: tuple) -> None:
        if not self.watching:
            self.unwatched += 1
            return
        if len(self._buf) >= self.limit:
            self.dropped += 1
            self.dropped_total += 1
            return
        self._buf.append(item)

    def chunk(self, device: str, data: bytes, at: datetime) -> None:
        self._put(("bytes", device, data, at))

    def events(self, device: str, events: list, at: datetime) -> None:
        self._put(("events", device, events, at))

    def written(self, device: str, data: bytes, at: datetime) -> None:
        self._put(("sent", device, data, at))

    def health(self, device: str, snapshot) -> None:
        self._health[device] = snapshot      # the last one, for a page that opens later
        self._put(("health", device, snapshot, None))

    # --- the tap's own thread ---------------------------------------------------------------------

    def start(self) -> "LineTap":
        self._thread = threading.Thread(target=self._run, name="device-line-tap", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(3)

    def _ask(self) -> bool:
        try:
            answer = bool(self.watching_now())
            self._down = False
            return answer
        except Exception as exc:   # the watchers' record is away (Redis down): nobody is served anyway
            if not getattr(self, "_down", False):    # said once per outage, not twice a second
                log.warning("device line tap: cannot tell who watches the device page (%s)", exc)
            self._down = True
            return False

    def _run(self) -> None:
        asked_at = -1e9
        elapsed = 0.0
        while not self._stop.wait(self.interval):
            elapsed += self.interval
            if elapsed - asked_at >= self.watch_every:
                asked_at = elapsed
                was, self.watching = self.watching, self._ask()
                if self.watching and not was:
                    self._send([health_item(d, h) for d, h in list(self._health.items())], hello=True)
                elif not self.watching:
                    self._buf.clear()
            if self._buf or self.dropped:
                self._flush()

    def _flush(self) -> None:
        items: list[dict] = []
        while self._buf and len(items) < BATCH:
            items.extend(self._shape(self._buf.popleft()))
        # in the order things happened on the line: a reply is written before its frame is handed on
        items.sort(key=lambda i: i["at"])
        self._send(items)

    @staticmethod
    def _shape(item: tuple) -> list[dict]:
        what, device, value, at = item
        if what == "bytes":
            return [{"device": device, "kind": "bytes", "at": at.isoformat(), "hex": bytes(value).hex()}]
        if what == "sent":
            return [{"device": device, "kind": "sent", "at": at.isoformat(), "hex": bytes(value).hex()}]
        if what == "health":
            return [health_item(device, value)]
        out = []
        for e in value:
            if type(e).__name__ == "Reply":      # the shoe's answer: shown as written, with the writes
                continue
            out.append(event_item(device, e, at))
        return out

    def _send(self, items: list[dict], hello: bool = False) -> None:
        dropped, self.dropped = self.dropped, 0
        try:
            self.emit(EVENT, {"items": items, "dropped": dropped, "hello": hello}, ROOM)
        except Exception:   # the page misses this batch; the line goes on
            log.exception("device line tap: emit failed")
