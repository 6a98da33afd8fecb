"""Schemas of the poker room floor API (waiting lists, seating, must-move, the board)."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from floor.web.api.schemas import AlertSchema, Iso, Out, Query, Said, SeatPlayerSchema, Strict, TableSchema

Cents = lambda **kw: fields.Integer(metadata={"description": "cents"}, **kw)  # noqa: E731


class PlayerRefSchema(Schema):
    id = fields.Integer()
    name = fields.String()
    card_number = fields.String()


class CallSchema(Schema):
    """A call of a listed player to a seat (``floor.models.ListCall``)."""

    id = fields.Integer()
    entry_id = fields.Integer()
    player = fields.Nested(SeatPlayerSchema, attribute="entry.player")
    game_id = fields.Integer(attribute="entry.game_id")
    table_id = fields.Integer()
    table = fields.Integer(attribute="table.number", metadata={"description": "table number"})
    seat = fields.Integer(attribute="seat_number")
    called_at = Iso()
    expires_at = Iso(metadata={"description": "the response timer runs out at this time"})
    called_by = fields.String(attribute="called_by_name")
    expiry_action = fields.String(metadata={"description": "end_of_list | remove, fixed when called"})
    outcome = fields.String(allow_none=True)
    closed_at = Iso(allow_none=True)
    on_my_way_at = Iso(allow_none=True, metadata={"description": "when he answered \"on my way\" from his pass"})


class EntrySchema(Schema):
    """A list entry and his open call (``floor.poker.waitlist.Listed``)."""

    id = fields.Integer(attribute="entry.id")
    game_id = fields.Integer(attribute="entry.game_id")
    position = fields.Integer(attribute="entry.position")
    status = fields.String(attribute="entry.status", metadata={"description": "waiting | called | seated | removed"})
    player = fields.Nested(PlayerRefSchema, attribute="entry.player")
    added_at = Iso(attribute="entry.added_at")
    added_by = fields.String(attribute="entry.added_by_name")
    added_terminal = fields.String(attribute="entry.added_terminal")
    note = fields.String(attribute="entry.note", allow_none=True)
    expiries = fields.Integer(attribute="entry.expiries")
    closed_at = Iso(attribute="entry.closed_at", allow_none=True)
    closed_reason = fields.String(attribute="entry.closed_reason", allow_none=True)
    call = fields.Nested(CallSchema, allow_none=True)


class ListEntrySchema(EntrySchema):
    """An open entry on its list (``floor.poker.waitlist.InPlace``)."""

    place = fields.Integer(metadata={"description": "1 = first on the list"})
    estimated_wait_minutes = fields.Integer(allow_none=True, metadata={
        "description": "likely wait (the median), from the seats that opened in the window; null: no basis"})
    estimated_wait_range = fields.List(fields.Integer(), allow_none=True, metadata={
        "description": "[low, high]: 8 in 10 such waits fall in it"})


class ListGameSchema(Schema):
    id = fields.Integer()
    name = fields.String()
    structure = fields.String(allow_none=True)
    small_blind = Cents()
    big_blind = Cents()


class ListSchema(Schema):
    """A game's list (``floor.poker.waitlist.GameList``)."""

    game = fields.Nested(ListGameSchema)
    open_tables = fields.List(fields.Integer())
    entries = fields.List(fields.Nested(ListEntrySchema))
    seat_openings = fields.Integer(metadata={"description": "seats opened for the list in the window"})
    window_minutes = fields.Integer()


class ProposalSchema(Schema):
    table_id = fields.Integer()
    table = fields.Integer()
    seat = fields.Integer()
    kind = fields.String(metadata={"description": "table_change | list"})
    player_id = fields.Integer()
    player_name = fields.String()
    game_id = fields.Integer()
    entry_id = fields.Integer(allow_none=True)
    request_id = fields.Integer(allow_none=True)


class DueMoveSchema(Schema):
    game_id = fields.Integer()
    from_table_id = fields.Integer()
    from_table = fields.Integer()
    to_table_id = fields.Integer()
    to_table = fields.Integer()
    assignment_id = fields.Integer()
    player_id = fields.Integer()
    player_name = fields.String()
    from_seat = fields.Integer()
    order = fields.Integer()


