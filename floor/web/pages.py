"""The role home pages. Thin: the data comes from floor services, live updates over Socket.IO."""
from __future__ import annotations

from flask import Blueprint, current_app, render_template

from floor import alerts as alerts_svc
from floor import tables as tables_svc
from floor.poker import waitlist
from floor.web import dealer_games, dealer_poker, i18n
from floor.web.extensions import db
from floor.web.policy import allow

bp = Blueprint("pages", __name__)


@bp.route("/floor")
@allow("floor_manager", "admin")
def floor():
    return render_template("floor.html", tables=tables_svc.floor_tables(db.session),
                           alerts=[alerts_svc.alert_json(a) for a in alerts_svc.open_alerts(db.session)])


@bp.route("/pit")
@allow("pit_boss", "admin", "cashier")
def pit():
    return render_template("pit.html", tables=tables_svc.floor_tables(db.session),
                           alerts=[alerts_svc.alert_json(a) for a in alerts_svc.open_alerts(db.session)])


@bp.route("/board")
@allow("display", "floor_manager", "pit_boss", "admin")
def board():
    # The TV board gets no full player names: the same view as /api/board (names per the house setting).

    house = current_app.config["HOUSE"]
    langs = [x.strip() for x in house.board_languages.split(",") if x.strip() in i18n.LANGUAGES]
    return render_template("board.html", board=waitlist.board_view(db.session, house),
                           board_languages=langs, board_seconds=house.board_language_seconds if len(langs) > 1 else 0,
                           page_seconds=house.board_page_seconds)


@bp.route("/dealer/<int:table_number>")
@allow("dealer", "pit_boss", "floor_manager", "admin", table_arg="table_number")
def dealer(table_number: int):
    """The table terminal: the poker terminal for poker tables, the live-game terminal otherwise."""
    table = tables_svc.table_by_number(db.session, table_number)
    module = dealer_poker if table.kind == "poker" else dealer_games
    return module.render_terminal(table)
