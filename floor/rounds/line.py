"""Betting judged by the line's own time.

A device's line closes betting ("no more bets" from the wheel, a coup starting or a card out of the
shoe, a card over the scanner) at the moment its bytes arrived, stamped by the reader thread; the
device process writes that moment (a ``LineLock``) on a lane of its own, before the table's work,
however far behind that work is. Whoever takes a bet reads it:

- the bet route refuses a bet on a round whose table has a line lock since the round opened, and a
  bet while the device process is behind its line by more than ``line_lag_ms`` (a ``LinePause``:
  the lock may have arrived and not be known yet);
- settlement never pays a bet placed after its round's first line lock: it is refunded and the pit
  alerted (``late_bets``).
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from floor import alerts, audit, notify
from floor.actors import Actor
from floor.errors import Msg
from floor.models import AlertKind, AlertSeverity, LineLock, LinePause, Table

LOCKS = ("no_more_bets", "result", "coup_start", "card")


def record_lock(session: Session, table_id: int, device: str, arrived_at: datetime, what: str) -> LineLock:
    """The line closed betting at ``arrived_at`` (the caller commits at once). Once: the same lock
    handed on again after a crash (its chunk's arrival time is its own) is the one already kept."""
    kept = session.execute(select(LineLock).where(LineLock.table_id == table_id, LineLock.device == device,
                                                  LineLock.arrived_at == arrived_at, LineLock.what == what)
                           .limit(1)).scalar_one_or_none()
    if kept is not None:
        return kept
    lock = LineLock(table_id=table_id, device=device, arrived_at=arrived_at, what=what)
    session.add(lock)
    return lock


def first_lock(session: Session, table_id: int, since: datetime) -> LineLock | None:
    """The first line lock at the table at or after ``since`` (a round's opening)."""
    return session.execute(select(LineLock).where(LineLock.table_id == table_id, LineLock.arrived_at >= since)
                           .order_by(LineLock.arrived_at, LineLock.id).limit(1)).scalar_one_or_none()


def pause_of(session: Session, table_id: int) -> LinePause | None:
    """The open pause at the table, if betting is paused there."""
    return session.execute(select(LinePause).where(LinePause.table_id == table_id, LinePause.ended_at.is_(None))
                           .order_by(LinePause.id.desc()).limit(1)).scalar_one_or_none()


def pause_reason(session: Session, p: LinePause) -> Msg:
    table = session.get(Table, p.table_id)
    return Msg("Betting paused at table {table}: the device process is {ms} ms behind the line of {device}",
               table=table.number if table else p.table_id, ms=p.behind_ms, device=p.device)


def pause(session: Session, table_id: int, device: str, behind_ms: int, at: datetime) -> LinePause | None:
    """The device process fell behind the line of ``device``: betting at its table pauses, and the
    dealer and the pit are told why. None when it is already paused."""
    if pause_of(session, table_id) is not None:
        return None
    p = LinePause(table_id=table_id, device=device, started_at=at, behind_ms=int(behind_ms))
    session.add(p)
    session.flush()
    actor = Actor.device(device, table_id)
    reason = pause_reason(session, p)
    audit.record(session, actor, "table.betting_paused", f"table:{table_id}",
                 after={"device": device, "behind_ms": p.behind_ms}, at=at)
    alerts.raise_alert(session, actor, AlertKind.BETTING_PAUSED, reason, severity=AlertSeverity.WARNING,
                       table_id=table_id, data={"device": device, "behind_ms": p.behind_ms}, at=at)
    _changed(session, table_id, True, reason, behind_ms=p.behind_ms, device=device)
    return p


def resume(session: Session, table_id: int, device: str, at: datetime) -> bool:
    """The device process caught up with its line: betting at the table may go on."""
    p = pause_of(session, table_id)
    if p is None:
        return False
    session.execute(update(LinePause).where(LinePause.id == p.id, LinePause.ended_at.is_(None)).values(ended_at=at))
    audit.record(session, Actor.device(device, table_id), "table.betting_resumed", f"table:{table_id}",
                 before={"behind_ms": p.behind_ms}, at=at)
    _changed(session, table_id, False, None, device=device)
    return True


def _changed(session: Session, table_id: int, paused: bool, reason: Msg | None, **values) -> None:
    notify.publish(session, "table.betting_paused", {"table_id": table_id, "paused": paused,
                                                     "reason": reason, **values},
                   notify.table_room(table_id), "floor", "role:pit_boss", "role:floor_manager")
