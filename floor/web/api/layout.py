"""The floor's layout for the admin: games at their limits and tables, created and changed (audited)."""
from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from floor import layout
from floor.models.tables import POKER_VARIANTS, STRUCTURES, TABLE_KINDS
from floor.web.api.schemas import Cents, Choice, Strict, cents
from floor.web.extensions import db
from floor.web.policy import actor, allow

blp = Blueprint("api_layout", __name__, url_prefix="/api/layout",
                description="The floor's games and tables, as the admin sets them up")


class GameOut(Schema):
    id = fields.Integer()
    name = fields.String()
    kind = Choice(TABLE_KINDS)
    variant = fields.String(allow_none=True)
    structure = fields.String(allow_none=True)
    small_blind = Cents()
    big_blind = Cents()
    min_bet = Cents()
    max_bet = Cents()


class LayoutTableOut(Schema):
    number = fields.Integer()
    name = fields.String()
    kind = Choice(TABLE_KINDS)
    game_id = fields.Integer()
    game = fields.String(metadata={"description": "the game's name"})
    seats = fields.Integer()
    status = fields.String()


class LayoutOut(Schema):
    games = fields.List(fields.Nested(GameOut))
    tables = fields.List(fields.Nested(LayoutTableOut))


class GameChange(Strict):
    name = fields.String(validate=validate.Length(min=1, max=80))
    variant = fields.String(allow_none=True, validate=validate.OneOf(POKER_VARIANTS))
    structure = fields.String(allow_none=True, validate=validate.OneOf(STRUCTURES))
    small_blind = cents(minimum=0)
    big_blind = cents(minimum=0)
    min_bet = cents(minimum=0)
    max_bet = cents(minimum=0)


class GameIn(GameChange):
    name = fields.String(required=True, validate=validate.Length(min=1, max=80))
    kind = fields.String(required=True, validate=validate.OneOf([str(k) for k in TABLE_KINDS]))


class TableLayoutChange(Strict):
    name = fields.String(validate=validate.Length(min=1, max=80))
    game_id = fields.Integer()
    seats = fields.Integer(validate=validate.Range(min=1, max=layout.MAX_SEATS))


class TableIn(TableLayoutChange):
    number = fields.Integer(required=True, validate=validate.Range(min=1, max=layout.MAX_TABLE_NUMBER))
    name = fields.String(required=True, validate=validate.Length(min=1, max=80))
    game_id = fields.Integer(required=True)
    seats = fields.Integer(required=True, validate=validate.Range(min=1, max=layout.MAX_SEATS))


def _layout() -> dict:
    return layout.layout(db.session)


@blp.route("")
@allow("admin")
@blp.response(200, LayoutOut)
def get_layout():
    """Every game and table."""
    return _layout()


@blp.route("/games", methods=["POST"])
@allow("admin")
@blp.arguments(GameIn)
@blp.response(201, LayoutOut)
def create_game(args):
    """A new game at its limits (poker: variant, structure, blinds; table games: minimum and maximum bet)."""
    layout.create_game(db.session, actor(), args)
    db.session.commit()
    return _layout()


@blp.route("/games/<int:game_id>", methods=["PATCH"])
@allow("admin")
@blp.arguments(GameChange)
@blp.response(200, LayoutOut)
def change_game(args, game_id: int):
    """A game's name or limits; its kind stays while a table deals it."""
    layout.change_game(db.session, actor(), game_id, args)
    db.session.commit()
    return _layout()


@blp.route("/tables", methods=["POST"])
@allow("admin")
@blp.arguments(TableIn)
@blp.response(201, LayoutOut)
def create_table(args):
    """A new table (closed), with its seats."""
    layout.create_table(db.session, actor(), args["number"], args["name"], args["game_id"], args["seats"])
    db.session.commit()
    return _layout()


@blp.route("/tables/<int:table_number>", methods=["PATCH"])
@allow("admin")
@blp.arguments(TableLayoutChange)
@blp.response(200, LayoutOut)
def change_table(args, table_number: int):
    """A table's name at any time; its game and seats while it is closed and empty."""
    layout.change_table(db.session, actor(), table_number, **args)
    db.session.commit()
    return _layout()
