"""The bridge: what the readers hear goes to the floor.

It is the readers' Sink, and it never keeps a reader waiting on the database. On the reader's
thread it only sends the live feed (wheel states, numbers, cards) to the table's room; everything
that touches the database goes to the table's worker (``devices.worker``), which runs it in the
order it arrived: the raw bytes stored as received, then each game event in its own transaction
through the rounds service (with the settlement and the device command that follow it).

Each event is handled once, even across a crash: the transaction that handles it also moves the
device's mark (``DeviceMark``: the chunk and how many of its events are handled), and a chunk is
stored once (by its arrival time). A restarted reader hands on again, from its journal, the chunks
from the mark on; what the floor already has of them is skipped here.

Betting is judged by the line's time (``floor.rounds.line``): when a line closes betting, the lock
is written with its arrival time on the line's lane, a worker of its own that never waits behind a
table's work; and a watch pauses betting at a table whose work falls behind its line by more than
the house's ``line_lag_ms``, until it has caught up. Device
health (with alerts on loss and faults) has a worker of its own. Only names and ids cross threads;
each job opens its own session.
"""
from __future__ import annotations

import logging
import threading
import time
from datetime import datetime, timezone
from typing import Callable, Protocol

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from devices import priority
from devices.events import ClockStep, FrameError, Refused, Silence
from devices.protocols import line_locks
from devices.scanner import CardRead
from devices.shoe import CardDealt, CardDrawn, CoupStart, CutCard, Reply, ShoeError, ShoeResult
from devices.sink import DeviceHealth
from devices.worker import Workers
from devices.wheel import WheelStatus, WinningNumber
from floor import device_health, notify
from floor.models import DeviceChunk, DeviceMark
from floor.rounds import line

log = logging.getLogger(__name__)
Emit = Callable[[str, dict, str], None]


class GameDispatch(Protocol):
    """Where game events go (the live rounds). One call per event, in the bridge's session; it may
    return a follow-up to run after that session commits (a settlement in its own transaction)."""

    def event(self, session: Session, table_id: int, device: str, kind: str, event,
              at: datetime) -> Callable[[], None] | None: ...


def live_payload(event) -> tuple[str, dict] | None:
    """The live feed a dealer terminal shows as the device speaks (None: not for the feed)."""
    if isinstance(event, WinningNumber):
        return "device.wheel.number", {"number": event.number}
    if isinstance(event, WheelStatus):
        return "device.wheel.status", {"state": event.state, "spin": event.spin, "winning": event.winning,
                                       "flags": event.flags, "rpm": event.rpm, "direction": event.direction}
    if isinstance(event, CardDealt):
        return "device.card", {"card": str(event.card), "target": event.target, "index": event.index}
    if isinstance(event, (CardRead, CardDrawn)):
        return "device.card", {"card": str(event.card), "target": None, "index": None}
    if isinstance(event, ShoeResult):
        return "device.shoe.result", {"winner": event.winner, "player_pair": event.player_pair,
                                      "banker_pair": event.banker_pair}
    if isinstance(event, (CoupStart, CutCard)):
        return f"device.shoe.{type(event).__name__.lower()}", {}
    if isinstance(event, ShoeError):
        return "device.shoe.error", {"code": event.code}
    return None


