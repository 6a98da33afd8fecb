from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from floor import tables as tables_svc
from floor.pit import showdown as disputes
from floor.web.api.schemas import Query, Strict, cents
from floor.web.extensions import db
from floor.web.policy import actor, allow

blp = Blueprint("api_disputes", __name__, url_prefix="/api/pit/poker",
                description="Poker disputes: lay a hand out again and rule on it")


class SeatHandSchema(Strict):
    seat = fields.Integer(required=True, validate=validate.Range(min=1, max=12))
    hole = fields.String(load_default="", metadata={"description": "hole cards, e.g. 'AS KD'"})
    put_in = cents(minimum=0, required=True, metadata={"description": "cents put into the pot over the whole hand"})
    folded = fields.Boolean(load_default=False)


class ShowdownSchema(Strict):
    table_number = fields.Integer(required=True)
    variant = fields.String(load_default=None, validate=validate.OneOf(("holdem", "omaha", "omaha_hilo", "sixplus")))
    seats = fields.List(fields.Nested(SeatHandSchema), required=True, validate=validate.Length(min=2, max=12),
                        metadata={"description": "in order starting left of the button"})
    boards = fields.List(fields.String(), required=True, validate=validate.Length(min=1, max=2))
    rake = cents(minimum=0, load_default=0)


class RulingSchema(ShowdownSchema):
    hand_ref = fields.String(required=True, validate=validate.Length(min=1, max=60))
    reason = fields.String(required=True, validate=validate.Length(min=3, max=500))


class ShowdownOut(Schema):
    variant = fields.String()
    won = fields.Dict(keys=fields.String(), values=fields.Integer(), metadata={"description": "cents per seat"})
    pots = fields.List(fields.Dict())
    hands = fields.Dict()
    rake = fields.Integer()
    total_in = fields.Integer()


class PokerRulingOut(Schema):
    id = fields.Integer()
    table_id = fields.Integer()
    table_number = fields.Integer()
    hand_ref = fields.String()
    variant = fields.String()
    inputs = fields.Dict()
    result = fields.Dict()
    reason = fields.String()
    decided_by = fields.Integer(allow_none=True)
    decided_at = fields.String()


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
    return disputes.evaluate(variant, seats, args["boards"], args["rake"])


@blp.route("/rulings", methods=["POST"])
@allow("pit_boss", "admin")
@blp.arguments(RulingSchema)
@blp.response(201, PokerRulingOut)
def record(args):
    """Record a ruling against a table and hand, with its reason."""
    table, variant, seats = _args(args)
    ruling = disputes.record_ruling(db.session, actor(), table, args["hand_ref"], variant, seats, args["boards"],
                                    args["rake"], args["reason"])
    db.session.commit()
    return disputes.ruling_json(ruling), 201


@blp.route("/rulings", methods=["GET"])
@allow("pit_boss", "admin")
@blp.arguments(RulingQuerySchema, location="query")
@blp.response(200, PokerRulingOut(many=True))
def list_rulings(args):
    table_id = None
    if args["table_number"] is not None:
        table_id = tables_svc.table_by_number(db.session, args["table_number"]).id
    return [disputes.ruling_json(r) for r in disputes.rulings(db.session, table_id)]
