"""Pages of a table's money: the table's chips at the dealer terminal (buy-ins, counts, fills and
credits to request and receive), the pit's sheet of a table and gaming day, the cage's queue, and a
slip printed on one page. The data comes from the API; live updates over Socket.IO."""
from __future__ import annotations

from flask import Blueprint, current_app, render_template

from floor.accounting import chip_set
from floor.accounting import slips as slips_svc
from floor.tables import table_by_number
from floor.web.extensions import db
from floor.web.policy import allow

bp = Blueprint("money_pages", __name__)


def _page(table_number: int, mode: str):
    table = table_by_number(db.session, table_number)
    house = current_app.config["HOUSE"]
    return render_template("table_money.html", table=table, mode=mode,
                           data={"table": table.number, "table_id": table.id, "name": table.name, "mode": mode,
                                 "chips": list(chip_set(house)), "seats": table.seat_count})


@bp.route("/dealer/<int:table_number>/money")
@allow("dealer", "floor_manager", "pit_boss", table_arg="table_number")
def dealer_money(table_number: int):
    """The dealer terminal's chips: buy-ins as the chips go out, tray counts, fills and credits."""
    return _page(table_number, "table")


@bp.route("/pit/tables/<int:table_number>/money")
@allow("pit_boss", "floor_manager", "cashier", "admin")
def pit_money(table_number: int):
    """The pit's sheet of a table and gaming day: counts, fills, credits, drop, win, hold, reconciliation."""
    return _page(table_number, "pit")


@bp.route("/cage")
@allow("cashier", "pit_boss", "admin")
def cage():
    """The cage's queue of fills and credits to issue."""
    return render_template("cage.html")


@bp.route("/slips/<int:serial>/print")
@allow("cashier", "pit_boss", "floor_manager", "dealer", "admin")
def slip_print(serial: int):
    """A fill or credit slip on one page: table, denominations, total, times and names."""
    slip = slips_svc.get_slip(db.session, serial)
    rows = sorted(((int(d), n) for d, n in slip.chips.items()), reverse=True)
    return render_template("slip_print.html", slip=slip, rows=rows)
