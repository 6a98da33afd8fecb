from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from floor import tables as tables_svc
from floor.pit import showdown as disputes
from floor.web.api.schemas import Cents, Choice, Iso, Query, Strict, cents
from floor.rounds.table_rules import table_rules
from floor.web.extensions import db, house
from floor.web.policy import actor, allow

blp = Blueprint("api_disputes", __name__, url_prefix="/api/pit/poker",
                description="Poker disputes: lay a hand out again and rule on it")


VARIANTS = ("holdem", "omaha", "omaha_hilo", "sixplus")


class SeatHandSchema(Strict):
    seat = fields.Integer(required=True, validate=validate.Range(min=1, max=12))
    hole = fields.String(load_default="", metadata={"description": "hole cards, e.g. 'AS KD'"})
    put_in = cents(minimum=0, required=True, metadata={"description": "cents put into the pot over the whole hand"})
    folded = fields.Boolean(load_default=False)


class ShowdownSchema(Strict):
    table_number = fields.Integer(required=True)
    variant = fields.String(load_default=None, validate=validate.OneOf(VARIANTS))
    seats = fields.List(fields.Nested(SeatHandSchema), required=True, validate=validate.Length(min=2, max=12),
                        metadata={"description": "in order starting left of the button"})
    boards = fields.List(fields.String(), required=True, validate=validate.Length(min=1, max=2))
    rake = cents(minimum=0, load_default=None, allow_none=True,
                 metadata={"description": "cents the dealer took; none: the house's rake rule on the pot"})


class RulingSchema(ShowdownSchema):
    hand_ref = fields.String(required=True, validate=validate.Length(min=1, max=60))
    reason = fields.String(required=True, validate=validate.Length(min=3, max=500))


class PotSchema(Schema):
    amount = Cents()
    eligible = fields.List(fields.Integer(), metadata={"description": "the seats that may win it"})


class ShowdownOut(Schema):
    variant = Choice(VARIANTS)
    won = fields.Dict(keys=fields.String(metadata={"description": "seat number"}), values=Cents(),
                      metadata={"description": "cents per seat"})
    pots = fields.List(fields.Nested(PotSchema), metadata={"description": "the main pot, then the side pots"})
    hands = fields.Dict(keys=fields.String(metadata={"description": "seat number"}),
                        values=fields.List(fields.String(metadata={"description": "e.g. two pair, flush"})),
                        metadata={"description": "each seat's hand, one per board (the seats that showed)"})
    rake = Cents()
    total_in = Cents(metadata={"description": "what the seats put in together"})


class EnteredSeatSchema(Schema):
    seat = fields.Integer()
    hole = fields.String(metadata={"description": "hole cards, e.g. 'AS KD'"})
    put_in = Cents(metadata={"description": "cents put into the pot over the whole hand"})
    folded = fields.Boolean()


class EnteredHandSchema(Schema):
    """The hand as the pit boss entered it."""

    seats = fields.List(fields.Nested(EnteredSeatSchema), metadata={"description": "from the left of the button"})
    boards = fields.List(fields.String(), metadata={"description": "one board, or two when run twice"})
    rake = Cents()


class PokerRulingOut(Schema):
    id = fields.Integer()
    table_id = fields.Integer()
    table_number = fields.Integer(attribute="table.number")
    hand_ref = fields.String()
    variant = Choice(VARIANTS)
    inputs = fields.Nested(EnteredHandSchema)
    result = fields.Nested(ShowdownOut, metadata={"description": "who won what, by the house rules"})
    reason = fields.String()
    decided_by = fields.Integer(allow_none=True)
    decided_at = Iso()


class RulingQuerySchema(Query):
    table_number = fields.Integer(load_default=None)


def _args(args):
    table = tables_svc.table_by_number(db.session, args["table_number"])
    variant = args["variant"] or table.game.variant or "holdem"
    seats = [disputes.SeatHand(**s) for s in args["seats"]]
    return table, variant, seats


@blp.route("/showdown", methods=["POST"])
@allow("pit_boss", "admin")
@blp.arguments(ShowdownSchema)
@blp.response(200, ShowdownOut)
def showdown(args):
    """Who wins each pot, by the house rules, for a hand as entered (nothing is recorded)."""
    table, variant, seats = _args(args)
    return disputes.evaluate(variant, seats, args["boards"], args["rake"], table_rules(house()).poker)


@blp.route("/rulings", methods=["POST"])
@allow("pit_boss", "admin")
@blp.arguments(RulingSchema)
@blp.response(201, PokerRulingOut)
def record(args):
    """Record a ruling against a table and hand, with its reason."""
    table, variant, seats = _args(args)
    ruling = disputes.record_ruling(db.session, actor(), table, args["hand_ref"], variant, seats, args["boards"],
                                    args["rake"], args["reason"], table_rules(house()).poker)
    db.session.commit()
    return ruling, 201


@blp.route("/rulings", methods=["GET"])
@allow("pit_boss", "admin")
@blp.arguments(RulingQuerySchema, location="query")
@blp.response(200, PokerRulingOut(many=True))
def list_rulings(args):
    table_id = None
    if args["table_number"] is not None:
        table_id = tables_svc.table_by_number(db.session, args["table_number"]).id
    return disputes.rulings(db.session, table_id)