class FloorBridge:
    """``lag_limit_s``: how far behind its line a table's work may fall before betting there pauses
    (the house's ``line_lag_ms``). ``delay_s`` slows every table job down on purpose: a device
    process held behind its line, for tests only."""

    def __init__(self, session_factory: Callable[[], Session], tables: dict[str, int | None],
                 kinds: dict[str, str], emit: Emit | None = None, dispatch: GameDispatch | None = None, *,
                 lag_limit_s: float = 0.5, delay_s: float = 0.0, clock: Callable[[], float] = time.monotonic,
                 tap=None) -> None:
        """``tables`` maps device name → table id, ``kinds`` device name → wheel/shoe/scanner; ``tap``:
        the live device page's tap (``devices.tap.LineTap``), handed everything on the reader's thread."""
        self.session_factory = session_factory
        self.tables = dict(tables)
        self.kinds = dict(kinds)
        self.emit = emit
        self.dispatch = dispatch
        self.workers = Workers()
        # The line's lane: the locks the lines give and the pauses, written at once, never behind a
        # table's work (a worker of its own), so a bet is judged by the line's time.
        self.lane = Workers("line")
        self.lag_limit_s = lag_limit_s
        self.delay_s = delay_s
        self.clock = clock
        self.tap = tap
        self._locked: dict[str, bool] = {}            # per device: the line has closed betting
        self._paused: dict[int, bool | None] = {}     # per table: paused as far as this process knows
        self._stop = threading.Event()
        self._watch: threading.Thread | None = None
        # per device, on its table's worker only: the last chunk stored, and the mark (loaded once)
        self._stored: dict[str, datetime | None] = {}
        self._marks: dict[str, tuple[datetime, int] | None] = {}

    def drain(self, timeout: float | None = None) -> bool:
        """Wait until the work handed over so far is done (tests, an orderly stop)."""
        return self.lane.drain(timeout) and self.workers.drain(timeout) and self.lane.drain(timeout)

    def close(self, timeout: float = 10.0) -> None:
        """After the readers stopped: finish the queued work, then stop the workers."""
        self.workers.drain(timeout)
        self._stop.set()
        self.lane.drain(timeout)
        self.workers.stop(timeout)
        self.lane.stop(timeout)
        if self.tap is not None:
            self.tap.stop()

    @property
    def failures(self) -> int:
        return self.workers.failures + self.lane.failures

    def _work(self, device: str, job, stamp: float | None = None) -> None:
        if self.delay_s:
            job = (lambda j=job: (time.sleep(self.delay_s), j()))
        self.workers.submit(self.tables.get(device) or f"device {device}", job, stamp)

    # --- the line's lane ------------------------------------------------------------------

    def _lock(self, device: str, table_id: int, events: list, arrived_at: datetime) -> None:
        locks, self._locked[device] = line_locks(events, self._locked.get(device, False))
        for what in locks:
            self.lane.submit("locks", lambda what=what: self._store_lock(device, table_id, arrived_at, what))

    def _store_lock(self, device: str, table_id: int, arrived_at: datetime, what: str) -> None:
        with self.session_factory() as s:
            line.record_lock(s, table_id, device, arrived_at, what)
            s.commit()

    def _start_watch(self) -> None:
        if self._watch is None and self.lag_limit_s > 0:
            self._watch = threading.Thread(target=self._watching, name="device-line-lag", daemon=True)
            self._watch.start()

    def _watching(self) -> None:
        """How far each table's work is behind its line: past the limit betting there pauses, and
        resumes once the work has caught up (a pause left by an earlier process is lifted too)."""
        priority.normal()   # started from a reader's first bytes, maybe real-time: the watch runs at normal
        while not self._stop.wait(min(0.1, self.lag_limit_s / 2)):
            now = self.clock()
            for device, table_id in list(self.tables.items()):
                if table_id is None:
                    continue
                oldest = self.workers.oldest(table_id)
                behind = 0.0 if oldest is None else now - oldest
                paused = self._paused.get(table_id)
                if behind > self.lag_limit_s and paused is not True:
                    self._paused[table_id] = True
                    self.lane.submit("pauses", lambda t=table_id, d=device, b=behind: self._pause(t, d, b))
                elif behind <= self.lag_limit_s and paused is not False and self._owner(table_id) == device:
                    self._paused[table_id] = False
                    self.lane.submit("pauses", lambda t=table_id, d=device: self._resume(t, d))

    def _owner(self, table_id: int) -> str:
        """The first device of a table speaks for its pauses."""
        return next(d for d, t in self.tables.items() if t == table_id)

    def _pause(self, table_id: int, device: str, behind: float) -> None:
        with self.session_factory() as s:
            line.pause(s, table_id, device, round(behind * 1000), datetime.now(timezone.utc))
            s.commit()

    def _resume(self, table_id: int, device: str) -> None:
        with self.session_factory() as s:
            line.resume(s, table_id, device, datetime.now(timezone.utc))
            s.commit()

    # --- Sink -----------------------------------------------------------------------------

    def raw(self, device: str, data: bytes, arrived_at: datetime) -> None:
        self._start_watch()
        if self.tap is not None:
            self.tap.chunk(device, data, arrived_at)
        self._work(device, lambda: self._store_raw(device, bytes(data), arrived_at), self.clock())

    def stored_until(self, device: str) -> datetime | None:
        """When the last chunk of ``device`` the floor has stored arrived."""
        with self.session_factory() as s:
            return s.execute(select(func.max(DeviceChunk.arrived_at)).where(DeviceChunk.device == device)).scalar()

    def handled_until(self, device: str) -> datetime | None:
        """The arrival of the chunk at the mark of ``device``: the events of the chunks before it are
        handled, and maybe some of its own. A reader's journal hands on that chunk and what came
        after it; the events already handled are skipped (None: nothing handled yet)."""
        with self.session_factory() as s:
            return s.execute(select(DeviceMark.chunk_at).where(DeviceMark.device == device)).scalar()

    def _mark(self, s: Session, device: str) -> tuple[datetime, int] | None:
        if device not in self._marks:
            row = s.get(DeviceMark, device)
            self._marks[device] = None if row is None else (row.chunk_at, row.events)
        return self._marks[device]

    def _move_mark(self, s: Session, device: str, at: datetime, events: int) -> tuple[datetime, int]:
        """In ``s``'s transaction: the mark of ``device`` at (``at``, ``events``); the caller keeps the
        returned value in ``_marks`` once ``s`` has committed."""
        if self._mark(s, device) is None:
            s.add(DeviceMark(device=device, chunk_at=at, events=events))
        else:
            s.execute(update(DeviceMark).where(DeviceMark.device == device).values(chunk_at=at, events=events))
        return at, events

    def _store_raw(self, device: str, data: bytes, arrived_at: datetime) -> None:
        with self.session_factory() as s:
            mark = self._mark(s, device)
            if self.dispatch is not None and hasattr(self.dispatch, "chunk") and (mark is None or mark < (arrived_at, 1)):
                self.dispatch.chunk(device, data)   # no event of it filed yet: the first one files the bytes
            if device not in self._stored:
                self._stored[device] = s.execute(select(func.max(DeviceChunk.arrived_at))
                                                 .where(DeviceChunk.device == device)).scalar()
            last = self._stored[device]
            new = last is None or arrived_at > last   # else stored before a crash, handed on again
            if new:
                s.add(DeviceChunk(device=device, table_id=self.tables.get(device), arrived_at=arrived_at, data=data))
            # the worker runs a device's jobs in order: every event of the chunks before this one is done
            moved = self._move_mark(s, device, arrived_at, 0) if mark is None or mark < (arrived_at, 0) else None
            s.commit()
        if new:
            self._stored[device] = arrived_at
        if moved is not None:
            self._marks[device] = moved

    def events(self, device: str, events: list, arrived_at: datetime) -> None:
        self._take(device, events, arrived_at, live=True)

    def replayed(self, device: str, events: list, arrived_at: datetime) -> None:
        """Events of a reader's journal handed on after a restart: the process before this one sent
        them to the live feed as it read them, so they go to the floor's work only (the round's own
        update follows their handling; what was handled already is skipped there)."""
        self._take(device, events, arrived_at, live=False)

    def _take(self, device: str, events: list, arrived_at: datetime, live: bool) -> None:
        table_id = self.tables.get(device)
        if self.tap is not None and live:
            self.tap.events(device, events, arrived_at)
        # The live feed first: a dealer watching the wheel should not wait for the database.
        if self.emit is not None and table_id is not None and live:
            for event in events:
                live = live_payload(event)
                if live is not None:
                    name, payload = live
                    self.emit(name, {"table_id": table_id, "device": device, **payload}, notify.table_room(table_id))
        if table_id is not None:
            self._lock(device, table_id, events, arrived_at)
        if self.dispatch is None or table_id is None:
            return
        game = [e for e in events
                if not isinstance(e, Reply) and (not isinstance(e, FrameError) or isinstance(e, Refused))]
        if game:
            self._work(device, lambda: self._events(device, game, arrived_at), self.clock())

    def _events(self, device: str, events: list, arrived_at: datetime) -> None:
        # the reader's own events (a silence, a clock step) come from no chunk: nothing to mark
        marked = not all(isinstance(e, (Silence, ClockStep)) for e in events)
        failed: Exception | None = None
        for i, event in enumerate(events):
            failed = self._one(device, event, arrived_at, i if marked else None) or failed
        if failed is not None:
            raise failed

    def written(self, device: str, data: bytes, at: datetime) -> None:
        """What the host wrote to a device (replies, commands): for the live device page only."""
        if self.tap is not None:
            self.tap.written(device, data, at)

    def health(self, device: str, snapshot: DeviceHealth) -> None:
        if self.tap is not None:
            self.tap.health(device, snapshot)
        self.workers.submit("health", lambda: self._health(device, snapshot))

    def _health(self, device: str, snapshot: DeviceHealth) -> None:
        with self.session_factory() as s:
            device_health.record(s, device, device_health.snapshot_info(snapshot), self.tables.get(device))
            s.commit()

    # --- one event, one transaction --------------------------------------------------------

    def _one(self, device: str, item, at: datetime, index: int | None = None) -> Exception | None:
        """``index``: the event's place among the game events of the chunk that arrived at ``at`` (None:
        not from a chunk); an event at or before the device's mark was handled before, and is skipped."""
        table_id = self.tables[device]
        kind = self.kinds.get(device, "")
        moved = None
        with self.session_factory() as s:
            if index is not None:
                mark = self._mark(s, device)
                if mark is not None and (at, index) < mark:
                    return None   # handled by the process before this one (its chunk is handed on again)
            try:
                follow_up = self.dispatch.event(s, table_id, device, kind, item, at)
                if index is not None:
                    moved = self._move_mark(s, device, at, index + 1)   # handled and marked at once
                s.commit()
            except Exception as exc:
                # The event is kept in the raw stream; the worker counts the failure and goes on.
                s.rollback()
                log.exception("bridge: %r from %s failed", item, device)
                if index is not None:
                    self._skip(device, at, index)
                return exc
        if moved is not None:
            self._marks[device] = moved
        if follow_up is not None:
            try:
                follow_up()
            except Exception as exc:   # the event itself is handled; its settlement is recovered later
                log.exception("bridge: what follows %r from %s failed", item, device)
                return exc
        return None

    def _skip(self, device: str, at: datetime, index: int) -> None:
        """A failed event is not tried again by a later process either: it failed once, live."""
        try:
            with self.session_factory() as s:
                moved = self._move_mark(s, device, at, index + 1)
                s.commit()
            self._marks[device] = moved
        except Exception:
            log.exception("bridge: the mark of %s could not be moved past a failed event", device)
