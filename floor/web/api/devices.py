from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import Schema, fields

from floor import device_health
from floor.web.extensions import db
from floor.web.policy import allow

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


@blp.route("")
@allow("floor_manager", "pit_boss", "admin")
@blp.response(200, DeviceSchema(many=True))
def list_devices():
    """Every device, connected or not: last frame age, error counts, last error."""
    return device_health.devices(db.session)
