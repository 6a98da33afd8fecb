from __future__ import annotations

import redis
from flask import Blueprint, current_app, jsonify

from floor import health as health_svc
from floor.web.extensions import db
from floor.web.policy import public

bp = Blueprint("health", __name__)
QUEUE_TIMEOUT_S = 0.5   # a load balancer's check must answer quickly, Redis or not


def _message_queue() -> dict | None:
    """Ask the message queue (Redis) for a PONG: live updates, timer wake-ups and device commands
    travel on it. None on a floor without one (a single process)."""
    url = current_app.config["FLOOR"]["app"].get("message_queue")
    if not url:
        return None
    client = current_app.extensions.get("floor_health_redis")
    if client is None:
        client = redis.Redis.from_url(url, socket_connect_timeout=QUEUE_TIMEOUT_S, socket_timeout=QUEUE_TIMEOUT_S)
        current_app.extensions["floor_health_redis"] = client
    try:
        client.ping()
        return {"ok": True}
    except (redis.RedisError, OSError) as exc:   # reported, not raised: health answers when Redis does not
        return {"ok": False, "error": type(exc).__name__}


@bp.route("/healthz")
@public
def healthz():
    cfg = current_app.config["FLOOR"]
    body = health_svc.report(db.session, message_queue=_message_queue(),
                             devices_expected=bool(cfg.get("devices")) and not cfg["app"].get("simulate_devices"))
    db.session.rollback()
    return jsonify(body), (200 if body["status"] != "failing" else 503)
