"""Raising and acknowledging floor alerts."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import select
from sqlalchemy.orm import Session

from floor import audit, notify
from floor.actors import Actor
from floor.errors import Conflict, Msg, NotFound
from floor.models import Alert


def alert_json(a: Alert) -> dict:
    # The sentence as a Msg when it was raised as one: the web layer says it in the reader's language.
    kept = (a.data or {}).get("msg")
    message = Msg.from_json(kept) if isinstance(kept, dict) and "template" in kept else a.message
    return {"id": a.id, "at": a.at.isoformat(), "kind": a.kind, "severity": a.severity,
            "table_id": a.table_id, "message": message, "data": a.data,
            "acknowledged": a.acknowledged_at is not None}


def raise_alert(session: Session, actor: Actor, kind: str, message: str | Msg, *, severity: str = "warning",
                table_id: int | None = None, data: dict | None = None, at: datetime | None = None) -> Alert:
    if isinstance(message, Msg):   # the English text in its column, the template beside it
        data = {**(data or {}), "msg": message.to_json()}
    at = at or datetime.now(timezone.utc)
    alert = Alert(kind=kind, severity=severity, table_id=table_id, message=str.__str__(message), data=data, at=at)
    session.add(alert)
    session.flush()
    audit.record(session, actor, "alert.raise", f"alert:{alert.id}", after=alert_json(alert), at=at)
    rooms = ["role:floor_manager", "role:pit_boss"] + ([notify.table_room(table_id)] if table_id else [])
    notify.publish(session, "alert", alert_json(alert), *rooms)
    return alert


def acknowledge(session: Session, actor: Actor, alert_id: int) -> Alert:
    alert = session.get(Alert, alert_id)
    if alert is None:
        raise NotFound("no alert {alert_id}", alert_id=alert_id)
    if alert.acknowledged_at is not None:
        raise Conflict("this alert was already acknowledged")
    alert.acknowledged_at = datetime.now(timezone.utc)
    alert.acknowledged_by = actor.staff_id
    audit.record(session, actor, "alert.acknowledge", f"alert:{alert.id}")
    notify.publish(session, "alert.acknowledged", {"id": alert.id}, "role:floor_manager", "role:pit_boss")
    return alert


def open_alerts(session: Session, limit: int = 100) -> list[Alert]:
    return list(session.execute(
        select(Alert).where(Alert.acknowledged_at.is_(None)).order_by(Alert.id.desc()).limit(limit)
    ).scalars())
