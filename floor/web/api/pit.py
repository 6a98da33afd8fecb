"""The pit boss: round timelines, rulings (confirm, void, correct) under the two-person rule, shift
figures, the warnings and bans review, and the poker hands a showdown ruling refers to."""
from __future__ import annotations

from datetime import date, datetime, timezone

from flask_smorest import Blueprint
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from floor import pit
from floor import players as players_svc
from floor import tables as tables_svc
from floor.errors import BadInput
from floor.poker import conduct
from floor.web.api.conduct import BanSchema, WarningSchema
from floor.web.api.disputes import PokerRulingOut
from floor.web.api.pit_schemas import ConductSchema, RulingOut, ShiftSchema, TimelineSchema
from floor.web.api.schemas import Cents, Iso, Query, Said, Strict
from floor.web.extensions import db, house
from floor.web.policy import actor, allow

blp = Blueprint("api_pit", __name__, url_prefix="/api/pit",
                description="Pit boss: round timelines and replays, rulings, shift figures, conduct review")

VIEW = ("pit_boss", "admin", "floor_manager", "cashier")   # read a timeline, the figures
RULE = ("pit_boss", "admin")                                 # rule, approve, lift



class RoundsQuery(Query):
    table_number = fields.Integer(load_default=None)
    number = fields.Integer(load_default=None, metadata={"description": "the round's number at its table"})
    status = fields.String(load_default=None, validate=validate.OneOf(
        ["betting", "locked", "dealing", "result", "held", "settled", "voided"]))
    limit = fields.Integer(load_default=30, validate=validate.Range(min=1, max=200))
    before_id = fields.Integer(load_default=None)


class RoundRow(Schema):
    id = fields.Integer()
    table_id = fields.Integer()
    table_number = fields.Integer()
    table_name = fields.String()
    number = fields.Integer()
    kind = fields.String()
    status = fields.String()
    coup = fields.Integer(allow_none=True)
    spin = fields.Integer(allow_none=True)
    opened_at = fields.String(allow_none=True)
    ended_at = fields.String(allow_none=True)
    result = fields.String(metadata={"description": "the result in a few words"})
    held_reason = Said(allow_none=True)
    staked = fields.Integer()
    bets = fields.Integer()
    rulings = fields.Integer()


class RulingIn(Strict):
    kind = fields.String(required=True, validate=validate.OneOf(["confirm", "void", "correct"]))
    reason = fields.String(required=True, validate=validate.Length(min=3, max=500))
    number = fields.Integer(load_default=None, allow_none=True, metadata={"description": "roulette: the real number"})
    cards = fields.List(fields.String(), load_default=None, allow_none=True,
                        metadata={"description": "baccarat: the whole coup in shoe order"})
    replace = fields.Dict(keys=fields.String(), values=fields.String(), load_default=None, allow_none=True,
                          metadata={"description": "card games: {place in the deal: the real card}, e.g. {\"5\": \"4C\"}"})

    @validates_schema
    def _correction(self, data, **kw):
        if data["kind"] == "correct" and data.get("number") is None and not data.get("cards") and not data.get("replace"):
            raise ValidationError("say what was mis-read: number, cards or replace", "replace")


class RulingsQuery(Query):
    pending = fields.Boolean(load_default=False)
    limit = fields.Integer(load_default=30, validate=validate.Range(min=1, max=200))


class AnswerIn(Strict):
    reason = fields.String(load_default="", validate=validate.Length(max=500))


class RejectIn(Strict):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))


class ShiftQuery(Query):
    day = fields.Date(load_default=None, metadata={"description": "gaming day, YYYY-MM-DD (default: today's)"})
    table_number = fields.Integer(load_default=None)


class ConductQuery(Query):
    days = fields.Integer(load_default=7, validate=validate.Range(min=1, max=366))


class LiftIn(Strict):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=300))


class HandSeatOut(Schema):
    seat = fields.Integer()
    player_id = fields.Integer(allow_none=True)
    player = fields.String(allow_none=True)
    role = fields.String(allow_none=True, metadata={"description": "button | small | big | third"})
    posted = Cents(metadata={"description": "cents posted (blinds, straddle)"})


class PokerHandOut(Schema):
    """A dealer terminal's hand (``floor.pit.review.LaidOutHand``)."""

    id = fields.Integer(attribute="hand.id")
    table_id = fields.Integer(attribute="hand.table_id")
    number = fields.Integer(attribute="hand.number")
    started_at = Iso(attribute="hand.started_at")
    button = fields.Integer(attribute="hand.button_seat", allow_none=True)
    small = fields.Integer(attribute="hand.small_seat", allow_none=True)
    big = fields.Integer(attribute="hand.big_seat", allow_none=True)
    seats = fields.List(fields.Nested(HandSeatOut), metadata={"description": "from the left of the button"})


class LinkedRulingOut(PokerRulingOut):
    """A poker ruling (``floor.pit.review.LinkedRuling``) with the hand it names."""

    hand = fields.Nested(PokerHandOut, allow_none=True)

    def get_attribute(self, obj, attr, default):
        if attr == "hand":
            return obj.hand
        return super().get_attribute(obj.ruling, attr, default)


class HandsQuery(Query):
    table_number = fields.Integer(required=True)


def gaming_day(day: date | None) -> date:
    return day or pit.today(house(), datetime.now(timezone.utc))


