"""Pit boss pages beyond the console: the poker showdown tool."""
from __future__ import annotations

from flask import Blueprint, render_template
from sqlalchemy import select

from floor import disputes
from floor.models import Table
from floor.web.extensions import db
from floor.web.policy import allow

bp = Blueprint("pit", __name__, url_prefix="/pit")


@bp.route("/showdown")
@allow("pit_boss", "admin")
def showdown():
    tables = db.session.execute(select(Table).where(Table.kind == "poker").order_by(Table.number)).scalars().all()
    return render_template("pit_showdown.html",
                           tables=[{"number": t.number, "name": t.name, "variant": t.game.variant} for t in tables],
                           rulings=[disputes.ruling_json(r) for r in disputes.rulings(db.session, limit=20)])
