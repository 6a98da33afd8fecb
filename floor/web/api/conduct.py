"""JSON API for conduct: warnings (given, counted, lifted) and bans (listed, decided, lifted)."""
from __future__ import annotations

from datetime import datetime, timezone

from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from floor import players as players_svc
from floor import tables as tables_svc
from floor.gaming_day import end_of_gaming_day
from floor.poker import conduct
from floor.poker import table as poker_table
from floor.web.api.poker_schemas import TicketSchema
from floor.web.api.schemas import Query, Said, Strict
from floor.web.extensions import db, house
from floor.web.policy import actor, allow

blp = Blueprint("api_conduct", __name__, url_prefix="/api/conduct",
                description="Warnings and bans in the poker room")
READ = ("floor_manager", "pit_boss", "admin")
DECIDE = ("floor_manager", "admin")


class WarningSchema(Schema):
    id = fields.Integer()
    player_id = fields.Integer()
    player = fields.String(allow_none=True)
    table_id = fields.Integer(allow_none=True)
    hand_id = fields.Integer(allow_none=True)
    reason = fields.String(metadata={"description": ", ".join(conduct.WARNING_REASONS)})
    reason_text = fields.String()
    note = fields.String()
    at = fields.String()
    given_by = fields.String(allow_none=True)
    given_by_id = fields.Integer(allow_none=True)
    ban_id = fields.Integer(allow_none=True)
    lifted_at = fields.String(allow_none=True)
    lift_reason = fields.String(allow_none=True)


class BanSchema(Schema):
    id = fields.Integer()
    player_id = fields.Integer()
    player = fields.String()
    scope = fields.String()
    reason = Said()
    decided_by = fields.Integer(allow_none=True)
    decided_by_name = fields.String(allow_none=True)
    starts_at = fields.String()
    expires_at = fields.String(allow_none=True)
    lifted_at = fields.String(allow_none=True)
    lift_reason = fields.String(allow_none=True)


class FreedSeatSchema(Schema):
    table_id = fields.Integer()
    table_number = fields.Integer()
    seat = fields.Integer()


class WarningResultSchema(Schema):
    warning = fields.Nested(WarningSchema)
    count = fields.Integer(metadata={"description": "warnings in the house window, this one included"})
    banned = fields.Boolean()
    ban = fields.Nested(BanSchema, allow_none=True)
    freed_seats = fields.List(fields.Nested(FreedSeatSchema))


class WarningCreateSchema(Strict):
    player_id = fields.Integer(required=True)
    reason = fields.String(required=True, validate=validate.OneOf(list(conduct.WARNING_REASONS)))
    note = fields.String(load_default="", validate=validate.Length(max=300))
    table_number = fields.Integer(load_default=None, allow_none=True)
    ban_confirmed = fields.Boolean(load_default=False, metadata={"description": "the warning that bans was confirmed"})


class WarningQuerySchema(Query):
    player_id = fields.Integer(load_default=None)


class LiftSchema(Strict):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=300))


class BanCreateSchema(Strict):
    player_id = fields.Integer(required=True)
    reason = fields.String(required=True, validate=validate.Length(min=1, max=300))
    until = fields.AwareDateTime(load_default=None, allow_none=True,
                                 metadata={"description": "default: the end of the gaming day"})


class ReasonTextSchema(Schema):
    code = fields.String()
    text = fields.String()


class PanelSchema(Schema):
    bans = fields.List(fields.Nested(BanSchema))
    warnings = fields.List(fields.Nested(WarningSchema))
    tickets = fields.List(fields.Nested(TicketSchema), metadata={"description": "recent tickets, newest first"})
    reasons = fields.List(fields.Nested(ReasonTextSchema))
    warnings_to_ban = fields.Integer()


def warning_result_json(r: conduct.WarningResult) -> dict:
    player = players_svc.get_player(db.session, r.warning.player_id)
    return {"warning": conduct.warning_json(r.warning, player.name), "count": r.count, "banned": r.ban is not None,
            "ban": None if r.ban is None else {**conduct.ban_json(r.ban), "player": player.name},
            "freed_seats": r.freed_seats}



@blp.route("/panel")
@allow(*READ)
@blp.response(200, PanelSchema)
def panel():
    """What the floor tablet's conduct panel shows: bans in force, this window's warnings, recent tickets."""
    return {"bans": conduct.active_bans(db.session), "warnings": conduct.warnings_list(db.session, house()),
            "tickets": poker_table.recent_tickets(db.session, 30),
            "reasons": [{"code": k, "text": v} for k, v in conduct.WARNING_REASONS.items()],
            "warnings_to_ban": house().warnings_to_ban}


@blp.route("/warnings")
@allow(*READ)
@blp.arguments(WarningQuerySchema, location="query")
@blp.response(200, WarningSchema(many=True))
def list_warnings(args):
    """Warnings in the house window (default: this gaming day), lifted ones included, newest first."""
    return conduct.warnings_list(db.session, house(), args["player_id"])


@blp.route("/warnings", methods=["POST"])
@allow(*DECIDE)
@blp.arguments(WarningCreateSchema)
@blp.response(201, WarningResultSchema)
def give_warning(args):
    """The floor records a warning. At the house count the player is banned for the rest of the gaming
    day and his poker seats are freed."""
    table_id = None
    if args["table_number"] is not None:
        table_id = tables_svc.table_by_number(db.session, args["table_number"]).id
    players_svc.get_player(db.session, args["player_id"])
    result = conduct.give_warning(db.session, actor(), args["player_id"], args["reason"], house(),
                                  note=args["note"], table_id=table_id, ban_confirmed=args["ban_confirmed"])
    db.session.commit()
    return warning_result_json(result)


@blp.route("/warnings/<int:warning_id>/lift", methods=["POST"])
@allow(*DECIDE)
@blp.arguments(LiftSchema)
@blp.response(200, WarningSchema)
def lift_warning(args, warning_id: int):
    """A floor manager lifts a warning, with a reason (audited)."""
    w = conduct.lift_warning(db.session, actor(), warning_id, args["reason"])
    db.session.commit()
    return conduct.warning_json(w, players_svc.get_player(db.session, w.player_id).name)


@blp.route("/bans")
@allow(*READ)
@blp.response(200, BanSchema(many=True))
def list_bans():
    """Bans in force: the player, the reason, who decided, the expiry."""
    return conduct.active_bans(db.session)


@blp.route("/bans", methods=["POST"])
@allow(*DECIDE)
@blp.arguments(BanCreateSchema)
@blp.response(201, BanSchema)
def create_ban(args):
    """The shift manager's decision in a case the rules do not list: a ban, by default to the end of the gaming day."""
    settings = house()
    now = datetime.now(timezone.utc)
    until = args["until"] or end_of_gaming_day(now, settings.timezone, settings.gaming_day_rollover)
    b, _ = conduct.ban_player(db.session, actor(), settings, args["player_id"], args["reason"], until, now)
    db.session.commit()
    return {**conduct.ban_json(b), "player": players_svc.get_player(db.session, b.player_id).name}


@blp.route("/bans/<int:ban_id>/lift", methods=["POST"])
@allow(*DECIDE)
@blp.arguments(LiftSchema)
@blp.response(200, BanSchema)
def lift_ban(args, ban_id: int):
    """A floor manager lifts a ban, with a reason (audited)."""
    b = conduct.lift_ban(db.session, actor(), ban_id, args["reason"])
    db.session.commit()
    return {**conduct.ban_json(b), "player": players_svc.get_player(db.session, b.player_id).name}
