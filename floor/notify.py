"""Live updates, sent only after the transaction that caused them commits.

Domain code calls publish(session, ...) next to the change; the web layer installs the emitter
(Socket.IO, or its Redis message queue in the device process). A rolled-back change sends nothing.
"""
from __future__ import annotations

import logging
from typing import Any, Callable

from sqlalchemy import event
from sqlalchemy.orm import Session

log = logging.getLogger(__name__)

Emitter = Callable[[str, dict, "str | list[str]"], None]   # (event, payload, room or rooms)
_emitter: Emitter | None = None
_KEY = "floor_outbox"


def set_emitter(emitter: Emitter | None) -> None:
    global _emitter
    _emitter = emitter


def emit(event_name: str, payload: dict[str, Any], room: str) -> None:
    """Send at once, outside any transaction (the devices' live feed)."""
    if _emitter is not None:
        _emitter(event_name, payload, room)


def publish(session: Session, event_name: str, payload: dict[str, Any], *rooms: str) -> None:
    """One update for several rooms goes out as one emit, so a client in two of them (a pit boss
    watching a table is also in the floor's room) gets it once."""
    rooms = rooms or ("floor",)
    session.info.setdefault(_KEY, []).append((event_name, payload, rooms[0] if len(rooms) == 1 else list(rooms)))


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
        try:
            _emitter(event_name, payload, room)
        except Exception:  # a broken socket must never undo or block a committed change
            log.exception("live update %s to %s failed", event_name, room)


@event.listens_for(Session, "after_rollback")
def _drop(session: Session) -> None:
    if session.in_nested_transaction():   # a savepoint, not the transaction itself
        return
    session.info.pop(_KEY, None)
