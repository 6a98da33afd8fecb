"""The bridge: what the readers hear goes to the floor.

It is the readers' Sink. For every call it opens its own database session (only names and ids
cross from the reader threads), stores the raw bytes as received, sends the live feed (wheel
states, numbers, cards) to the table's room at once, hands game events to the rounds service, and
records device health (with alerts on loss and faults).
"""
from __future__ import annotations

import logging
from datetime import datetime
from typing import Callable, Protocol

from sqlalchemy.orm import Session

from devices.events import FrameError
from devices.scanner import CardRead
from devices.shoe import CardDealt, CardDrawn, CoupStart, CutCard, Reply, SeqReused, ShoeError, ShoeResult
from devices.sink import DeviceHealth
from devices.wheel import WheelStatus, WinningNumber
from floor import device_health, notify
from floor.models import DeviceChunk

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
    def __init__(self, session_factory: Callable[[], Session], tables: dict[str, int | None],
                 kinds: dict[str, str], emit: Emit | None = None, dispatch: GameDispatch | None = None) -> None:
        """``tables`` maps device name → table id, ``kinds`` device name → wheel/shoe/scanner."""
        self.session_factory = session_factory
        self.tables = dict(tables)
        self.kinds = dict(kinds)
        self.emit = emit
        self.dispatch = dispatch

    # --- Sink -----------------------------------------------------------------------------

    def raw(self, device: str, data: bytes, arrived_at: datetime) -> None:
        if self.dispatch is not None and hasattr(self.dispatch, "chunk"):
            self.dispatch.chunk(device, data)
        with self.session_factory() as s:
            s.add(DeviceChunk(device=device, table_id=self.tables.get(device), arrived_at=arrived_at,
                              data=bytes(data)))
            s.commit()

    def events(self, device: str, events: list, arrived_at: datetime) -> None:
        table_id = self.tables.get(device)
        # The live feed first: a dealer watching the wheel should not wait for the database.
        if self.emit is not None and table_id is not None:
            for event in events:
                live = live_payload(event)
                if live is not None:
                    name, payload = live
                    self.emit(name, {"table_id": table_id, "device": device, **payload}, notify.table_room(table_id))
        if self.dispatch is None or table_id is None:
            return
        failed: Exception | None = None
        for event in events:
            if isinstance(event, Reply) or (isinstance(event, FrameError) and not isinstance(event, SeqReused)):
                continue
            failed = self._one(device, "event", event, arrived_at) or failed
        if failed is not None:
            raise failed

    def health(self, device: str, snapshot: DeviceHealth) -> None:
        with self.session_factory() as s:
            device_health.record(s, device, device_health.snapshot_info(snapshot), self.tables.get(device))
            s.commit()

    # --- one event, one transaction --------------------------------------------------------

    def _one(self, device: str, what: str, item, at: datetime) -> Exception | None:
        table_id = self.tables[device]
        kind = self.kinds.get(device, "")
        with self.session_factory() as s:
            try:
                follow_up = getattr(self.dispatch, what)(s, table_id, device, kind, item, at)
                s.commit()
                if follow_up is not None:
                    follow_up()
                return None
            except Exception as exc:
                # The event is kept in the raw stream; the reader counts the error and keeps reading.
                s.rollback()
                log.exception("bridge: %s %r from %s failed", what, item, device)
                return exc
