"""Response schemas of the dealers' rotation, from the dataclasses of ``floor.dealers``."""
from __future__ import annotations

from marshmallow import Schema, fields

from floor.models import TableKind
from floor.web.api.schemas import Choice, Iso, Out


class RotationRowSchema(Out):
    OMIT_NONE = ("relief_at",)

    table_id = fields.Integer()
    table = fields.Integer(metadata={"description": "table number"})
    name = fields.String(allow_none=True)
    game = Choice(TableKind, allow_none=True)
    dealer_id = fields.Integer(allow_none=True)
    dealer = fields.String(allow_none=True, metadata={"description": "who deals there now; null: nobody"})
    since = Iso(allow_none=True)
    due_at = Iso(allow_none=True, metadata={"description": "when he is due for his break (now when nobody deals)"})
    incoming_id = fields.Integer(allow_none=True)
    incoming = fields.String(allow_none=True, metadata={"description": "who relieves him"})
    relief_at = Iso(metadata={"description": "when the relief comes; only with a relief planned"})
    over_max = fields.Boolean(metadata={"description": "his stint, to the relief planned (or to now), passes "
                                                      "the house's rotation_max_on_minutes"})


class TableDealerOut(RotationRowSchema):
    class Meta:
        exclude = ("name", "game")


class BreakRowSchema(Schema):
    dealer_id = fields.Integer()
    dealer = fields.String()
    since = Iso()
    ready_at = Iso(metadata={"description": "when he is rested and may take a table"})


class NextBreakSchema(Schema):
    table = fields.Integer(metadata={"description": "table number"})
    dealer = fields.String()
    due_at = Iso()


class RosterRowSchema(Schema):
    id = fields.Integer()
    name = fields.String()
    clocked_in = fields.Boolean()


class BoardOut(Schema):
    now = Iso()
    on_minutes = fields.Integer()
    off_minutes = fields.Integer()
    max_on_minutes = fields.Integer(metadata={"description": "rotation_max_on_minutes: the longest stint allowed"})
    over_max = fields.List(fields.Integer(), metadata={"description": "tables whose stint passes it"})
    tables = fields.List(fields.Nested(RotationRowSchema), metadata={"description": "per table of the rotation"})
    breaks = fields.List(fields.Nested(BreakRowSchema), metadata={"description": "dealers on a break"})
    next_break = fields.List(fields.Nested(NextBreakSchema))
    dealers = fields.List(fields.Nested(RosterRowSchema), metadata={"description": "every active dealer"})