@blp.route("/rounds")
@allow(*VIEW)
@blp.arguments(RoundsQuery, location="query")
@blp.response(200, RoundRow(many=True))
def list_rounds(args):
    """Rounds of any table, newest first (filter by table, round number, status)."""
    rows = pit.recent_rounds(db.session, args["table_number"], args["status"], args["limit"], args["before_id"])
    if args["number"] is not None:
        if args["table_number"] is None:
            raise BadInput("a round number is per table: give table_number too", field="table_number")
        r = pit.find_round(db.session, args["table_number"], args["number"])
        rows = [x for x in pit.recent_rounds(db.session, args["table_number"], None, 1, r.id + 1)]
    return rows


@blp.route("/rounds/<int:round_id>/timeline")
@allow(*VIEW)
@blp.response(200, TimelineSchema)
def timeline(round_id: int):
    """The round laid out again: raw device frames as received (decoded alongside), state changes,
    bets and decisions (who, from which terminal), the result, every transfer, the rulings; the
    cards as dealt and the replay of the result from the recorded cards."""
    return pit.timeline(db.session, round_id, house())


@blp.route("/rounds/<int:round_id>/rulings", methods=["POST"])
@allow(*RULE)
@blp.arguments(RulingIn)
@blp.response(201, RulingOut)
def rule(args, round_id: int):
    """Rule on a round: confirm, void (every bet returned), or correct a mis-read card or number and
    re-settle. Above the house threshold a void or correction waits for a second pit boss."""
    correction = None
    if args["kind"] == "correct":
        correction = {k: args[k] for k in ("number", "cards", "replace") if args.get(k) not in (None, [], {})}
    ruling = pit.rule(db.session, actor(), round_id, args["kind"], args["reason"], correction, house=house())
    db.session.commit()
    return pit.ruling_of(db.session, ruling)


@blp.route("/rulings")
@allow(*VIEW)
@blp.arguments(RulingsQuery, location="query")
@blp.response(200, RulingOut(many=True))
def list_rulings(args):
    """Recent rulings on rounds, or only those waiting for a second pit boss."""
    return pit.recent(db.session, args["limit"], only_pending=args["pending"])


@blp.route("/rulings/<int:ruling_id>/approve", methods=["POST"])
@allow(*RULE)
@blp.arguments(AnswerIn)
@blp.response(200, RulingOut)
def approve(args, ruling_id: int):
    """The second pit boss approves: the ruling is applied now. The one who made it may not (403)."""
    ruling = pit.approve(db.session, actor(), ruling_id, args["reason"], house=house())
    db.session.commit()
    return pit.ruling_of(db.session, ruling)


@blp.route("/rulings/<int:ruling_id>/reject", methods=["POST"])
@allow(*RULE)
@blp.arguments(RejectIn)
@blp.response(200, RulingOut)
def reject(args, ruling_id: int):
    """Turn a pending ruling down (or withdraw one's own): nothing moves."""
    ruling = pit.reject(db.session, actor(), ruling_id, args["reason"])
    db.session.commit()
    return pit.ruling_of(db.session, ruling)


@blp.route("/shift")
@allow(*VIEW)
@blp.arguments(ShiftQuery, location="query")
@blp.response(200, ShiftSchema)
def shift(args):
    """Shift figures per table for a gaming day (CSV: /pit/shift.csv?day=...)."""
    return pit.figures(db.session, gaming_day(args["day"]), house(), args["table_number"])


@blp.route("/conduct")
@allow(*VIEW)
@blp.arguments(ConductQuery, location="query")
@blp.response(200, ConductSchema)
def conduct_review(args):
    """Every warning and ban of the last days (and every ban in force): who gave it, why, lifted by whom."""
    return pit.conduct_review(db.session, args["days"])


@blp.route("/conduct/warnings/<int:warning_id>/lift", methods=["POST"])
@allow(*RULE)
@blp.arguments(LiftIn)
@blp.response(200, WarningSchema)
def lift_warning(args, warning_id: int):
    """The pit boss lifts a warning on review, with a reason (audited)."""
    w = conduct.lift_warning(db.session, actor(), warning_id, args["reason"])
    db.session.commit()
    return conduct.warning_json(w, players_svc.get_player(db.session, w.player_id).name)


@blp.route("/conduct/bans/<int:ban_id>/lift", methods=["POST"])
@allow(*RULE)
@blp.arguments(LiftIn)
@blp.response(200, BanSchema)
def lift_ban(args, ban_id: int):
    """The pit boss lifts a ban on review, with a reason (audited)."""
    b = conduct.lift_ban(db.session, actor(), ban_id, args["reason"])
    db.session.commit()
    return {**conduct.ban_json(b), "player": players_svc.get_player(db.session, b.player_id).name}


@blp.route("/poker/hands")
@allow(*RULE)
@blp.arguments(HandsQuery, location="query")
@blp.response(200, PokerHandOut(many=True))
def poker_hands(args):
    """A poker table's last hands from the dealer terminal, seats in order from the left of the
    button, to lay a disputed hand out in the showdown tool."""
    table = tables_svc.table_by_number(db.session, args["table_number"])
    return pit.poker_hands(db.session, table.id)


@blp.route("/poker/linked-rulings")
@allow(*RULE)
@blp.response(200, LinkedRulingOut(many=True))
def poker_rulings():
    """Recent poker rulings with the dealer terminal's hand they name (when it exists)."""
    return pit.poker_rulings(db.session)
