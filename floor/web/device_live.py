"""The live device page: every device's line as it happens, for an admin or a technician, and the last
hour of a device's stored raw stream as a capture file.

The page reads what the device process publishes to the ``devices`` room (devices/tap.py) while it is
open; the capture is the stream the floor keeps of each device (``DeviceChunk``), written in the
capture format the check, capture and replay commands read."""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from flask import Blueprint, Response, current_app, render_template, request

from devices import capture as capture_file
from devices.config import DEFAULT_BAUD, KINDS, load
from floor import audit, device_health
from floor.errors import BadInput, NotFound
from floor.web.extensions import db
from floor.web.policy import actor, allow
from floor.web.sockets import DEVICE_WATCHERS

bp = Blueprint("device_live", __name__)
MAX_MINUTES = 60


@bp.route("/devices/live")
@allow(*DEVICE_WATCHERS)
def page():
    return render_template("devices_live.html", devices=device_health.devices(db.session), device_kinds=KINDS)


def _line_of(name: str, info: dict) -> tuple[str, str, int]:
    """(kind, port, baudrate) of a device: its configuration where this floor has one, else what its
    health says (a simulated device of the demo floor) at its kind's line speed."""
    for config in load(current_app.config["FLOOR"].get("devices") or []):
        if config.name == name:
            return config.kind, config.port, config.baudrate
    kind = info.get("kind") or ""
    return kind, info.get("port") or "", DEFAULT_BAUD.get(kind, 0)


@bp.route("/devices/<name>/capture")
@allow(*DEVICE_WATCHERS)
def capture(name: str):
    """The last hour (``?minutes=`` up to 60) of a device's line as a capture file (JSON Lines)."""
    raw = request.args.get("minutes", str(MAX_MINUTES))
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_MINUTES:
        raise BadInput("minutes is a whole number from 1 to {most}", field="minutes", most=MAX_MINUTES)
    now = datetime.now(timezone.utc)
    return capture_response(name, now - timedelta(minutes=int(raw)), None, "device.capture", {"minutes": int(raw)})


def capture_response(name: str, since: datetime, until: datetime | None, action: str, after: dict) -> Response:
    """A device's stored raw stream from ``since`` (to ``until``, None: now) as a capture file to
    download, the download audited as ``action``; 404 for a device this floor does not know."""
    now = datetime.now(timezone.utc)
    known = {d["name"]: d for d in device_health.devices(db.session, now)}
    stream = device_health.stream(db.session, name, since, until)
    if name not in known and not stream:
        raise NotFound("no device named '{name}' on this floor", name=name)
    kind, port, baudrate = _line_of(name, known.get(name, {}))
    if kind not in capture_file.KINDS:
        raise NotFound("no device named '{name}' on this floor", name=name)
    started_at = stream[0][0] if stream else since
    body = capture_file.dumps(kind, port, baudrate, started_at, stream)
    audit.record(db.session, actor(), action, f"device:{name}", after={**after, "chunks": len(stream)})
    db.session.commit()
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", name)
    return Response(body, mimetype="application/x-ndjson",
                    headers={"Content-Disposition":
                             f'attachment; filename="{safe}-{started_at.strftime("%Y%m%dT%H%M%SZ")}.capture.jsonl"'})
