"""Playing on by hand when a table's device fails: the pit boss's switch, the number keyed at the
dealer terminal (cards go through ``POST /api/tables/{n}/round/card``), the second person's
confirmation or refusal."""
from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from floor import rounds
from floor import tables as tables_svc
from floor.rounds import hand
from floor.web.api.round_schemas import RoundSchema, TableStateSchema
from floor.web.api.schemas import EmptySchema, Strict
from floor.web.extensions import db, house
from floor.web.policy import actor, allow

blp = Blueprint("api_hand", __name__, url_prefix="/api", description="Entry by hand when a device fails")

KEYS = ("dealer", "pit_boss", "admin")


class EntrySwitchIn(Strict):
    by_hand = fields.Boolean(required=True, metadata={"description": "true: entry by hand; false: back to the device"})
    reason = fields.String(load_default="", validate=validate.Length(max=200),
                           metadata={"description": "why (required to leave the device)"})


class KeyedNumberIn(Strict):
    number = fields.Integer(required=True, validate=validate.Range(min=0, max=36),
                            metadata={"description": "the winning number, 0-36"})


class RefuseHandIn(Strict):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=200))


class EntryTableSchema(Schema):
    table_id = fields.Integer()
    number = fields.Integer()
    name = fields.String()
    kind = fields.String()
    status = fields.String()
    device = fields.String(metadata={"description": "wheel | shoe | scanner"})
    by_hand = fields.Boolean()
    since = fields.String(allow_none=True)
    reason = fields.String(allow_none=True)
    switched_by = fields.String(allow_none=True)


def _table(number: int):
    return tables_svc.table_by_number(db.session, number)


@blp.route("/tables/entry")
@allow("pit_boss", "floor_manager", "admin")
@blp.response(200, EntryTableSchema(many=True))
def entry_tables():
    """Every live-game table with how its results come in: its device, or by hand."""
    return hand.tables(db.session)


@blp.route("/tables/<int:table_number>/entry", methods=["POST"])
@allow("pit_boss")
@blp.arguments(EntrySwitchIn)
@blp.response(200, TableStateSchema)
def switch(args, table_number: int):
    """The pit boss switches the table to entry by hand (its device lost, faulty or refused) or
    back to its device. Only a pit boss."""
    t = _table(table_number)
    hand.switch(db.session, actor(), t.id, args["by_hand"], args["reason"])
    db.session.commit()
    return rounds.table_state(db.session, t.id, house())


@blp.route("/tables/<int:table_number>/round/number", methods=["POST"])
@allow(*KEYS, table_arg="table_number")
@blp.arguments(KeyedNumberIn)
@blp.response(200, TableStateSchema)
def key_number(args, table_number: int):
    """The winning number keyed at the terminal of a roulette table on entry by hand. It waits for
    a second person's confirmation; nothing settles before."""
    t = _table(table_number)
    hand.key_number(db.session, actor(), t.id, args["number"])
    db.session.commit()
    return rounds.table_state(db.session, t.id, house())


@blp.route("/rounds/keyed")
@allow("pit_boss", "floor_manager", "admin")
@blp.response(200, RoundSchema(many=True))
def keyed():
    """Results entered by hand waiting for a second person."""
    return [rounds.round_detail(db.session, r, house()) for r in hand.waiting(db.session)]


@blp.route("/rounds/<int:round_id>/confirm-hand", methods=["POST"])
@allow("pit_boss", "floor_manager")
@blp.arguments(EmptySchema)
@blp.response(200, RoundSchema)
def confirm(_args, round_id: int):
    """A second person (a floor manager or pit boss who keyed none of it) confirms the result
    entered by hand: the round settles, once, however often this is sent."""
    out = hand.confirm(db.session, actor(), round_id)
    rounds.commit_then_settle(db.session, out, house=house())   # the house settles (the ledger's round money)
    return rounds.round_detail(db.session, rounds.get_round(db.session, round_id), house())


@blp.route("/rounds/<int:round_id>/refuse-hand", methods=["POST"])
@allow("pit_boss", "floor_manager")
@blp.arguments(RefuseHandIn)
@blp.response(200, RoundSchema)
def refuse(args, round_id: int):
    """The second person refuses the result entered by hand: a number is keyed again, a card
    round is held for the pit boss."""
    hand.refuse(db.session, actor(), round_id, args["reason"])
    db.session.commit()
    return rounds.round_detail(db.session, rounds.get_round(db.session, round_id), house())
