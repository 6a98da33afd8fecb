"""The dealer terminal of a live game table (betting, device feed, seat bets, decisions)."""
from __future__ import annotations

from flask import current_app, render_template

from floor import rounds
from floor.games import roulette
from floor.models import Table
from floor.web.api.round_schemas import TableStateSchema
from floor.web.extensions import db


def render_terminal(table: Table):
    house = current_app.config["HOUSE"]
    state = TableStateSchema().dump(rounds.table_state(db.session, table.id, house))
    layout = {}
    if table.kind == "roulette":
        for b in roulette.all_bets():
            layout.setdefault(b.kind, []).append(list(b.numbers))
    return render_template("dealer_game.html", table=state["table"], state=state, layout=layout,
                           settings={"betting_seconds": house.betting_seconds,
                                     "decision_seconds": house.decision_seconds})
