"""The cashier: a player's balance, credits and debits (audited), and the books' check."""
from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from floor import ledger, players
from floor.web.api.schemas import Strict, cents
from floor.web.extensions import db, house
from floor.web.policy import actor, allow

blp = Blueprint("api_cashier", __name__, url_prefix="/api", description="Player balances and the ledger")


class CashSchema(Strict):
    amount = cents(required=True)
    memo = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))


class AccountSchema(Schema):
    player_id = fields.Integer()
    balance = fields.Integer(metadata={"description": "cents"})
    transfers = fields.List(fields.Dict())


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
    return ledger.account_json(db.session, player_id)


@blp.route("/cashier/players/<int:player_id>/credit", methods=["POST"])
@allow("cashier", "pit_boss")
@blp.arguments(CashSchema)
@blp.response(200, AccountSchema)
def credit(args, player_id: int):
    """Cash in: the balance goes up."""
    out = ledger.credit(db.session, actor(), player_id, args["amount"], args["memo"], house=house())
    db.session.commit()
    return out


@blp.route("/cashier/players/<int:player_id>/debit", methods=["POST"])
@allow("cashier", "pit_boss")
@blp.arguments(CashSchema)
@blp.response(200, AccountSchema)
def debit(args, player_id: int):
    """Cash out: refused with 409 insufficient_balance when the balance is short."""
    out = ledger.debit(db.session, actor(), player_id, args["amount"], args["memo"], house=house())
    db.session.commit()
    return out


@blp.route("/ledger/check")
@allow("pit_boss", "admin")
@blp.response(200, CheckSchema)
def check():
    """The books balance: every balance matches its transfers and they sum to zero."""
    return ledger.check(db.session).__dict__
