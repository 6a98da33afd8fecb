"""The floor tablet's API: everything it shows in one read, and opening, closing and breaking tables."""
from __future__ import annotations

from datetime import datetime, timezone

from flask_smorest import Blueprint

from floor import dealers
from floor import tables as tables_svc
from floor.pit import visits
from floor.poker import floor_state, mustmove
from floor.web.api.poker_schemas import FloorStateSchema, OpenTableArgs, TableStatusSchema
from floor.web.api.schemas import EmptySchema
from floor.web.extensions import db, house
from floor.web.policy import actor, allow

blp = Blueprint("api_floor", __name__, url_prefix="/api/floor",
                description="The poker room floor: state of tables, lists, must-move; opening and closing tables")



@blp.route("/state")
@allow("floor_manager", "admin", "pit_boss")
@blp.response(200, FloorStateSchema)
def state():
    """Tables with seats (held, away, due to move, must-move order), lists, proposals for free seats,
    must-move chains and due moves, prompts (open, break, chip pickup), table changes, alerts."""
    return floor_state.floor_state(db.session, house())


@blp.route("/tables/<int:table_number>/open", methods=["POST"])
@allow("floor_manager", "admin")
@blp.arguments(OpenTableArgs)
@blp.response(200, TableStatusSchema)
def open_table(args, table_number: int):
    """Open a table; a poker table beside an open one of the same game is a must-move table by default."""
    table = tables_svc.table_by_number(db.session, table_number)
    feeds = tables_svc.table_by_number(db.session, args["feeds_table"]) if args["feeds_table"] else None
    link = mustmove.open_table(db.session, actor(), house(), table, args["must_move"], feeds)
    db.session.commit()
    return {"table": table.number, "status": table.status,
            "feeds_table": tables_svc.get_table(db.session, link.feeds_table_id).number if link else None}


@blp.route("/tables/<int:table_number>/close", methods=["POST"])
@allow("floor_manager", "admin")
@blp.arguments(EmptySchema)
@blp.response(200, TableStatusSchema)
def close_table(args, table_number: int):
    """Close an empty table: the players identified at its seats leave, its dealer goes on his break."""
    table = mustmove.close_table(db.session, actor(), house(), tables_svc.table_by_number(db.session, table_number))
    visits.close_table(db.session, actor(), table.id)
    dealer = dealers.current_dealer(db.session, table.id)
    if dealer is not None:
        dealers.go_on_break(db.session, actor(), dealer, datetime.now(timezone.utc))
    db.session.commit()
    return {"table": table.number, "status": table.status, "feeds_table": None}


@blp.route("/tables/<int:table_number>/break", methods=["POST"])
@allow("floor_manager", "admin")
@blp.arguments(EmptySchema)
@blp.response(200, TableStatusSchema)
def break_table(args, table_number: int):
    """Break a must-move table into the table it feeds; its players move in must-move order."""
    table = tables_svc.table_by_number(db.session, table_number)
    mustmove.break_table(db.session, actor(), house(), table)
    db.session.commit()
    return {"table": table.number, "status": table.status, "feeds_table": None}
