"""Request and response schemas of a table's money: counts, slips, buy-ins, the drop, the sheet."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from floor.accounting.chips import MAX_CHIPS_PER_DENOMINATION
from floor.models import BuyInMethod, CountKind, SlipKind, SlipState
from floor.web.api.schemas import Cents, Choice, Iso, Query, Strict, cents


def chips_field(**kw) -> fields.Dict:
    return fields.Dict(
        keys=fields.String(validate=validate.Length(min=1, max=12),
                           metadata={"description": "a denomination of the house, in cents"}),
        values=fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_CHIPS_PER_DENOMINATION)),
        validate=validate.Length(min=1, max=20),
        metadata={"description": "chips by denomination: {\"2500\": 4, \"10000\": 20}"}, **kw)


class CountIn(Strict):
    kind = fields.String(required=True, validate=validate.OneOf([str(k) for k in CountKind]))
    chips = chips_field(required=True)


class SlipIn(Strict):
    kind = fields.String(required=True, validate=validate.OneOf([str(k) for k in SlipKind]))
    chips = chips_field(required=True)


class SlipCancelIn(Strict):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=200))


class BuyInIn(Strict):
    amount = cents(required=True)
    method = fields.String(load_default="cash", validate=validate.OneOf([str(m) for m in BuyInMethod]))
    seat = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(min=1, max=12))
    player_id = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(min=1, max=2**31 - 1))


class DropIn(Strict):
    day = fields.Date(required=True, metadata={"description": "the gaming day, YYYY-MM-DD"})
    total = cents(required=True, minimum=0)


class DayQuery(Query):
    day = fields.Date(load_default=None, metadata={"description": "the gaming day (default: today's)"})


class CountOut(Schema):
    id = fields.Integer()
    table_id = fields.Integer()
    kind = Choice(CountKind)
    gaming_day = fields.Date()
    chips = fields.Dict(keys=fields.String(), values=fields.Integer(),
                        metadata={"description": "chips by denomination (cents)"})
    total = Cents()
    counted_by_name = fields.String()
    counted_at = Iso()
    verified = fields.Boolean()
    verified_by_name = fields.String(allow_none=True)
    verified_at = Iso(allow_none=True)


class CountViewOut(Schema):
    count = fields.Nested(CountOut)
    expected = Cents(allow_none=True, metadata={"description": "what the ledger says the tray held: the previous "
                                                               "verified count and the tray's movements since"})
    difference = Cents(allow_none=True, metadata={"description": "counted - expected"})


class SlipOut(Schema):
    id = fields.Integer()
    serial = fields.Integer(metadata={"description": "the house's slip number: no gap, no repeat"})
    kind = Choice(SlipKind)
    state = Choice(SlipState)
    table_id = fields.Integer()
    table = fields.Integer(attribute="table.number", metadata={"description": "the table's number"})
    gaming_day = fields.Date()
    chips = fields.Dict(keys=fields.String(), values=fields.Integer())
    total = Cents()
    requested_by_name = fields.String()
    requested_at = Iso()
    issued_by_name = fields.String(allow_none=True)
    issued_at = Iso(allow_none=True)
    received_by_name = fields.String(allow_none=True)
    received_at = Iso(allow_none=True)
    approved_by_name = fields.String(allow_none=True, metadata={"description": "the second person, above the "
                                                                              "two-person threshold"})
    cancelled_by_name = fields.String(allow_none=True)
    cancelled_at = Iso(allow_none=True)
    cancel_reason = fields.String(allow_none=True)
    transfer_id = fields.Integer(allow_none=True, metadata={"description": "the ledger transfer made on receipt"})


class BuyInOut(Schema):
    id = fields.Integer()
    table_id = fields.Integer()
    gaming_day = fields.Date()
    method = Choice(BuyInMethod)
    amount = Cents()
    seat = fields.Integer(allow_none=True)
    player_id = fields.Integer(allow_none=True)
    recorded_by_name = fields.String()
    at = Iso()


class DropCountOut(Schema):
    id = fields.Integer()
    table_id = fields.Integer()
    gaming_day = fields.Date()
    total = Cents()
    counted_by_name = fields.String()
    counted_at = Iso()
    verified_by_name = fields.String(allow_none=True)
    verified_at = Iso(allow_none=True)


class ShiftOut(Schema):
    opening = fields.Nested(CountOut)
    closing = fields.Nested(CountOut, allow_none=True)
    drop = Cents(metadata={"description": "buy-ins recorded in the shift"})
    fills = Cents(attribute="moves.fills")
    credits = Cents(attribute="moves.credits")
    inventory_win = Cents(attribute="reconciliation.inventory_win", allow_none=True)
    rounds_win = Cents(attribute="moves.rounds_win", metadata={"description": "the house's result of the rounds in chips"})
    difference = Cents(attribute="reconciliation.difference", allow_none=True,
                       metadata={"description": "inventory win - rounds' win; null while the shift is open"})
    hold = fields.Integer(attribute="reconciliation.hold_bp", allow_none=True,
                          metadata={"description": "hundredths of a percent"})
    rounds = fields.Function(lambda s: sorted(s.moves.round_ids), metadata={"description": "the rounds' ids"})


class TableDayOut(Schema):
    table_id = fields.Integer()
    table = fields.Integer()
    name = fields.String()
    game = fields.String()
    drop = Cents()
    recorded_drop = Cents()
    counted_drop = Cents(allow_none=True)
    drop_difference = Cents(allow_none=True, metadata={"description": "counted - recorded"})
    fills = Cents()
    credits = Cents()
    opening = Cents(allow_none=True)
    closing = Cents(allow_none=True)
    win = Cents(allow_none=True)
    hold = fields.Integer(attribute="hold_bp", allow_none=True, metadata={"description": "hundredths of a percent"})
    rounds_win = Cents(allow_none=True)
    difference = Cents(allow_none=True)
    shifts = fields.List(fields.Nested(ShiftOut))


class CountDueOut(Schema):
    since = fields.DateTime()
    dealer_name = fields.String()


class SheetOut(Schema):
    day = fields.Nested(TableDayOut)
    gaming_day = fields.Date()
    counts = fields.List(fields.Nested(CountViewOut))
    slips = fields.List(fields.Nested(SlipOut))
    buy_ins = fields.List(fields.Nested(BuyInOut))
    drop_count = fields.Nested(DropCountOut, allow_none=True)
    count_due = fields.Nested(CountDueOut, allow_none=True, metadata={
        "description": "a new dealer took the table since the last count and the house counts at each change"})
