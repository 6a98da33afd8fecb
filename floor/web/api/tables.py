from __future__ import annotations

from flask_smorest import Blueprint

from floor import tables as tables_svc
from floor.web.api.schemas import TableSchema
from floor.web.extensions import db
from floor.web.policy import STAFF, allow

# Full player names: staff only. The TV board (display role) reads /api/board instead; a technician
# reads devices, not players.
SEES_NAMES = tuple(sorted(STAFF - {"display", "technician"}))

blp = Blueprint("api_tables", __name__, url_prefix="/api/tables", description="The floor's tables and seats")


@blp.route("")
@allow(*SEES_NAMES)
@blp.response(200, TableSchema(many=True))
def list_tables():
    """Every table with its game, status and who sits in each seat."""
    return tables_svc.floor_tables(db.session)


@blp.route("/<int:table_number>")
@allow(*SEES_NAMES)
@blp.response(200, TableSchema)
def get_table(table_number: int):
    """One table by its number."""
    table = tables_svc.table_by_number(db.session, table_number)
    return tables_svc.table_json(table, tables_svc.occupants(db.session, [table.id]),
                                 tables_svc.table_occupancy(db.session, table))
