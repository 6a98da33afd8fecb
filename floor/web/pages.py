"""The role home pages. Thin: the data comes from floor services, live updates over Socket.IO."""
from __future__ import annotations

from flask import Blueprint, current_app, render_template

from floor import alerts as alerts_svc
from floor import tables as tables_svc
from floor.models import Game, Player
from floor.poker import waitlist
from floor.tournaments import clock, registration
from floor.tournaments import core as tournaments_core
from floor.tournaments import results as tournament_results
from floor.web import dealer_games, dealer_poker, i18n
from floor.web.api.poker_schemas import BoardSchema
from floor.web.api.schemas import AlertSchema
from floor.web.api.tournament_schemas import EntryOut, TableViewOut, TournamentOut
from floor.web.extensions import db
from floor.web.policy import allow, current_identity

bp = Blueprint("pages", __name__)


@bp.route("/floor")
@allow("floor_manager", "admin")
def floor():
    return render_template("floor.html", tables=tables_svc.floor_tables(db.session),
                           alerts=AlertSchema(many=True).dump(alerts_svc.open_alerts(db.session)))


@bp.route("/pit")
@allow("pit_boss", "admin", "cashier")
def pit():
    return render_template("pit.html", tables=tables_svc.floor_tables(db.session),
                           alerts=AlertSchema(many=True).dump(alerts_svc.open_alerts(db.session)))


@bp.route("/board")
@allow("display", "floor_manager", "pit_boss", "admin")
def board():
    # The TV board gets no full player names: the same view as /api/board (names per the house setting).

    house = current_app.config["HOUSE"]
    langs = [x.strip() for x in house.board_languages.split(",") if x.strip() in i18n.LANGUAGES]
    return render_template("board.html", board=BoardSchema().dump(waitlist.board(db.session, house)),
                           board_languages=langs, board_seconds=house.board_language_seconds if len(langs) > 1 else 0,
                           page_seconds=house.board_page_seconds)


@bp.route("/tournaments")
@allow("floor_manager", "cashier", "pit_boss", "admin")
def tournaments():
    """The tournament tablet: registration, the clock, players out, moves, deals (by role)."""
    house = current_app.config["HOUSE"]
    listing = [{"id": t.id, "name": t.name, "status": t.status} for t in tournament_results.listing(db.session)]
    players = [{"id": p.id, "name": p.name, "card": p.card_number}
               for p in db.session.query(Player).order_by(Player.name)]
    games = [{"id": x.id, "name": x.name} for x in db.session.query(Game).filter_by(kind="poker")]
    chosen = listing[0]["id"] if listing else None
    detail = TournamentOut().dump(tournament_results.detail(db.session, house, tournaments_core.get(db.session, chosen))) \
        if chosen else None
    return render_template("tournaments.html", data={"tournaments": listing, "players": players, "games": games,
                                                     "detail": detail, "role": current_identity().role})


@bp.route("/tournaments/<int:tournament_id>/clock")
@allow("display", "floor_manager", "cashier", "pit_boss", "admin", "dealer")
def tournament_clock(tournament_id: int):
    """The TV board's tournament clock."""
    house = current_app.config["HOUSE"]
    t = tournaments_core.get(db.session, tournament_id)
    langs = [x.strip() for x in house.board_languages.split(",") if x.strip() in i18n.LANGUAGES]
    state = clock.state(db.session, t, tournaments_core.now_or(None), house.tournament_payout_unit)
    return render_template("tournament_clock.html", state=state, board_languages=langs,
                           board_seconds=house.board_language_seconds if len(langs) > 1 else 0)


@bp.route("/tournaments/<int:tournament_id>/entries/<int:entry_id>/receipt")
@allow("floor_manager", "cashier", "admin")
def tournament_receipt(tournament_id: int, entry_id: int):
    """The player's receipt, printed at the desk: his seat, what he paid, the draw's seed."""
    t = tournaments_core.get(db.session, tournament_id)
    r = registration.receipt(db.session, t, tournaments_core.entry(db.session, t, entry_id))
    return render_template("tournament_receipt.html", r=r)


@bp.route("/tournaments/<int:tournament_id>/results")
@allow("floor_manager", "cashier", "pit_boss", "admin")
def tournament_results_page(tournament_id: int):
    """Standings, payouts and bounties; prints on one page; CSV beside it."""
    t = tournaments_core.get(db.session, tournament_id)
    return render_template("tournament_results.html", t=t, standings=EntryOut(many=True).dump(tournament_results.standings(db.session, t)),
                           money=tournament_results.money(db.session, t), draws=tournament_results.draws(db.session, t))


@bp.route("/dealer/<int:table_number>")
@allow("dealer", "pit_boss", "floor_manager", "admin", table_arg="table_number")
def dealer(table_number: int):
    """The table terminal: the poker terminal for poker tables, the live-game terminal otherwise."""
    table = tables_svc.table_by_number(db.session, table_number)
    running = tournament_results.tournament_at_table(db.session, table.id) if table.kind == "poker" else None
    if running is not None:      # a tournament table: the clock's blinds, its players, busts, moves
        view = tournament_results.at_table(db.session, current_app.config["HOUSE"], running, table)
        return render_template("tournament_dealer.html", table=table, view=TableViewOut().dump(view))
    module = dealer_poker if table.kind == "poker" else dealer_games
    return module.render_terminal(table)
