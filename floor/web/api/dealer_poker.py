"""JSON API of the poker dealer terminal: the table's state and next hand, New hand, the button,
sit-outs, entry choices, straddles, missed-blind tickets and their corrections, warnings from the table."""
from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from floor import tables as tables_svc
from floor.errors import NotFound
from floor.poker import conduct, queries
from floor.poker import table as svc
from floor.web.api.conduct import WarningResultSchema, warning_result_json
from floor.web.api.poker_schemas import TicketSchema
from floor.web.api.schemas import EmptySchema, Iso, Strict
from floor.web.extensions import db, house
from floor.web.policy import actor, allow

blp = Blueprint("api_poker", __name__, url_prefix="/api/poker",
                description="Poker dealer terminal: button, blinds, sit-outs, missed-blind tickets, straddles")
TERMINAL = ("dealer", "floor_manager", "pit_boss", "admin")


# --- schemas ----------------------------------------------------------------------------------------

class PostingSchema(Schema):
    """A blind or straddle: planned (``floor.poker.blinds.Posting``) or posted (``PokerPosting``)."""

    seat = fields.Integer()
    kind = fields.String(metadata={"description": "small_blind | big_blind | third_blind | straddle | entry | "
                                                  "dead_small | dead_big"})
    amount = fields.Integer(metadata={"description": "cents"})
    live = fields.Boolean(metadata={"description": "live bets count toward his call; dead money goes to the pot"})


class OwedSchema(Schema):
    """``floor.poker.blinds.Owed``."""

    live = fields.Integer(metadata={"description": "cents"})
    dead_small = fields.Integer()
    dead_big = fields.Integer()
    total = fields.Integer()
    wait_for_bb = fields.Boolean(metadata={"description": "he may only come in at the big blind"})
    reason = fields.String()


class NextSeatSchema(Schema):
    status = fields.String(metadata={"description": "dealt | away | waiting"})
    role = fields.String(allow_none=True, metadata={"description": "button | small | big | third"})
    note = fields.String()
    postings = fields.List(fields.Nested(PostingSchema))
    total = fields.Integer()


class SeatPlayerRefSchema(Schema):
    id = fields.Integer()
    name = fields.String()


class PokerSeatSchema(Schema):
    number = fields.Integer()
    player = fields.Nested(SeatPlayerRefSchema, allow_none=True)
    assignment_id = fields.Integer()
    arrival = fields.String()
    sat_at = fields.String()
    away = fields.Boolean()
    away_since = fields.String(allow_none=True)
    kind = fields.String(metadata={"description": "in | new | far | must_move | returning"})
    missed = fields.List(fields.String())
    wait_for_bb = fields.Boolean()
    owes = fields.Nested(OwedSchema)
    tickets = fields.Integer()
    warnings = fields.Integer()
    next = fields.Nested(NextSeatSchema, allow_none=True)


class HandSeatSchema(Schema):
    seat = fields.Integer(attribute="seat_number")
    player_id = fields.Integer()
    status = fields.String()
    role = fields.String(allow_none=True)
    note = fields.String()


class HandSchema(Schema):
    """A hand dealt (``floor.models.PokerHand``)."""

    id = fields.Integer()
    number = fields.Integer()
    started_at = Iso()
    button = fields.Integer(attribute="button_seat", allow_none=True)
    small = fields.Integer(attribute="small_seat", allow_none=True)
    big = fields.Integer(attribute="big_seat", allow_none=True)
    third = fields.Integer(attribute="third_seat", allow_none=True)
    straddle = fields.Integer(attribute="straddle_seat", allow_none=True)
    first_to_act = fields.Integer(allow_none=True)
    dead_button = fields.Boolean()
    dead_small = fields.Boolean()
    heads_up = fields.Boolean()
    new_game = fields.Boolean()
    postings = fields.List(fields.Nested(PostingSchema))
    seats = fields.List(fields.Nested(HandSeatSchema))


class MissSchema(Schema):
    seat = fields.Integer()
    blind = fields.String()
    ticket = fields.Boolean()


class ForfeitSchema(Schema):
    seat = fields.Integer()
    player = fields.String()
    tickets = fields.Integer(metadata={"description": "his tickets once this hand is dealt: the forfeit count"})


