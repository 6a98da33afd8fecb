from __future__ import annotations

from flask_smorest import Blueprint

from floor import players as players_svc
from floor.web.api.schemas import PlayerCreateSchema, PlayerDuplicatesQuerySchema, PlayerQuerySchema, PlayerSchema
from floor.web.extensions import db
from floor.web.policy import actor, allow

blp = Blueprint("api_players", __name__, url_prefix="/api/players", description="Players")


@blp.route("")
@allow("floor_manager", "pit_boss", "admin", "cashier")
@blp.arguments(PlayerQuerySchema, location="query")
@blp.response(200, PlayerSchema(many=True))
def search_players(args):
    """Find players by part of a name or of a card number (every word typed must match)."""
    return players_svc.search(db.session, args["q"])


@blp.route("/likely-duplicates")
@allow("floor_manager", "pit_boss", "admin", "cashier")
@blp.arguments(PlayerDuplicatesQuerySchema, location="query")
@blp.response(200, PlayerSchema(many=True))
def likely_duplicates(args):
    """Players already registered with this name (any case) or this card number."""
    return players_svc.likely_duplicates(db.session, args["name"], args["card_number"])


@blp.route("", methods=["POST"])
@allow("floor_manager", "admin", "cashier")
@blp.arguments(PlayerCreateSchema)
@blp.response(201, PlayerSchema)
def create_player(args):
    """Register a player who presents himself at the floor."""
    p = players_svc.create_player(db.session, actor(), args["name"], args["card_number"], args["phone"],
                                   same_name_confirmed=args["same_name_confirmed"])
    db.session.commit()
    return p


@blp.route("/<int:player_id>")
@allow("floor_manager", "pit_boss", "admin", "cashier")
@blp.response(200, PlayerSchema)
def get_player(player_id: int):
    return players_svc.get_player(db.session, player_id)
