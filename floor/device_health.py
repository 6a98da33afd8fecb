"""Device health as the floor sees it: stored heartbeats per device, alerts on loss and faults."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import select
from sqlalchemy.orm import Session

from floor import alerts, health, notify
from floor.actors import Actor
from floor.errors import Msg
from floor.models import AlertKind, AlertSeverity, DeviceChunk, ServiceHeartbeat

STALE = timedelta(seconds=10)   # no beat from the device process for this long: unknown


def _problem(info: dict) -> str | None:
    if info.get("lost"):
        return "lost"
    if info.get("fault"):
        return "fault"
    if not info.get("connected"):
        return "disconnected"
    return None


def record(session: Session, name: str, info: dict, table_id: int | None, now: datetime | None = None) -> None:
    """Store a device's health snapshot; raise an alert when it turns lost, faulty or unplugged."""
    key = f"device:{name}"
    previous = session.get(ServiceHeartbeat, key)
    # the time of the write, taken once the transaction holds its row (on SQLite, once it had the lock)
    now = now or datetime.now(timezone.utc)
    before = _problem(previous.info or {}) if previous is not None else None
    health.beat(session, key, info, now)
    after = _problem(info)
    if after != before:
        payload = {"device": name, **info}
        notify.publish(session, "device.health", payload, "role:floor_manager", "role:pit_boss", "role:admin",
                       *( [notify.table_room(table_id)] if table_id else []))
        # A reader starting up or stopped on purpose (a shutdown) is not a fault on the floor.
        if after is not None and info.get("state") not in ("starting", "stopped"):
            values = {"kind": info.get("kind", "device"), "name": name, "table": info.get("table")}
            message = {"lost": Msg("{kind} {name} at table {table} lost (no heartbeat mid-round)", **values),
                       "fault": Msg("{kind} {name} at table {table} reports a fault: {fault}", fault=info.get("fault"),
                                    **values),
                       "disconnected": Msg("{kind} {name} at table {table} disconnected", **values)}[after]
            alerts.raise_alert(session, Actor.device(name, table_id), AlertKind(f"device_{after}"), message,
                               severity=AlertSeverity.CRITICAL if after in ("lost", "fault") else AlertSeverity.WARNING,
                               table_id=table_id, data={"device": name, "last_error": info.get("last_error")})


def snapshot_info(h) -> dict:
    """A DeviceHealth (devices.sink) as plain JSON for storage and pages."""
    def iso(v):
        return v.isoformat() if v else None
    return {"table": h.table, "kind": h.kind, "port": h.port, "state": h.state, "connected": h.connected,
            "lost": h.lost, "fault": h.fault, "frames": h.frames, "duplicates": h.duplicates,
            "frame_errors": h.frame_errors, "io_errors": h.io_errors, "sink_errors": h.sink_errors,
            "errors": h.errors, "reconnects": h.reconnects, "last_frame_at": iso(h.last_frame_at),
            "last_error": h.last_error, "last_error_at": iso(h.last_error_at)}


def devices(session: Session, now: datetime | None = None) -> list[dict]:
    """Every device the floor has heard of, with the age of its last frame."""
    now = now or datetime.now(timezone.utc)
    out = []
    for beat in session.execute(select(ServiceHeartbeat).where(ServiceHeartbeat.name.like("device:%"))
                                .order_by(ServiceHeartbeat.name)).scalars():
        info = dict(beat.info or {})
        last = info.get("last_frame_at")
        age = (now - datetime.fromisoformat(last)).total_seconds() if last else None
        stale = now - beat.at > STALE
        out.append({"name": beat.name[len("device:"):], **info, "last_frame_age_s": age,
                    "reported_at": beat.at.isoformat(), "stale": stale,
                    "status": "unknown" if stale else (_problem(info) or "ok")})
    return out


def at_table(session: Session, table_number: int | str, kind: str) -> list[str]:
    """The names of the devices of ``kind`` the floor has heard of at a table."""
    out = []
    for beat in session.execute(select(ServiceHeartbeat).where(ServiceHeartbeat.name.like("device:%"))).scalars():
        info = beat.info or {}
        if str(info.get("table")) == str(table_number) and info.get("kind") == kind:
            out.append(beat.name[len("device:"):])
    return out


def stream(session: Session, device: str, since: datetime, until: datetime | None = None) -> list[tuple[datetime, bytes]]:
    """The raw stream the floor kept of ``device`` (every chunk as it arrived, an empty one at each
    opening of its port) from ``since`` on, in the order it arrived."""
    q = select(DeviceChunk.arrived_at, DeviceChunk.data).where(DeviceChunk.device == device,
                                                              DeviceChunk.arrived_at >= since)
    if until is not None:
        q = q.where(DeviceChunk.arrived_at <= until)
    return [(at, bytes(data)) for at, data in session.execute(q.order_by(DeviceChunk.arrived_at, DeviceChunk.id))]