class OrderRowSchema(Schema):
    """A player in must-move order (``floor.poker.mustmove.InOrder``)."""

    order = fields.Integer()
    player_id = fields.Integer(attribute="assignment.player_id")
    name = fields.String(attribute="assignment.player.name")
    seat = fields.Integer(attribute="assignment.seat.number")
    sat_at = Iso(attribute="assignment.sat_at")
    due = fields.Boolean()


class ChainTableSchema(Schema):
    table_id = fields.Integer()
    table = fields.Integer()
    role = fields.String(metadata={"description": "main | mm1 | mm2 ..."})
    order = fields.List(fields.Nested(OrderRowSchema))


class BreakPromptSchema(Schema):
    table_id = fields.Integer()
    table = fields.Integer()
    into_table = fields.Integer()
    players = fields.Integer()
    into_players = fields.Integer()
    into_seats = fields.Integer()


class ChainSchema(Schema):
    """A must-move chain (``floor.poker.mustmove.ChainState``)."""

    game_id = fields.Integer()
    tables = fields.List(fields.Nested(ChainTableSchema))
    due = fields.List(fields.Nested(DueMoveSchema))
    break_ = fields.List(fields.Nested(BreakPromptSchema), data_key="break", attribute="breaks")


class TableMustMoveSchema(Schema):
    role = fields.String()
    chain_main = fields.Integer()
    feeds = fields.Integer(allow_none=True)


class FloorSeatSchema(Schema):
    number = fields.Integer()
    player = fields.Nested(SeatPlayerSchema, allow_none=True)
    sat_at = fields.String(allow_none=True)
    arrival = fields.String(allow_none=True)
    away_since = fields.String(allow_none=True)
    mm_order = fields.Integer(allow_none=True)
    due_to = fields.Integer(allow_none=True, metadata={"description": "table he must move to now"})
    call = fields.Nested(CallSchema, allow_none=True)


class FloorTableSchema(TableSchema):
    """A table as the floor tablet sees it: /api/tables' fields, richer seats, the must-move role."""
    seats = fields.List(fields.Nested(FloorSeatSchema))
    mustmove = fields.Nested(TableMustMoveSchema, allow_none=True)


class OpenPromptSchema(Schema):
    game_id = fields.Integer()
    table_id = fields.Integer()
    table = fields.Integer()
    must_move = fields.Boolean()
    waiting = fields.Integer()
    message = fields.String()


class PickupSchema(Schema):
    table_id = fields.Integer()
    table = fields.Integer()
    seat = fields.Integer()
    player = fields.Nested(SeatPlayerSchema)
    away_since = fields.String()
    waiting = fields.Integer()


class TableChangeSchema(Schema):
    """A table-change request (``floor.models.TableChangeRequest``)."""

    id = fields.Integer()
    player = fields.Nested(SeatPlayerSchema)
    game_id = fields.Integer()
    from_table = fields.Integer(attribute="from_table.number")
    to_table = fields.Integer(attribute="to_table.number")
    requested_at = Iso()
    outcome = fields.String(allow_none=True)


class FloorStateSchema(Schema):
    now = fields.String()
    call_response_minutes = fields.Integer()
    tables = fields.List(fields.Nested(FloorTableSchema))
    lists = fields.List(fields.Nested(ListSchema))
    proposals = fields.List(fields.Nested(ProposalSchema))
    mustmove = fields.List(fields.Nested(ChainSchema))
    due = fields.List(fields.Nested(DueMoveSchema))
    open_prompts = fields.List(fields.Nested(OpenPromptSchema))
    pickups = fields.List(fields.Nested(PickupSchema))
    table_changes = fields.List(fields.Nested(TableChangeSchema))
    alerts = fields.List(fields.Nested(AlertSchema))


class AssignmentSchema(Schema):
    id = fields.Integer()
    table = fields.Integer()
    seat = fields.Integer()
    player_id = fields.Integer()
    arrival = fields.String(metadata={"description": "new | must_move | table_change | seat_change"})
    buy_in = Cents()
    sat_at = fields.String()
    left_at = fields.String(allow_none=True)
    reason_left = fields.String(allow_none=True)
    chips_out = Cents(allow_none=True)


