from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import fields, validate

from floor import alerts as alerts_svc
from floor.web.api.schemas import AlertSchema, Strict
from floor.web.extensions import db
from floor.web.policy import actor, allow

blp = Blueprint("api_alerts", __name__, url_prefix="/api/alerts", description="Floor alerts")


@blp.route("")
@allow("floor_manager", "pit_boss", "admin")
@blp.response(200, AlertSchema(many=True))
def list_alerts():
    """Alerts nobody has acknowledged yet, newest first."""
    return alerts_svc.open_alerts(db.session)


class AcknowledgeIn(Strict):
    note = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=500),
                         metadata={"description": "what was found (required for a wheel alert)"})


@blp.route("/<int:alert_id>/acknowledge", methods=["POST"])
@allow("floor_manager", "pit_boss", "admin")
@blp.arguments(AcknowledgeIn)
@blp.response(200, AlertSchema)
def acknowledge(args, alert_id: int):
    """Acknowledge an alert; a wheel alert needs a pit boss and a note of what he found (audited)."""
    a = alerts_svc.acknowledge(db.session, actor(), alert_id, args["note"])
    db.session.commit()
    return a
