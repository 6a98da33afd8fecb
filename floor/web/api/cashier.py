"""The cashier: a player's balance, credits and debits (audited), and the books' check."""
from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from floor import ledger, players
from floor.web.api.cashier_schemas import AccountSchema, CashRequestSchema
from floor.web.api.schemas import Strict, cents
from floor.web.extensions import db, house
from floor.web.policy import actor, allow

blp = Blueprint("api_cashier", __name__, url_prefix="/api", description="Player balances and the ledger")


class CashSchema(Strict):
    amount = cents(required=True)
    memo = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))


class CashDecisionSchema(Strict):
    reason = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))


class CashRejectSchema(Strict):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=200))


class CheckSchema(Schema):
    ok = fields.Boolean()
    total = fields.Integer()
    mismatched = fields.List(fields.Integer())
    negative_players = fields.List(fields.Integer())


def _player(player_id: int):
    players.get_player(db.session, player_id)


@blp.route("/cashier/players/<int:player_id>")
@allow("cashier", "pit_boss", "admin")
@blp.response(200, AccountSchema)
def account(player_id: int):
    """A player's balance and his latest transfers."""
    _player(player_id)
    return ledger.statement(db.session, player_id)


def _answer(out: ledger.Statement):
    db.session.commit()
    return out, 202 if out.pending is not None else 200


@blp.route("/cashier/players/<int:player_id>/credit", methods=["POST"])
@allow("cashier", "pit_boss")
@blp.arguments(CashSchema)
@blp.response(200, AccountSchema)
@blp.alt_response(202, schema=AccountSchema, description="above the two-person threshold: waits for a second pit boss")
def credit(args, player_id: int):
    """Cash in: the balance goes up (above the two-person threshold, once a second pit boss approves)."""
    return _answer(ledger.credit(db.session, actor(), player_id, args["amount"], args["memo"], house=house()))


@blp.route("/cashier/players/<int:player_id>/debit", methods=["POST"])
@allow("cashier", "pit_boss")
@blp.arguments(CashSchema)
@blp.response(200, AccountSchema)
@blp.alt_response(202, schema=AccountSchema, description="above the two-person threshold: waits for a second pit boss")
def debit(args, player_id: int):
    """Cash out: refused with 409 insufficient_balance when the balance is short."""
    return _answer(ledger.debit(db.session, actor(), player_id, args["amount"], args["memo"], house=house()))


@blp.route("/cashier/requests")
@allow("cashier", "pit_boss", "admin")
@blp.response(200, CashRequestSchema(many=True))
def requests():
    """Credits and debits waiting for a second pit boss."""
    return ledger.cash_requests(db.session)


@blp.route("/cashier/requests/<int:request_id>/approve", methods=["POST"])
@allow("pit_boss")   # the second person is a pit boss: an admin runs the system, not the money
@blp.arguments(CashDecisionSchema)
@blp.response(200, CashRequestSchema)
def approve(args, request_id: int):
    """A second, different pit boss approves: the money moves now (403 own_request for the one who asked)."""
    out = ledger.approve_cash(db.session, actor(), request_id, args["reason"])
    db.session.commit()
    return out


@blp.route("/cashier/requests/<int:request_id>/reject", methods=["POST"])
@allow("cashier", "pit_boss", "admin")
@blp.arguments(CashRejectSchema)
@blp.response(200, CashRequestSchema)
def reject(args, request_id: int):
    """Turn a waiting request down (a pit boss), or withdraw one's own: nothing moves."""
    out = ledger.reject_cash(db.session, actor(), request_id, args["reason"])
    db.session.commit()
    return out


@blp.route("/ledger/check")
@allow("pit_boss", "admin")
@blp.response(200, CheckSchema)
def check():
    """The books balance: every balance matches its transfers and they sum to zero."""
    return ledger.check(db.session).__dict__