class NextHandSchema(Schema):
    button = fields.Integer(allow_none=True)
    small = fields.Integer(allow_none=True)
    big = fields.Integer(allow_none=True)
    third = fields.Integer(allow_none=True)
    dead_button = fields.Boolean()
    dead_small = fields.Boolean()
    heads_up = fields.Boolean()
    new_game = fields.Boolean()
    first_to_act = fields.Integer(allow_none=True)
    dealt = fields.List(fields.Integer())
    postings = fields.List(fields.Nested(PostingSchema))
    misses = fields.List(fields.Nested(MissSchema))
    forfeits = fields.List(fields.Nested(ForfeitSchema), metadata={"description": "seats this hand frees"})


class TerminalTableSchema(Schema):
    id = fields.Integer()
    number = fields.Integer()
    name = fields.String()
    status = fields.String()
    seat_count = fields.Integer()
    game = fields.String()
    small_blind = fields.Integer()
    big_blind = fields.Integer()


class RulesSchema(Schema):
    policy = fields.String()
    dead_button = fields.Boolean()
    third_blind = fields.Boolean()
    tickets_to_forfeit = fields.Integer()
    tickets_on = fields.String()
    straddle = fields.Integer()
    warnings_to_ban = fields.Integer()


class TerminalSchema(Schema):
    table = fields.Nested(TerminalTableSchema)
    rules = fields.Nested(RulesSchema)
    seats = fields.List(fields.Nested(PokerSeatSchema))
    last_hand = fields.Nested(HandSchema, allow_none=True)
    button_placed = fields.Integer(allow_none=True)
    next_hand = fields.Nested(NextHandSchema, allow_none=True)
    next_hand_error = fields.String(allow_none=True)
    tickets = fields.List(fields.Nested(TicketSchema))
    now = fields.String()


class NewHandSchema(Strict):
    straddle = fields.Boolean(load_default=False, metadata={"description": "the seat after the big blind straddles"})


class ButtonSchema(Strict):
    seat = fields.Integer(required=True)
    reason = fields.String(load_default="", validate=validate.Length(max=200))
    new_game = fields.Boolean(load_default=False)


class BackSchema(Strict):
    wait_for_bb = fields.Boolean(load_default=None, allow_none=True)


class EntryChoiceSchema(Strict):
    wait_for_bb = fields.Boolean(required=True)


class ReasonSchema(Strict):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=200))


class SeatWarningSchema(Strict):
    reason = fields.String(required=True, validate=validate.OneOf(list(conduct.WARNING_REASONS)))
    note = fields.String(load_default="", validate=validate.Length(max=300))
    ban_confirmed = fields.Boolean(load_default=False, metadata={"description": "the warning that bans was confirmed"})


# --- routes -----------------------------------------------------------------------------------------


def _table(number: int):
    return tables_svc.table_by_number(db.session, number)


def _state(table):
    return svc.terminal(db.session, table, house())


@blp.route("/tables/<int:table_number>")
@allow(*TERMINAL, table_arg="table_number")
@blp.response(200, TerminalSchema)
def terminal(table_number: int):
    """The terminal: seats, who is away and since when, the next hand (button, blinds, what each seat
    posts or owes), the last hand, recent tickets."""
    return _state(_table(table_number))


@blp.route("/tables/<int:table_number>/hands", methods=["POST"])
@allow(*TERMINAL, table_arg="table_number")
@blp.arguments(NewHandSchema)
@blp.response(201, TerminalSchema)
def new_hand(args, table_number: int):
    """New hand: moves the button, records who posted what, who sat out or waited, the blinds missed
    by away players (tickets), and frees the seat of a player reaching the forfeit count."""
    table = _table(table_number)
    svc.new_hand(db.session, actor(), table, house(), straddle=args["straddle"])
    db.session.commit()
    return _state(table)


@blp.route("/tables/<int:table_number>/hands/<int:hand_id>/straddle", methods=["POST"])
@allow(*TERMINAL, table_arg="table_number")
@blp.arguments(EmptySchema)
@blp.response(201, TerminalSchema)
def straddle(args, table_number: int, hand_id: int):
    """The player after the big blind straddles (2 big blinds, before the cards): he acts last preflop."""
    table = _table(table_number)
    svc.record_straddle(db.session, actor(), table, hand_id, house())
    db.session.commit()
    return _state(table)