class SeatedSchema(Schema):
    assignment = fields.Nested(AssignmentSchema)
    entry = fields.Nested(EntrySchema)
    other_entries = fields.List(fields.Nested(EntrySchema), metadata={"description": "his other lists, kept"})
    dropped = fields.List(fields.Nested(EntrySchema))


class BustResultSchema(Schema):
    busts = fields.Integer()
    outcome = fields.String(metadata={"description": "rebought | may_rebuy | left | listed | sat_again"})
    assignment = fields.Nested(AssignmentSchema)
    entry_id = fields.Integer(allow_none=True)


class BuyInSchema(Schema):
    minimum = Cents()
    maximum = Cents(allow_none=True)
    rathole_minimum = Cents(allow_none=True)
    note = fields.String()


class TableStatusSchema(Schema):
    table = fields.Integer()
    status = fields.String()
    feeds_table = fields.Integer(allow_none=True)


class BoardEntrySchema(Schema):
    place = fields.Integer()
    name = fields.String(metadata={"description": "as house setting board_name_format says"})
    called = fields.Boolean()
    table = fields.Integer(allow_none=True)
    estimated_wait_minutes = fields.Integer(allow_none=True)
    estimated_wait_range = fields.List(fields.Integer(), allow_none=True)


class BoardListSchema(Schema):
    game = fields.Nested(ListGameSchema)
    open_tables = fields.List(fields.Integer())
    entries = fields.List(fields.Nested(BoardEntrySchema))


class BoardTableSchema(Schema):
    number = fields.Integer(attribute="table.number")
    name = fields.String(attribute="table.name")
    kind = fields.String(attribute="table.kind")
    game = fields.String(attribute="table.game.name")
    seat_count = fields.Integer(attribute="table.seat_count")
    occupied = fields.Integer()
    free = fields.Integer(metadata={"description": "seats a newcomer may take (not held by a call, not kept "
                                                   "for players moving in from a must-move table)"})


class BoardSchema(Schema):
    """The public board (``floor.poker.waitlist.Board``)."""

    lists = fields.List(fields.Nested(BoardListSchema))
    tables = fields.List(fields.Nested(BoardTableSchema))
    at = Iso()


class TableMustMoveStateSchema(Schema):
    table = fields.Integer()
    role = fields.String(allow_none=True)
    due = fields.List(fields.Nested(DueMoveSchema), metadata={"description": "moves from or to this table"})


# --- Requests ---------------------------------------------------------------------------------------

Reason = lambda: fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))  # noqa: E731


class AddEntryArgs(Strict):
    player_id = fields.Integer(required=True, strict=True)
    note = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))


class MoveEntryArgs(Strict):
    to_place = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=200))


class ReasonArgs(Strict):
    reason = Reason()


class CallArgs(Strict):
    table_number = fields.Integer(required=True, strict=True)
    seat_number = fields.Integer(load_default=None, allow_none=True, strict=True)
    reason = Reason()


class SeatEntryArgs(Strict):
    buy_in = Cents(required=True, strict=True)
    table_number = fields.Integer(load_default=None, allow_none=True, strict=True)
    seat_number = fields.Integer(load_default=None, allow_none=True, strict=True)
    drop_other_lists = fields.Boolean(load_default=False)
    reason = Reason()


class WalkUpArgs(Strict):
    player_id = fields.Integer(required=True, strict=True)
    buy_in = Cents(required=True, strict=True)
    reason = Reason()


class LeaveArgs(Strict):
    chips_out = Cents(load_default=None, allow_none=True, strict=True)
    reason = fields.String(load_default="left", validate=validate.OneOf(
        ["left", "busted", "forfeit", "missed_blinds", "warnings", "banned", "closing"]))


class ChangeSeatArgs(Strict):
    to_seat = fields.Integer(required=True, strict=True)


class PickupArgs(Strict):
    chips_out = Cents(load_default=None, allow_none=True, strict=True)


class BustArgs(Strict):
    rebuy = Cents(load_default=None, allow_none=True, strict=True)
    play_on = fields.Boolean(load_default=False)
    buy_in = Cents(load_default=None, allow_none=True, strict=True)


class BuyInQuery(Query):
    player_id = fields.Integer(required=True)


