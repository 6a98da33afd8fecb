"""Raising and acknowledging floor alerts."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import select
from sqlalchemy.orm import Session

from floor import audit, notify
from floor.actors import Actor
from floor.errors import BadInput, Conflict, Msg, NotAllowed, NotFound
from floor.models import Alert, AlertKind, AlertSeverity


def _audit_record(a: Alert) -> dict:
    return {"id": a.id, "at": a.at.isoformat(), "kind": a.kind, "severity": a.severity, "table_id": a.table_id,
            "message": a.sentence, "data": a.data, "acknowledged": a.acknowledged}


def raise_alert(session: Session, actor: Actor, kind: AlertKind | str, message: str | Msg, *,
                severity: AlertSeverity | str = AlertSeverity.WARNING, table_id: int | None = None,
                data: dict | None = None, at: datetime | None = None) -> Alert:
    """``kind`` and ``severity`` are closed sets: an unknown one is a ValueError here, not a row."""
    kind, severity = AlertKind(kind), AlertSeverity(severity)
    if isinstance(message, Msg):   # the English text in its column, the template beside it
        data = {**(data or {}), "msg": message.to_json()}
    at = at or datetime.now(timezone.utc)
    alert = Alert(kind=kind, severity=severity, table_id=table_id, message=str.__str__(message), data=data, at=at)
    session.add(alert)
    session.flush()
    audit.record(session, actor, "alert.raise", f"alert:{alert.id}", after=_audit_record(alert), at=at)
    rooms = ["role:floor_manager", "role:pit_boss"] + ([notify.table_room(table_id)] if table_id else [])
    notify.publish(session, "alert", alert, *rooms)   # the web layer shapes it as the API does
    return alert


# Alerts only a pit boss may close, and only with a note of what he found (the wheel's integrity).
NOTE_REQUIRED = ("possible_bias", "direction_not_alternating", "speed_out_of_range")


def acknowledge(session: Session, actor: Actor, alert_id: int, note: str | None = None,
                at: datetime | None = None) -> Alert:
    alert = session.get(Alert, alert_id)
    if alert is None:
        raise NotFound("no alert {alert_id}", alert_id=alert_id)
    if alert.acknowledged_at is not None:
        raise Conflict("this alert was already acknowledged")
    note = (note or "").strip()[:500] or None
    if alert.kind in NOTE_REQUIRED:
        if actor.role not in ("pit_boss", "admin"):
            raise NotAllowed("a pit boss acknowledges a wheel alert", code="pit_boss_only")
        if note is None:
            raise BadInput("say what was found: a note is needed to acknowledge this alert", field="note")
    alert.acknowledged_at = at or datetime.now(timezone.utc)
    alert.acknowledged_by = actor.staff_id
    alert.acknowledged_note = note
    audit.record(session, actor, "alert.acknowledge", f"alert:{alert.id}", after={"note": note} if note else None,
                 at=alert.acknowledged_at)
    notify.publish(session, "alert.acknowledged", {"id": alert.id}, "role:floor_manager", "role:pit_boss")
    return alert


def open_alerts(session: Session, limit: int = 100) -> list[Alert]:
    return list(session.execute(
        select(Alert).where(Alert.acknowledged_at.is_(None)).order_by(Alert.id.desc()).limit(limit)
    ).scalars())
