"""Append-only, hash-chained audit log.

Each record carries the hash of the one before it, so editing or deleting any row breaks the chain
from that row on. Records are written in the caller's transaction: the change and its record commit
or roll back together.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.orm import Session

from floor.actors import Actor
from floor.models import AuditRecord

GENESIS = "0" * 64
_LOCK_KEY = 0x466C6F6F72  # "Floor": one PostgreSQL advisory lock serialises appends to the chain


def _default(value: Any) -> Any:
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    return str(value)


def canonical(value: Any) -> str | None:
    if value is None:
        return None
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=_default, ensure_ascii=False)


def _digest(rec) -> str:
    at = rec.at.astimezone(timezone.utc).isoformat(timespec="microseconds")
    parts = [rec.prev_hash, at, str(rec.actor_id or ""), rec.actor, rec.role, rec.terminal,
             rec.action, rec.subject, rec.before or "", rec.after or ""]
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def record(session: Session, actor: Actor, action: str, subject: str,
           before: Any = None, after: Any = None, at: datetime | None = None) -> AuditRecord:
    """Append one record to the chain in the caller's transaction."""
    bind = session.get_bind()
    if bind.dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _LOCK_KEY})
    session.flush()  # earlier records of this same transaction must be visible below
    last = session.execute(select(AuditRecord.hash).order_by(AuditRecord.id.desc()).limit(1)).scalar()
    rec = AuditRecord(
        at=at or datetime.now(timezone.utc),
        actor_id=actor.staff_id, actor=actor.name, role=actor.role, terminal=actor.terminal,
        action=action, subject=subject, before=canonical(before), after=canonical(after),
        prev_hash=last or GENESIS,
    )
    rec.hash = _digest(rec)
    session.add(rec)
    session.flush()
    return rec


@dataclass
class ChainReport:
    ok: bool
    checked: int
    broken_id: int | None = None
    reason: str = ""


def verify(session: Session, batch: int = 5000) -> ChainReport:
    """Walk the whole chain in id order; name the first record whose hash or link is wrong."""
    prev = GENESIS
    checked = 0
    last_id = 0
    while True:
        # Plain rows, not entities: a long chain must not fill (or disturb) the caller's identity map.
        rows = session.execute(
            select(*AuditRecord.__table__.columns).where(AuditRecord.id > last_id).order_by(AuditRecord.id).limit(batch)
        ).all()
        if not rows:
            return ChainReport(True, checked)
        for rec in rows:
            if rec.prev_hash != prev:
                return ChainReport(False, checked, rec.id, "previous-hash link does not match the record before it")
            if _digest(rec) != rec.hash:
                return ChainReport(False, checked, rec.id, "content does not match its hash")
            prev = rec.hash
            checked += 1
            last_id = rec.id