class TableChangeArgs(Strict):
    player_id = fields.Integer(required=True, strict=True)
    to_table = fields.Integer(required=True, strict=True, metadata={"description": "table number"})


class HonourArgs(Strict):
    seat_number = fields.Integer(load_default=None, allow_none=True, strict=True)
    reason = Reason()


class OpenTableArgs(Strict):
    must_move = fields.Boolean(load_default=None, allow_none=True,
                               metadata={"description": "default: yes when the game has another open table"})
    feeds_table = fields.Integer(load_default=None, allow_none=True, strict=True)


class MoveArgs(Strict):
    player_id = fields.Integer(required=True, strict=True)
    seat_number = fields.Integer(load_default=None, allow_none=True, strict=True)


class RefuseArgs(Strict):
    player_id = fields.Integer(required=True, strict=True)
    reason = Reason()


class TicketSchema(Out):
    """A missed-blind ticket (``floor.poker.table.Ticket``)."""

    OMIT_NONE = ("table_number",)

    id = fields.Integer(attribute="row.id")
    player_id = fields.Integer(attribute="row.player_id")
    player = fields.String(allow_none=True)
    seat = fields.Integer(attribute="row.seat_number")
    kind = fields.String(attribute="row.kind", metadata={"description": "miss | manual | void (a correction of voids_id)"})
    blind = fields.String(attribute="row.blind", allow_none=True)
    ticket = fields.Boolean(attribute="row.counts_as_ticket", metadata={"description": "counts toward forfeiting the seat"})
    hand_id = fields.Integer(attribute="row.hand_id", allow_none=True)
    voids_id = fields.Integer(attribute="row.voids_id", allow_none=True)
    voided = fields.Boolean()
    reason = Said(attribute="row.reason", allow_none=True)
    at = Iso(attribute="row.at")
    table_number = fields.Integer(metadata={"description": "across the room only"})


# --- a player's pass (his own page, no login) ----------------------------------------------------------

class PassIssuedSchema(Schema):
    """A pass just issued (``floor.poker.passes.Issued``): the link is said this once."""

    id = fields.Integer(attribute="pass_.id")
    player_id = fields.Integer(attribute="pass_.player_id")
    link = fields.String(metadata={"description": "the page on his phone; only its token's sha256 is kept"})
    expires_at = Iso(attribute="pass_.expires_at", metadata={"description": "the end of the gaming day"})
    qr_svg = fields.String(metadata={"description": "the link as a QR code, inline SVG"})


class PassRevokedSchema(Schema):
    revoked = fields.List(fields.Integer(), metadata={"description": "the passes withdrawn"})


class PassCallSchema(Schema):
    table = fields.Integer()
    seat = fields.Integer()
    called_at = Iso()
    expires_at = Iso(metadata={"description": "his response time runs out at this time"})
    on_my_way_at = Iso(allow_none=True)


class PassGameSchema(Schema):
    name = fields.String()
    structure = fields.String(allow_none=True)
    small_blind = Cents()
    big_blind = Cents()


class PassListSchema(Schema):
    entry_id = fields.Integer()
    game = fields.Nested(PassGameSchema)
    status = fields.String(metadata={"description": "waiting | called"})
    place = fields.Integer(metadata={"description": "1 = first on the list"})
    waiting = fields.Integer(metadata={"description": "how many are on the list"})
    estimated_wait_minutes = fields.Integer(allow_none=True)
    estimated_wait_range = fields.List(fields.Integer(), allow_none=True)
    call = fields.Nested(PassCallSchema, allow_none=True)


class PassStateSchema(Schema):
    """What a pass shows (``floor.poker.passes.PassView``): his lists only, no other player's name."""

    player = fields.String(metadata={"description": "his own name, shortened"})
    lists = fields.List(fields.Nested(PassListSchema))
    expires_at = Iso()
    at = Iso(metadata={"description": "the server's time (for the call's countdown)"})


class PassEndedSchema(Schema):
    """A pass that ended (``floor.poker.passes.PassEnded``), pushed to its page: the body of its 410."""

    error = fields.String(attribute="code", metadata={"description": "pass_revoked | pass_done | pass_expired"})
    message = fields.Raw(attribute="msg", metadata={"description": "why, in the house's language"})
