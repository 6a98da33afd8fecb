"""The admin's pages: the floor's layout (games at their limits, tables and their seats)."""
from __future__ import annotations

from flask import Blueprint, render_template

from floor import layout
from floor.models.tables import POKER_VARIANTS, STRUCTURES, TABLE_KINDS
from floor.web.api.layout import LayoutOut
from floor.web.extensions import db
from floor.web.policy import allow

bp = Blueprint("admin", __name__)


@bp.route("/admin/floor")
@allow("admin")
def floor_layout():
    return render_template("admin_floor.html", layout=LayoutOut().dump(layout.layout(db.session)),
                           kinds=[str(k) for k in TABLE_KINDS], variants=POKER_VARIANTS, structures=STRUCTURES,
                           max_seats=layout.MAX_SEATS, max_number=layout.MAX_TABLE_NUMBER)
