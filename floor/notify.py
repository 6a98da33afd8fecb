"""Live updates, sent only after the transaction that caused them commits.

Domain code calls publish(session, ...) next to the change; the web layer installs the emitter
(Socket.IO, or its Redis message queue in the device process). A rolled-back change sends nothing.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable

from sqlalchemy import event
from sqlalchemy.orm import Session

log = logging.getLogger(__name__)

Emitter = Callable[[str, dict, "str | list[str]"], None]   # (event, payload, room or rooms)
Shaper = Callable[[Any], dict]   # a domain object (a model, a dataclass) -> its JSON, as the API sends it
_emitter: Emitter | None = None
_shaper: Shaper | None = None
_KEY = "floor_outbox"
BATCH_S = 0.25   # a batched update (bets at a table) goes out at most this often per round


def set_emitter(emitter: Emitter | None, shaper: Shaper | None = None) -> None:
    """``shaper``: how the web layer turns a domain object published as a payload into JSON."""
    global _emitter, _shaper
    _emitter, _shaper = emitter, shaper


def live() -> bool:
    """Whether live updates go anywhere (an emitter is installed): a costly one is not worked out for nobody."""
    return _emitter is not None


def emit(event_name: str, payload: dict[str, Any], room: str) -> None:
    """Send at once, outside any transaction (the devices' live feed)."""
    if _emitter is not None:
        _emitter(event_name, payload, room)


def publish(session: Session, event_name: str, payload: Any, *rooms: str) -> None:
    """One update for several rooms goes out as one emit, so a client in two of them (a pit boss
    watching a table is also in the floor's room) gets it once. ``payload``: a dict, or a model or
    dataclass the installed shaper turns into one now (the object is current; after the commit it
    may be expired)."""
    rooms = rooms or ("floor",)
    if not isinstance(payload, dict) and _shaper is not None:
        payload = _shaper(payload)
    session.info.setdefault(_KEY, []).append((event_name, payload, rooms[0] if len(rooms) == 1 else list(rooms)))


def publish_batched(session: Session, event_name: str, key: dict[str, Any], items: str, item: dict[str, Any],
                    room: str) -> None:
    """An update that may come many times a second (a bet burst): the first goes out at once, those
    that follow within ``BATCH_S`` go out together as one emit when it is over, as ``{**key, items:
    [item, ...]}``. Every reader gets every item, in order, without one emit per item to every
    client in the room."""
    session.info.setdefault(_KEY, []).append((event_name, _Batched(key, items, item), room))


class _Batched:
    __slots__ = ("key", "items", "item")

    def __init__(self, key: dict, items: str, item: dict) -> None:
        self.key, self.items, self.item = key, items, item


class _Batcher:
    """The pending items of each batched update (event, room, key), and when each last went out."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: dict[tuple, tuple[dict, str, list]] = {}
        self._sent_at: dict[tuple, float] = {}

    def add(self, event_name: str, batched: _Batched, room: str) -> None:
        ident = (event_name, room, tuple(sorted(batched.key.items())))
        now = time.monotonic()
        with self._lock:
            waiting = self._pending.get(ident)
            if waiting is not None:            # a flush is due: this item goes with it
                waiting[2].append(batched.item)
                return
            last = self._sent_at.get(ident)
            if last is None or now - last >= BATCH_S:
                self._sent_at[ident] = now
                self._forget_old(now)
                items = [batched.item]
            else:
                self._pending[ident] = (batched.key, batched.items, [batched.item])
                timer = threading.Timer(last + BATCH_S - now, self._flush, (event_name, room, ident))
                timer.daemon = True
                timer.start()
                return
        _send_one(event_name, {**batched.key, batched.items: items}, room)

    def _flush(self, event_name: str, room: str, ident: tuple) -> None:
        with self._lock:
            key, name, items = self._pending.pop(ident)
            self._sent_at[ident] = time.monotonic()
        _send_one(event_name, {**key, name: items}, room)

    def _forget_old(self, now: float) -> None:
        if len(self._sent_at) > 1000:          # rounds long over
            for ident, at in list(self._sent_at.items()):
                if now - at >= BATCH_S and ident not in self._pending:
                    del self._sent_at[ident]


_batcher = _Batcher()


def _send_one(event_name: str, payload: dict, room: "str | list[str]") -> None:
    emitter = _emitter
    if emitter is None:
        return
    try:
        emitter(event_name, payload, room)
    except Exception:  # a broken socket must never undo or block a committed change
        log.exception("live update %s to %s failed", event_name, room)


def table_room(table_id: int) -> str:
    return f"table:{table_id}"


def role_room(role: str) -> str:
    return f"role:{role}"


@event.listens_for(Session, "after_commit")
def _send(session: Session) -> None:
    if session.in_nested_transaction():   # a savepoint, not the transaction itself
        return
    outbox = session.info.pop(_KEY, None)
    if not outbox or _emitter is None:
        return
    for event_name, payload, room in outbox:
        if isinstance(payload, _Batched):
            _batcher.add(event_name, payload, room)
        else:
            _send_one(event_name, payload, room)


@event.listens_for(Session, "after_rollback")
def _drop(session: Session) -> None:
    if session.in_nested_transaction():   # a savepoint, not the transaction itself
        return
    session.info.pop(_KEY, None)
