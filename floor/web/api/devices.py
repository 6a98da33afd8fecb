from __future__ import annotations

from datetime import datetime, timedelta, timezone

from flask import request
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from devices.commands import COMMANDS
from floor import audit, device_health
from floor.errors import BadInput, NotFound
from floor.web import device_commands, device_live
from floor.web.api.schemas import Strict
from floor.web.extensions import db
from floor.web.policy import actor, allow

blp = Blueprint("api_devices", __name__, url_prefix="/api/devices", description="Table devices and their health")


class DeviceSchema(Schema):
    name = fields.String()
    table = fields.String()
    kind = fields.String()
    port = fields.String()
    state = fields.String()
    status = fields.String(metadata={"description": "ok | lost | fault | disconnected | unknown"})
    connected = fields.Boolean()
    lost = fields.Boolean()
    fault = fields.String(allow_none=True)
    frames = fields.Integer()
    errors = fields.Integer()
    frame_errors = fields.Integer()
    io_errors = fields.Integer()
    reconnects = fields.Integer()
    last_error = fields.String(allow_none=True)
    last_frame_at = fields.String(allow_none=True)
    last_frame_age_s = fields.Float(allow_none=True)
    stale = fields.Boolean()


class CommandSchema(Strict):
    command = fields.String(required=True, validate=validate.Length(min=1, max=40), metadata={
        "description": "wheel: " + ", ".join(COMMANDS["wheel"]) + "; shoe: " + ", ".join(COMMANDS["shoe"])})
    code = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(min=0, max=99),
                          metadata={"description": "the shoe's clear_error: the error code to clear"})


class CommandResultSchema(Schema):
    device = fields.String()
    command = fields.String()
    sent = fields.List(fields.String(), metadata={"description": "the devices the command was written to"})


@blp.route("")
@allow("floor_manager", "pit_boss", "admin", "technician")
@blp.response(200, DeviceSchema(many=True))
def list_devices():
    """Every device, connected or not: last frame age, error counts, last error."""
    return device_health.devices(db.session)


@blp.route("/<name>/commands", methods=["POST"])
@allow("pit_boss", "admin")
@blp.arguments(CommandSchema)
@blp.response(200, CommandResultSchema)
def command(args, name: str):
    """Send a command to a device (reset or poll a wheel, lock or unlock a shoe...). Answered once the
    device process has written it to the port; 409 when the device is not connected, 503 when no
    device process answers."""
    known = {d["name"]: d for d in device_health.devices(db.session)}
    if name not in known:
        raise NotFound("no device named '{name}' on this floor", name=name)
    kind = known[name].get("kind")
    if args["command"] not in COMMANDS.get(kind, ()):
        if not COMMANDS.get(kind):
            raise BadInput("a {kind} takes no command", field="command", kind=kind)
        raise BadInput("a {kind} has no command '{command}' (it has: {commands})", field="command", kind=kind,
                       command=args["command"], commands=list(COMMANDS[kind]))
    audit.record(db.session, actor(), "device.command", f"device:{name}",
                 after={"command": args["command"], "code": args["code"]})
    db.session.flush()
    sent = device_commands.send(args["command"], device=name, code=args["code"])
    db.session.commit()
    return {"device": name, "command": args["command"], "sent": sent}


EXPORT_MAX = timedelta(hours=24)


def _when(name: str, default: datetime) -> datetime:
    raw = (request.args.get(name) or "").strip()
    if not raw:
        return default
    try:
        at = datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        raise BadInput("'{field}' is a date and time, e.g. 2026-12-03T05:00:00Z", field=name) from None
    return at if at.tzinfo else at.replace(tzinfo=timezone.utc)


@blp.route("/<name>/capture")
@allow("pit_boss", "admin")
@blp.doc(parameters=[
    {"in": "query", "name": "from", "schema": {"type": "string", "format": "date-time"},
     "description": "start of the range (default: an hour before 'to')"},
    {"in": "query", "name": "to", "schema": {"type": "string", "format": "date-time"},
     "description": "end of the range (default: now); at most 24 hours after 'from'"}],
    responses={"200": {"description": "the device's stored raw stream in the range as a capture file (JSON Lines: "
                                      "a header line, then one line per chunk with its arrival time), which "
                                      "`flask floor devices replay` plays back and `check --file` judges",
                       "content": {"application/x-ndjson": {}}}})
def export_capture(name: str):
    """A device's stored raw stream for a time range, as a capture file."""
    now = datetime.now(timezone.utc)
    until = _when("to", now)
    since = _when("from", until - timedelta(hours=1))
    if since >= until:
        raise BadInput("'from' must be before 'to'", field="from")
    if until - since > EXPORT_MAX:
        raise BadInput("a capture covers at most {hours} hours", field="to", hours=int(EXPORT_MAX.total_seconds() // 3600))
    return device_live.capture_response(name, since, until, "device.capture_export",
                                        {"from": since.isoformat(), "to": until.isoformat()})
