from __future__ import annotations

from flask_smorest import Blueprint

from floor import alerts as alerts_svc
from floor.web.api.schemas import AlertSchema, EmptySchema
from floor.web.extensions import db
from floor.web.policy import actor, allow

blp = Blueprint("api_alerts", __name__, url_prefix="/api/alerts", description="Floor alerts")


@blp.route("")
@allow("floor_manager", "pit_boss", "admin")
@blp.response(200, AlertSchema(many=True))
def list_alerts():
    """Alerts nobody has acknowledged yet, newest first."""
    return [alerts_svc.alert_json(a) for a in alerts_svc.open_alerts(db.session)]


@blp.route("/<int:alert_id>/acknowledge", methods=["POST"])
@allow("floor_manager", "pit_boss", "admin")
@blp.arguments(EmptySchema)
@blp.response(200, AlertSchema)
def acknowledge(_args, alert_id: int):
    a = alerts_svc.acknowledge(db.session, actor(), alert_id)
    db.session.commit()
    return alerts_svc.alert_json(a)
