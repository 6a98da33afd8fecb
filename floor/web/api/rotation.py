"""Dealers on the floor: clock in and out, the rotation board, moving a dealer to a table or a break,
and a table's dealer (with his relief) for the dealer terminal."""
from __future__ import annotations

from datetime import datetime, timezone

from flask_smorest import Blueprint
from floor import dealers
from floor import tables as tables_svc
from floor.web.api.rotation_schemas import BoardOut, TableDealerOut
from floor.web.api.schemas import EmptySchema
from floor.web.extensions import db, house
from floor.web.policy import actor, allow

blp = Blueprint("api_rotation", __name__, url_prefix="/api", description="Dealers: shifts, rotation, reliefs")

RUN = ("pit_boss", "floor_manager", "admin")


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _board() -> dealers.Rotation:
    board = dealers.board(db.session, house(), _now())
    board.dealers = dealers.roster(db.session)
    return board


@blp.route("/rotation")
@allow(*RUN, "cashier")
@blp.response(200, BoardOut)
def board():
    """Who deals where and since when, who is due for a break and who relieves him, who rests."""
    return _board()


@blp.route("/rotation/dealers/<int:staff_id>/clock-in", methods=["POST"])
@allow(*RUN)
@blp.arguments(EmptySchema)
@blp.response(200, BoardOut)
def clock_in(_args, staff_id: int):
    dealers.clock_in(db.session, actor(), staff_id, _now())
    db.session.commit()
    return _board()


@blp.route("/rotation/dealers/<int:staff_id>/clock-out", methods=["POST"])
@allow(*RUN)
@blp.arguments(EmptySchema)
@blp.response(200, BoardOut)
def clock_out(_args, staff_id: int):
    dealers.clock_out(db.session, actor(), staff_id, _now())
    db.session.commit()
    return _board()


@blp.route("/rotation/dealers/<int:staff_id>/break", methods=["POST"])
@allow(*RUN)
@blp.arguments(EmptySchema)
@blp.response(200, BoardOut)
def to_break(_args, staff_id: int):
    dealers.go_on_break(db.session, actor(), staff_id, _now())
    db.session.commit()
    return _board()


@blp.route("/rotation/dealers/<int:staff_id>/table/<int:table_number>", methods=["POST"])
@allow(*RUN)
@blp.arguments(EmptySchema)
@blp.response(200, BoardOut)
def to_table(_args, staff_id: int, table_number: int):
    """Send a dealer to a table: the dealer there goes on his break."""
    table = tables_svc.table_by_number(db.session, table_number)
    dealers.take_table(db.session, actor(), staff_id, table.id, _now(), how="relief")
    db.session.commit()
    return _board()


@blp.route("/tables/<int:table_number>/dealer")
@allow("dealer", *RUN, table_arg="table_number")
@blp.response(200, TableDealerOut)
def table_dealer(table_number: int):
    """The table's dealer, when he is due for his break and who comes to relieve him."""
    table = tables_svc.table_by_number(db.session, table_number)
    return dealers.table_dealer(db.session, table.id, house(), _now())
