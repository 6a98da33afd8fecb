"""The dealer terminal of a poker table (button, blinds, sit-outs, tickets, warnings)."""
from __future__ import annotations

from flask import current_app, render_template

from floor.models import Table
from floor.poker import conduct
from floor.poker import table as poker_svc
from floor.web.api.dealer_poker import TerminalSchema
from floor.web.extensions import db


def render_terminal(table: Table):
    state = TerminalSchema().dump(poker_svc.terminal(db.session, table, current_app.config["HOUSE"]))
    reasons = [{"code": k, "text": v} for k, v in conduct.WARNING_REASONS.items()]
    return render_template("dealer_poker.html", table=table, state=state, reasons=reasons)
