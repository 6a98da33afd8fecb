"""What /healthz reports: database reachable, message queue reachable, scheduler and device process
alive, devices summary. No secrets."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import select, text
from sqlalchemy.orm import Session

from floor.models import ServiceHeartbeat

SCHEDULER_STALE = timedelta(seconds=45)
DEVICE_STALE = timedelta(seconds=10)
DEVICE_PROCESS_STALE = timedelta(seconds=20)   # the device process beats every 5 s


def beat(session: Session, name: str, info: dict | None = None, now: datetime | None = None) -> None:
    """Record that a service is alive (an upsert that works on SQLite and PostgreSQL alike)."""
    now = now or datetime.now(timezone.utc)
    row = session.get(ServiceHeartbeat, name)
    if row is None:
        session.add(ServiceHeartbeat(name=name, at=now, info=info))
    else:
        row.at = now
        row.info = info


def report(session: Session, now: datetime | None = None, message_queue: dict | None = None,
           devices_expected: bool = False) -> dict:
    """``message_queue``: what the caller found asking the queue (None: this floor runs without one);
    ``devices_expected``: the floor has devices, so a device process should run."""
    now = now or datetime.now(timezone.utc)
    out: dict = {"status": "ok"}
    if message_queue is not None:
        # reported first: a floor whose database is away still says whether its queue is
        out["message_queue"] = message_queue
    try:
        session.execute(text("SELECT 1"))
        out["database"] = {"ok": True, "dialect": session.get_bind().dialect.name}
    except Exception as exc:  # reported, not raised: health must answer when the database does not
        out["database"] = {"ok": False, "error": type(exc).__name__}
        out["status"] = "failing"
        return out
    beats = {b.name: b for b in session.execute(select(ServiceHeartbeat)).scalars()}
    sched = beats.get("scheduler")
    running = sched is not None and now - sched.at < SCHEDULER_STALE
    out["scheduler"] = {"running": running, "last_beat": sched.at.isoformat() if sched else None}
    holder = beats.get("device-process")
    # running or not, nothing more: /healthz answers anyone, and host names are nobody's business
    out["device_process"] = {"running": holder is not None and now - holder.at < DEVICE_PROCESS_STALE}
    devices = []
    for name, b in sorted(beats.items()):
        if not name.startswith("device:"):
            continue
        info = b.info or {}
        fresh = now - b.at < DEVICE_STALE
        devices.append({"name": name[len("device:"):], "table": info.get("table"), "kind": info.get("kind"),
                        "connected": bool(info.get("connected")) and fresh,
                        "state": info.get("state", "unknown") if fresh else "stale"})
    out["devices"] = {"count": len(devices), "connected": sum(d["connected"] for d in devices),
                      "items": devices}
    process_missing = devices_expected and not out["device_process"]["running"]
    queue_down = message_queue is not None and not message_queue.get("ok")
    if not running or process_missing or queue_down:
        out["status"] = "degraded"
    return out