@blp.route("/tables/<int:table_number>/button", methods=["POST"])
@allow(*TERMINAL, table_arg="table_number")
@blp.arguments(ButtonSchema)
@blp.response(200, TerminalSchema)
def place_button(args, table_number: int):
    """Put the button on a seat for the next hand (the draw at the start of a game; a correction with a reason)."""
    table = _table(table_number)
    svc.place_button(db.session, actor(), table, args["seat"], args["reason"], args["new_game"])
    db.session.commit()
    return _state(table)


@blp.route("/tables/<int:table_number>/seats/<int:seat>/away", methods=["POST"])
@allow(*TERMINAL, table_arg="table_number")
@blp.arguments(EmptySchema)
@blp.response(200, TerminalSchema)
def away(args, table_number: int, seat: int):
    """The player steps away: he keeps the seat, is not dealt in, and misses the blinds that pass him."""
    table = _table(table_number)
    svc.mark_away(db.session, actor(), table, seat, house())
    db.session.commit()
    return _state(table)


@blp.route("/tables/<int:table_number>/seats/<int:seat>/back", methods=["POST"])
@allow(*TERMINAL, table_arg="table_number")
@blp.arguments(BackSchema)
@blp.response(200, TerminalSchema)
def back(args, table_number: int, seat: int):
    """The player is back: what he owes is applied on the next New hand (or he waits for the big blind)."""
    table = _table(table_number)
    svc.mark_back(db.session, actor(), table, seat, house(), wait_for_bb=args["wait_for_bb"])
    db.session.commit()
    return _state(table)


@blp.route("/tables/<int:table_number>/seats/<int:seat>/entry", methods=["POST"])
@allow(*TERMINAL, table_arg="table_number")
@blp.arguments(EntryChoiceSchema)
@blp.response(200, TerminalSchema)
def entry(args, table_number: int, seat: int):
    """A player coming in posts now, or waits for the big blind."""
    table = _table(table_number)
    svc.choose_entry(db.session, actor(), table, seat, args["wait_for_bb"])
    db.session.commit()
    return _state(table)


@blp.route("/tables/<int:table_number>/tickets")
@allow(*TERMINAL, table_arg="table_number")
@blp.response(200, TicketSchema(many=True))
def table_tickets(table_number: int):
    """Missed-blind tickets at this table, with corrections, newest first."""
    return svc.tickets(db.session, _table(table_number))


@blp.route("/tables/<int:table_number>/seats/<int:seat>/tickets", methods=["POST"])
@allow(*TERMINAL, table_arg="table_number")
@blp.arguments(ReasonSchema)
@blp.response(201, TerminalSchema)
def add_ticket(args, table_number: int, seat: int):
    """Hand a ticket the system did not record (a correction, with a reason)."""
    table = _table(table_number)
    svc.issue_ticket(db.session, actor(), table, seat, args["reason"], house())
    db.session.commit()
    return _state(table)


@blp.route("/tables/<int:table_number>/tickets/<int:ticket_id>/void", methods=["POST"])
@allow(*TERMINAL, table_arg="table_number")
@blp.arguments(ReasonSchema)
@blp.response(201, TerminalSchema)
def void_ticket(args, table_number: int, ticket_id: int):
    """Correct a wrong ticket: a new row voids it (the miss no longer counts toward what he owes)."""
    table = _table(table_number)
    svc.void_ticket(db.session, actor(), table, ticket_id, args["reason"])
    db.session.commit()
    return _state(table)


@blp.route("/tables/<int:table_number>/seats/<int:seat>/warnings", methods=["POST"])
@allow(*TERMINAL, table_arg="table_number")
@blp.arguments(SeatWarningSchema)
@blp.response(201, WarningResultSchema)
def warn_seat(args, table_number: int, seat: int):
    """A warning for the player in this seat. At the house count he is banned for the rest of the
    gaming day and his seat is freed."""
    table = _table(table_number)
    a = queries.open_assignment(db.session, table.id, seat)
    if a is None:
        raise NotFound("nobody sits in seat {seat} at table {table}", seat=seat, table=table.number)
    last = svc.load(db.session, table, house()).last_hand
    result = conduct.give_warning(db.session, actor(), a.player_id, args["reason"], house(), note=args["note"],
                                  table_id=table.id, hand_id=last.id if last else None, ban_confirmed=args["ban_confirmed"])
    db.session.commit()
    return warning_result_json(result)


@blp.route("/tickets")
@allow("floor_manager", "pit_boss", "admin")
@blp.response(200, TicketSchema(many=True))
def room_tickets():
    """Missed-blind tickets across the poker room, newest first."""
    return svc.recent_tickets(db.session)
