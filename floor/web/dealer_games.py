"""The dealer terminal of a live game table (betting, device feed, seat bets, decisions)."""
from __future__ import annotations

from flask import render_template

from floor import tables as tables_svc
from floor.models import Table
from floor.web.extensions import db


def render_terminal(table: Table):
    seated = tables_svc.occupants(db.session, [table.id])
    return render_template("dealer.html", table=tables_svc.table_json(table, seated))
