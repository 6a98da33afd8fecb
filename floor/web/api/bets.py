"""Bets: remote players' bets from their balance, and the dealer terminal's seat bets."""
from __future__ import annotations

from flask import request
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from floor import tables as tables_svc
from floor.errors import NotAllowed
from floor.rounds import bets as bets_svc
from floor.web.api.schemas import Cents, Iso, Strict, cents
from floor.web.extensions import db, house
from floor.web.policy import actor, allow, current_identity

blp = Blueprint("api_bets", __name__, url_prefix="/api", description="Bets on live rounds")


class BetCreateSchema(Strict):
    spot = fields.String(required=True, metadata={"description": "roulette kind (straight, split, red...), "
                                                  "baccarat spot, blackjack 'bet', Casino Hold'em 'ante'/'aa_bonus'"})
    amount = cents(required=True)
    numbers = fields.List(fields.Integer(), load_default=None, allow_none=True)
    seat = fields.Integer(load_default=None, allow_none=True)
    player_id = fields.Integer(load_default=None, allow_none=True,
                               metadata={"description": "a remote player's bet from his balance"})
    idempotency_key = fields.String(load_default=None, allow_none=True,
                                    metadata={"description": "or the Idempotency-Key header: a retry counts once"})


class BetSchema(Schema):
    id = fields.Integer()
    round_id = fields.Integer()
    table_id = fields.Integer()
    player_id = fields.Integer(allow_none=True, metadata={"description": "a remote player's bet; null: a seat's chips"})
    seat = fields.Integer(allow_none=True)
    hand = fields.Integer(metadata={"description": "blackjack: the hand after a split"})
    spot = fields.String(metadata={"description": "roulette kind, baccarat spot, blackjack bet, Casino Hold'em ante..."})
    numbers = fields.List(fields.Integer(), allow_none=True, metadata={"description": "roulette: the numbers covered"})
    amount = Cents()
    requested = Cents(metadata={"description": "cents asked for, when the limits cut it"})
    source = fields.String(metadata={"description": "api | dealer | decision"})
    idempotency_key = fields.String(allow_none=True)
    placed_at = Iso()


@blp.route("/tables/<int:table_number>/bets", methods=["POST"])
@allow("dealer", "pit_boss", "admin", table_arg="table_number")
@blp.arguments(BetCreateSchema)
@blp.response(201, BetSchema)
@blp.alt_response(200, schema=BetSchema, description="a retry with the same idempotency key: the first bet")
def place_bet(args, table_number: int):
    """Place a bet on the table's open round. 409 with the reason when it is refused."""
    table = tables_svc.table_by_number(db.session, table_number)
    ident = current_identity()
    if ident.role == "dealer" and args["player_id"] is not None:
        raise NotAllowed("the dealer terminal enters seat bets for the chips on the table", code="seat_bets_only")
    key = args["idempotency_key"] or request.headers.get("Idempotency-Key")
    bet, created = bets_svc.place(db.session, actor(), table.id, spot=args["spot"], amount=args["amount"],
                                  player_id=args["player_id"], seat=args["seat"], numbers=args["numbers"],
                                  idempotency_key=key, source="dealer" if ident.role == "dealer" else "api", house=house())
    db.session.commit()
    return bet, 201 if created else 200


@blp.route("/rounds/<int:round_id>/bets")
@allow("pit_boss", "admin", "floor_manager", "cashier")
@blp.response(200, BetSchema(many=True))
def round_bets(round_id: int):
    return bets_svc.round_bets(db.session, round_id)
