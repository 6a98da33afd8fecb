"""Must-move: chains, who is due, moving and refusing (the dealer terminal reads its table's part)."""
from __future__ import annotations

from flask_smorest import Blueprint
from sqlalchemy import select

from floor import tables as tables_svc
from floor.models import SeatAssignment
from floor.poker import mustmove, queries
from floor.web.api.poker_schemas import AssignmentSchema, ChainSchema, MoveArgs, RefuseArgs, TableMustMoveStateSchema
from floor.web.api.seating import assignment_json
from floor.web.extensions import db, house
from floor.web.policy import actor, allow

blp = Blueprint("api_mustmove", __name__, url_prefix="/api/mustmove",
                description="Must-move tables (main <- MM1 <- MM2): orders and due moves")
MANAGE = ("floor_manager", "admin")


@blp.route("")
@allow("floor_manager", "admin", "pit_boss")
@blp.response(200, ChainSchema(many=True))
def chains():
    """Every must-move chain with each table's must-move order, the due moves and break prompts."""
    return [mustmove.chain_state(db.session, c, house()) for c in queries.chains(db.session)]


@blp.route("/tables/<int:table_number>")
@allow("floor_manager", "admin", "pit_boss", "dealer", table_arg="table_number")
@blp.response(200, TableMustMoveStateSchema)
def table_state(table_number: int):
    """For a table terminal: its role in a chain and the moves due from or to it now."""
    table = tables_svc.table_by_number(db.session, table_number)
    chain = queries.chain_of(db.session, table.id)
    due = [d.as_dict() for d in mustmove.due_moves(db.session, house(), chain)
           if table.id in (d.from_table_id, d.to_table_id)] if chain else []
    return {"table": table.number, "role": chain.role(table.id) if chain else None, "due": due}


@blp.route("/tables/<int:table_number>/move", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(MoveArgs)
@blp.response(200, AssignmentSchema)
def move(args, table_number: int):
    """The due player of this must-move table moves (with his chips) to the table it feeds."""
    a = mustmove.move(db.session, actor(), house(), tables_svc.table_by_number(db.session, table_number),
                      args["player_id"], args["seat_number"])
    db.session.commit()
    return assignment_json(a)


@blp.route("/tables/<int:table_number>/refuse", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(RefuseArgs)
@blp.response(200, AssignmentSchema)
def refuse(args, table_number: int):
    """The due player refuses to move: banned for the rest of the gaming day, his seat is freed."""

    table = tables_svc.table_by_number(db.session, table_number)
    mustmove.refuse(db.session, actor(), house(), table, args["player_id"], args["reason"])
    db.session.commit()
    a = db.session.execute(select(SeatAssignment).where(SeatAssignment.table_id == table.id,
                                                        SeatAssignment.player_id == args["player_id"])
                           .order_by(SeatAssignment.id.desc()).limit(1)).scalar_one()
    return assignment_json(a)
