"""The public board (TV, display role): lists and open tables, names as the house setting says."""
from __future__ import annotations

from flask_smorest import Blueprint

from floor.poker import waitlist
from floor.web.api.poker_schemas import BoardSchema
from floor.web.extensions import db, house
from floor.web.policy import allow

blp = Blueprint("api_board", __name__, url_prefix="/api/board", description="The public board")


@blp.route("")
@allow("display", "floor_manager", "pit_boss", "admin")
@blp.response(200, BoardSchema)
def board():
    """Lists by game and limit (called players highlighted, estimated waits) and open tables with seat
    counts; player names only as board_name_format says, never in full unless the house says so."""
    return waitlist.board(db.session, house())
