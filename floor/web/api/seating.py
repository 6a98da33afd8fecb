"""Seats of the poker room: walk-ups, leaving, seat changes, away and chip pickup, busts, buy-in
limits, table-change requests."""
from __future__ import annotations

from flask_smorest import Blueprint

from floor import tables as tables_svc
from floor.poker import queries, seating
from floor.poker import waitlist as wl
from floor.web.api.poker_schemas import (
    AssignmentSchema,
    BustArgs,
    BustResultSchema,
    BuyInQuery,
    BuyInSchema,
    ChangeSeatArgs,
    HonourArgs,
    LeaveArgs,
    PickupArgs,
    TableChangeArgs,
    TableChangeSchema,
    WalkUpArgs,
)
from floor.web.api.schemas import EmptySchema
from floor.web.extensions import db, house
from floor.web.policy import actor, allow

blp = Blueprint("api_seating", __name__, url_prefix="/api/seating",
                description="Seats: sitting down, leaving, changing seat or table, away, chip pickup, busts")
MANAGE = ("floor_manager", "admin")
TABLE = ("floor_manager", "admin", "dealer")     # a dealer terminal, for its own table only
SEAT = "/tables/<int:table_number>/seats/<int:seat_number>"


def assignment_json(a) -> dict:
    return {"id": a.id, "table": tables_svc.get_table(db.session, a.table_id).number, "seat": a.seat.number,
            "player_id": a.player_id, "arrival": a.arrival, "buy_in": a.buy_in, "sat_at": a.sat_at.isoformat(),
            "left_at": a.left_at.isoformat() if a.left_at else None, "reason_left": a.reason_left,
            "chips_out": a.chips_out}


def _table(number: int):
    return tables_svc.table_by_number(db.session, number)


@blp.route("/tables/<int:table_number>/buy-in")
@allow("floor_manager", "admin", "cashier", "dealer", table_arg="table_number")
@blp.arguments(BuyInQuery, location="query")
@blp.response(200, BuyInSchema)
def buy_in(args, table_number: int):
    """The buy-in this player may bring to this table now (structure limits, anti-ratholing)."""
    return seating.buy_in_limits(db.session, house(), _table(table_number), args["player_id"]).as_dict()


@blp.route(SEAT + "/sit", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(WalkUpArgs)
@blp.response(201, AssignmentSchema)
def sit(args, table_number: int, seat_number: int):
    """Seat a player who is on no list: refused while an eligible listed player waits for this table,
    unless the floor gives a reason."""
    a = wl.walk_up(db.session, actor(), house(), _table(table_number), seat_number, args["player_id"],
                   args["buy_in"], reason=args["reason"])
    db.session.commit()
    return assignment_json(a)


@blp.route(SEAT + "/leave", methods=["POST"])
@allow(*TABLE, table_arg="table_number")
@blp.arguments(LeaveArgs)
@blp.response(200, AssignmentSchema)
def leave(args, table_number: int, seat_number: int):
    """The player leaves his seat (with what he takes away, for anti-ratholing)."""
    a = seating.leave_seat(db.session, actor(), house(), _table(table_number), seat_number, args["reason"], args["chips_out"])
    db.session.commit()
    return assignment_json(a)


@blp.route(SEAT + "/change", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(ChangeSeatArgs)
@blp.response(200, AssignmentSchema)
def change(args, table_number: int, seat_number: int):
    """Seat change at the same table: he keeps his chips and his must-move place."""
    a = seating.change_seat(db.session, actor(), house(), _table(table_number), seat_number, args["to_seat"])
    db.session.commit()
    return assignment_json(a)


@blp.route(SEAT + "/away", methods=["POST"])
@allow(*TABLE, table_arg="table_number")
@blp.arguments(EmptySchema)
@blp.response(200, AssignmentSchema)
def away(args, table_number: int, seat_number: int):
    """The player left the table for a while: after the house's minutes, with a list waiting, his chips
    are due for pickup."""
    table = _table(table_number)
    seating.mark_away(db.session, actor(), house(), table, seat_number)
    db.session.commit()
    return assignment_json(seating.seated_assignment(db.session, table, seat_number, lock=False))


@blp.route(SEAT + "/back", methods=["POST"])
@allow(*TABLE, table_arg="table_number")
@blp.arguments(EmptySchema)
@blp.response(200, AssignmentSchema)
def back(args, table_number: int, seat_number: int):
    table = _table(table_number)
    seating.mark_back(db.session, actor(), table, seat_number)
    db.session.commit()
    return assignment_json(seating.seated_assignment(db.session, table, seat_number, lock=False))


@blp.route(SEAT + "/pickup", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(PickupArgs)
@blp.response(200, AssignmentSchema)
def pickup(args, table_number: int, seat_number: int):
    """The manager confirms a chip pickup flagged for this seat: the seat is freed."""
    a = seating.confirm_pickup(db.session, actor(), house(), _table(table_number), seat_number, args["chips_out"])
    db.session.commit()
    return assignment_json(a)


@blp.route(SEAT + "/bust", methods=["POST"])
@allow(*TABLE, table_arg="table_number")
@blp.arguments(BustArgs)
@blp.response(200, BustResultSchema)
def bust(args, table_number: int, seat_number: int):
    """He went all-in and lost. First time: one rebuy, even under the minimum. Second: his game ends;
    to play on he goes to the end of the list, or with no list sits again with a full buy-in."""
    r = wl.record_bust(db.session, actor(), house(), _table(table_number), seat_number,
                            rebuy=args["rebuy"], play_on=args["play_on"], buy_in=args["buy_in"])
    db.session.commit()
    return {"busts": r.busts, "outcome": r.outcome, "assignment": assignment_json(r.assignment), "entry_id": r.entry_id}


@blp.route("/table-changes")
@allow("floor_manager", "admin", "pit_boss")
@blp.response(200, TableChangeSchema(many=True))
def table_changes():
    """Open table-change requests, in order."""
    return queries.open_table_changes(db.session)


@blp.route("/table-changes", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(TableChangeArgs)
@blp.response(201, TableChangeSchema)
def request_table_change(args):
    """A seated player asks for another table of the same game (never main to must-move)."""
    r = seating.request_table_change(db.session, actor(), house(), args["player_id"], _table(args["to_table"]))
    db.session.commit()
    return r


@blp.route("/table-changes/<int:request_id>/cancel", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(EmptySchema)
@blp.response(200, TableChangeSchema)
def cancel_table_change(args, request_id: int):
    r = seating.cancel_table_change(db.session, actor(), request_id)
    db.session.commit()
    return r


@blp.route("/table-changes/<int:request_id>/honour", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(HonourArgs)
@blp.response(200, AssignmentSchema)
def honour_table_change(args, request_id: int):
    """Move him to the table he asked for, with his chips; requests for a table go in order."""
    a = seating.honour_table_change(db.session, actor(), house(), request_id, args["seat_number"],
                                    reason=args["reason"])
    db.session.commit()
    return assignment_json(a)
