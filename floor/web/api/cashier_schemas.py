"""Response schemas of the cashier, from ``floor.ledger``'s statement and the cash request model."""
from __future__ import annotations

from marshmallow import Schema, fields

from floor.models import CashRequestKind, TransferKind
from floor.web.api.schemas import Cents, Choice, Iso


class CashRequestSchema(Schema):
    """A cash request (``floor.models.CashRequest``), in the cashier's answers and live."""

    id = fields.Integer()
    player_id = fields.Integer()
    kind = Choice(CashRequestKind)
    amount = Cents()
    memo = fields.String(allow_none=True)
    requested_by = fields.Integer(allow_none=True)
    requested_by_name = fields.String()
    requested_at = Iso(allow_none=True)
    state = Choice(("pending", "approved", "rejected", "withdrawn"))
    decided_by = fields.Integer(allow_none=True)
    decided_by_name = fields.String(allow_none=True)
    decided_at = Iso(allow_none=True)
    reason = fields.String(allow_none=True)


class AccountMoveSchema(Schema):
    id = fields.Integer()
    at = Iso(allow_none=True)
    kind = Choice(TransferKind)
    amount = Cents(metadata={"description": "cents: positive into the player's account, negative out of it"})
    round_id = fields.Integer(allow_none=True)
    bet_id = fields.Integer(allow_none=True)
    memo = fields.String(allow_none=True)


class AccountSchema(Schema):
    player_id = fields.Integer()
    balance = Cents()
    transfers = fields.List(fields.Nested(AccountMoveSchema), metadata={"description": "the latest, newest first"})
    pending = fields.Nested(CashRequestSchema, allow_none=True,
                            metadata={"description": "above the two-person threshold: the request waiting for a "
                                                     "second pit boss (nothing moved yet)"})
