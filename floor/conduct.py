"""Bans (and, built on them, warnings): who may not be listed or seated, why, until when."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from floor import audit, notify
from floor.actors import Actor
from floor.errors import BadInput
from floor.models import Ban


def ban_json(b: Ban) -> dict:
    return {"id": b.id, "player_id": b.player_id, "scope": b.scope, "reason": b.reason,
            "decided_by": b.decided_by, "starts_at": b.starts_at.isoformat(),
            "expires_at": b.expires_at.isoformat() if b.expires_at else None,
            "lifted_at": b.lifted_at.isoformat() if b.lifted_at else None, "lift_reason": b.lift_reason}


def active_ban(session: Session, player_id: int, at: datetime | None = None, scope: str = "poker_room") -> Ban | None:
    at = at or datetime.now(timezone.utc)
    return session.execute(
        select(Ban).where(Ban.player_id == player_id, Ban.scope == scope, Ban.lifted_at.is_(None),
                          Ban.starts_at <= at, or_(Ban.expires_at.is_(None), Ban.expires_at > at))
        .order_by(Ban.id.desc()).limit(1)
    ).scalar_one_or_none()


def ban(session: Session, actor: Actor, player_id: int, reason: str, until: datetime | None,
        scope: str = "poker_room", now: datetime | None = None) -> Ban:
    if not (reason or "").strip():
        raise BadInput("a ban needs a reason", field="reason")
    b = Ban(player_id=player_id, scope=scope, reason=reason.strip(), decided_by=actor.staff_id,
            starts_at=now or datetime.now(timezone.utc), expires_at=until)
    session.add(b)
    session.flush()
    audit.record(session, actor, "ban.create", f"player:{player_id}", after=ban_json(b))
    notify.publish(session, "bans.changed", {"player_id": player_id}, "role:floor_manager", "role:pit_boss")
    return b
