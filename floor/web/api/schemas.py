"""Marshmallow schemas shared by the API modules (they also make the OpenAPI document)."""
from __future__ import annotations

from marshmallow import RAISE, Schema, fields


class Strict(Schema):
    class Meta:
        unknown = RAISE   # a misspelt field is an error naming it, not silently ignored


class ErrorSchema(Schema):
    error = fields.String(required=True)
    message = fields.String(required=True)
    field = fields.String()


class GameSchema(Schema):
    id = fields.Integer()
    name = fields.String()
    kind = fields.String()
    variant = fields.String(allow_none=True)
    structure = fields.String(allow_none=True)
    small_blind = fields.Integer(metadata={"description": "cents"})
    big_blind = fields.Integer(metadata={"description": "cents"})
    min_bet = fields.Integer(metadata={"description": "cents"})
    max_bet = fields.Integer(metadata={"description": "cents"})


class SeatPlayerSchema(Schema):
    id = fields.Integer()
    name = fields.String()


class SeatSchema(Schema):
    number = fields.Integer()
    player = fields.Nested(SeatPlayerSchema, allow_none=True)
    sat_at = fields.String(allow_none=True)


class TableSchema(Schema):
    id = fields.Integer()
    number = fields.Integer()
    name = fields.String()
    kind = fields.String()
    status = fields.String()
    seat_count = fields.Integer()
    occupied = fields.Integer()
    game = fields.Nested(GameSchema)
    seats = fields.List(fields.Nested(SeatSchema))


class PlayerSchema(Schema):
    id = fields.Integer(dump_only=True)
    name = fields.String()
    card_number = fields.String()
    phone = fields.String(allow_none=True)


class PlayerCreateSchema(Strict):
    name = fields.String(required=True)
    card_number = fields.String(required=True)
    phone = fields.String(load_default=None, allow_none=True)
    same_name_confirmed = fields.Boolean(load_default=False)


class PlayerQuerySchema(Strict):
    q = fields.String(load_default="")


class PlayerDuplicatesQuerySchema(Strict):
    name = fields.String(load_default="")
    card_number = fields.String(load_default="")


class AlertSchema(Schema):
    id = fields.Integer()
    at = fields.String()
    kind = fields.String()
    severity = fields.String()
    table_id = fields.Integer(allow_none=True)
    message = fields.String()
    data = fields.Dict(allow_none=True)
    acknowledged = fields.Boolean()


class EmptySchema(Strict):
    """A body with no fields (an action): anything sent is refused by name."""
