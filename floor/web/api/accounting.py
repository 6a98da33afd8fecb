"""A table's money: tray counts and their verification, fill and credit slips (request, issue,
receive, cancel), buy-ins, the drop count, and the pit's sheet of a table and gaming day."""
from __future__ import annotations

from datetime import datetime, timezone

from flask_smorest import Blueprint

from floor import accounting
from floor.accounting import drop as drop_svc
from floor.accounting import slips as slips_svc
from floor.tables import table_by_number
from floor.web.api.accounting_schemas import (BuyInIn, BuyInOut, SlipCancelIn, CountIn, CountOut, DayQuery, DropCountOut,
                                              DropIn, SheetOut, SlipIn, SlipOut, TableDayOut)
from floor.web.api.schemas import EmptySchema
from floor.web.extensions import db, house
from floor.web.policy import actor, allow

blp = Blueprint("api_accounting", __name__, url_prefix="/api", description="A table's chips, fills, credits and drop")

TABLE = ("dealer", "floor_manager", "pit_boss")
SEES = ("dealer", "floor_manager", "pit_boss", "cashier", "admin")


def _table_id(number: int) -> int:
    return accounting.common.live_table(db.session, table_by_number(db.session, number).id).id


def _day(args):
    return args.get("day") or accounting.common.day_of(datetime.now(timezone.utc), house())


@blp.route("/tables/<int:table_number>/money")
@allow(*SEES, table_arg="table_number")
@blp.arguments(DayQuery, location="query")
@blp.response(200, SheetOut)
def sheet(args, table_number: int):
    """The table's sheet for a gaming day: counts (with what the ledger expected), slips, buy-ins,
    the drop count, each shift's win and reconciliation, and the day's win and hold."""
    return accounting.table_sheet(db.session, _table_id(table_number), _day(args), house())


@blp.route("/money")
@allow("floor_manager", "pit_boss", "cashier", "admin")
@blp.arguments(DayQuery, location="query")
@blp.response(200, TableDayOut(many=True))
def day(args):
    """Every table-game table's drop, fills, credits, win, hold and reconciliation for a gaming day."""
    return accounting.day_figures(db.session, _day(args))


@blp.route("/tables/<int:table_number>/counts", methods=["POST"])
@allow(*TABLE, table_arg="table_number")
@blp.arguments(CountIn)
@blp.response(201, CountOut)
def count(args, table_number: int):
    """Enter a count of the tray by denomination (a count only once a second person verifies it)."""
    out = accounting.enter_count(db.session, actor(), _table_id(table_number), args["kind"], args["chips"],
                                 house=house())
    db.session.commit()
    return out


@blp.route("/tables/<int:table_number>/counts/<int:count_id>/verify", methods=["POST"])
@allow("floor_manager", "pit_boss")
@blp.arguments(EmptySchema)
@blp.response(200, CountOut)
def verify(args, table_number: int, count_id: int):
    """A second person verifies a count (403 own_count for the one who counted it)."""
    out = accounting.verify_count(db.session, actor(), count_id, table_id=_table_id(table_number), house=house())
    db.session.commit()
    return out


@blp.route("/tables/<int:table_number>/slips", methods=["POST"])
@allow(*TABLE, table_arg="table_number")
@blp.arguments(SlipIn)
@blp.response(201, SlipOut)
def request_slip(args, table_number: int):
    """Request a fill or a credit by denomination; the slip gets the house's next serial."""
    out = accounting.request_slip(db.session, actor(), _table_id(table_number), args["kind"], args["chips"],
                                  house=house())
    db.session.commit()
    return out


@blp.route("/tables/<int:table_number>/slips/<int:serial>/receive", methods=["POST"])
@allow(*TABLE, table_arg="table_number")
@blp.arguments(EmptySchema)
@blp.response(200, SlipOut)
def receive(args, table_number: int, serial: int):
    """The table signs for the chips: the ledger moves them between the cage and the tray now."""
    out = accounting.receive_slip(db.session, actor(), serial, table_id=_table_id(table_number), house=house())
    db.session.commit()
    return out


@blp.route("/tables/<int:table_number>/slips/<int:serial>/cancel", methods=["POST"])
@allow(*TABLE, table_arg="table_number")
@blp.arguments(SlipCancelIn)
@blp.response(200, SlipOut)
def cancel_at_table(args, table_number: int, serial: int):
    """Cancel a slip of this table, with a reason, until it is received."""
    out = accounting.cancel_slip(db.session, actor(), serial, args["reason"], table_id=_table_id(table_number))
    db.session.commit()
    return out


@blp.route("/slips")
@allow("cashier", "floor_manager", "pit_boss", "admin")
@blp.response(200, SlipOut(many=True))
def queue():
    """The cage's queue: slips to issue, and slips issued but not yet received, oldest first."""
    return accounting.cage_queue(db.session)


@blp.route("/slips/<int:serial>")
@allow(*SEES)
@blp.response(200, SlipOut)
def slip(serial: int):
    """One slip by its serial."""
    return slips_svc.get_slip(db.session, serial)


@blp.route("/slips/<int:serial>/issue", methods=["POST"])
@allow("cashier")
@blp.arguments(EmptySchema)
@blp.response(200, SlipOut)
def issue(args, serial: int):
    """The cage signs: a fill's chips leave the cage, or it takes a credit's chips on."""
    out = accounting.issue_slip(db.session, actor(), serial)
    db.session.commit()
    return out


@blp.route("/slips/<int:serial>/approve", methods=["POST"])
@allow("floor_manager", "pit_boss")
@blp.arguments(EmptySchema)
@blp.response(200, SlipOut)
def approve(args, serial: int):
    """A second person approves a slip above the two-person threshold (403 own_request for the one who asked)."""
    out = accounting.approve_slip(db.session, actor(), serial)
    db.session.commit()
    return out


@blp.route("/slips/<int:serial>/cancel", methods=["POST"])
@allow("cashier", "floor_manager", "pit_boss")
@blp.arguments(SlipCancelIn)
@blp.response(200, SlipOut)
def cancel(args, serial: int):
    """The cage or the pit cancels a slip, with a reason, until it is received."""
    out = accounting.cancel_slip(db.session, actor(), serial, args["reason"])
    db.session.commit()
    return out


@blp.route("/tables/<int:table_number>/buy-ins", methods=["POST"])
@allow(*TABLE, table_arg="table_number")
@blp.arguments(BuyInIn)
@blp.response(201, BuyInOut)
def buy_in(args, table_number: int):
    """Record a buy-in as the chips go out (cash or a marker; the seat and player when known)."""
    out = accounting.record_buy_in(db.session, actor(), _table_id(table_number), args["amount"], args["method"],
                                   seat=args["seat"], player_id=args["player_id"], house=house())
    db.session.commit()
    return out


@blp.route("/tables/<int:table_number>/drop", methods=["POST"])
@allow("cashier", "pit_boss")
@blp.arguments(DropIn)
@blp.response(201, DropCountOut)
def drop(args, table_number: int):
    """The count room's total of the table's drop box for a gaming day (verified by a second person)."""
    out = accounting.enter_drop_count(db.session, actor(), _table_id(table_number), args["day"], args["total"],
                                      house=house())
    db.session.commit()
    return out


@blp.route("/drop-counts/<int:drop_id>/verify", methods=["POST"])
@allow("cashier", "pit_boss")
@blp.arguments(EmptySchema)
@blp.response(200, DropCountOut)
def verify_drop(args, drop_id: int):
    """A second person of the count room verifies a drop count."""
    out = drop_svc.verify_drop_count(db.session, actor(), drop_id)
    db.session.commit()
    return out
