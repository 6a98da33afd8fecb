from __future__ import annotations

from flask import Blueprint, jsonify

from floor import health as health_svc
from floor.web.extensions import db
from floor.web.policy import public

bp = Blueprint("health", __name__)


@bp.route("/healthz")
@public
def healthz():
    body = health_svc.report(db.session)
    db.session.rollback()
    return jsonify(body), (200 if body["status"] != "failing" else 503)
