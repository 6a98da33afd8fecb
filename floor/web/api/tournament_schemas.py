"""Schemas of the tournament API, field by field (they also make the OpenAPI document)."""
from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from floor.models import BOUNTY_KINDS
from floor.web.api.schemas import Cents, Strict

Reason = lambda: fields.String(required=True, validate=validate.Length(min=1, max=200))  # noqa: E731


# --- input ---------------------------------------------------------------------------------------

# Chips and minutes of a structure given as data: far above any real tournament, far below what a
# clock or a column overflows on.
CHIPS_MAX = 10**9
MINUTES_MAX = 24 * 60


class PayoutRowIn(Strict):
    min_entries = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=100_000))
    max_entries = fields.Integer(load_default=None, allow_none=True, strict=True, validate=validate.Range(min=1, max=100_000))
    percents = fields.List(fields.String(validate=validate.Regexp(r"^[0-9]{1,3}(\.[0-9]{1,4})?$")), required=True,
                           validate=validate.Length(min=1, max=1000), metadata={"description": "per place, e.g. \"27.5\""})


class RebuyIn(Strict):
    price = Cents(required=True, strict=True, validate=validate.Range(min=0, max=100_000_000))
    fee = Cents(load_default=0, strict=True, validate=validate.Range(min=0, max=100_000_000))
    chips = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    until_level = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    max_per_player = fields.Integer(load_default=0, strict=True, validate=validate.Range(min=0))
    at_or_below = fields.Integer(load_default=0, strict=True, validate=validate.Range(min=0))


class AddOnIn(Strict):
    price = Cents(required=True, strict=True, validate=validate.Range(min=0, max=100_000_000))
    fee = Cents(load_default=0, strict=True, validate=validate.Range(min=0, max=100_000_000))
    chips = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    after_level = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))


class LevelIn(Strict):
    small_blind = fields.Integer(required=True, validate=validate.Range(min=0, max=CHIPS_MAX))
    big_blind = fields.Integer(required=True, validate=validate.Range(min=1, max=CHIPS_MAX))
    minutes = fields.Integer(required=True, validate=validate.Range(min=1, max=MINUTES_MAX))
    ante = fields.Integer(load_default=0, validate=validate.Range(min=0, max=CHIPS_MAX))
    big_blind_ante = fields.Boolean(load_default=False)


class BreakIn(Strict):
    minutes = fields.Integer(required=True, validate=validate.Range(min=1, max=MINUTES_MAX))
    note = fields.String(load_default="", validate=validate.Length(max=200))


class StepIn(Strict):
    level = fields.Nested(LevelIn)
    break_ = fields.Nested(BreakIn, data_key="break", attribute="break")

    @validates_schema
    def _one_kind(self, data, **kwargs):
        if len(data) != 1:
            raise ValidationError("a step is an object with one key, level or break")


class StructureIn(Strict):
    """A structure given as data: every number and text bounded like a top-level field."""

    name = fields.String(required=True, validate=validate.Length(min=1, max=120))
    starting_stack = fields.Integer(required=True, validate=validate.Range(min=1, max=CHIPS_MAX))
    late_registration_levels = fields.Integer(required=True, validate=validate.Range(min=0, max=100))
    late_registration_through_break = fields.Boolean(load_default=False)
    steps = fields.List(fields.Nested(StepIn), required=True, validate=validate.Length(min=1, max=200))
    rebuy = fields.Nested(RebuyIn, load_default=None, allow_none=True)
    add_on = fields.Nested(AddOnIn, load_default=None, allow_none=True)


class StructureField(fields.Field):
    """A template's name, or the structure as data (checked by ``StructureIn``)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            if not 1 <= len(value) <= 120 or not value.isascii() or not value.replace("_", "").isalnum():
                raise ValidationError("Not a structure template's name.")
            return value
        if isinstance(value, dict):
            return StructureIn().load(value)
        raise ValidationError("A template's name or a structure object.")


class TournamentIn(Strict):
    name = fields.String(required=True, validate=validate.Length(min=1, max=120))
    game_id = fields.Integer(required=True, strict=True)
    scheduled_at = fields.AwareDateTime(load_default=None, allow_none=True)
    buy_in = Cents(required=True, strict=True, validate=validate.Range(min=1, max=100_000_000))
    fee = Cents(load_default=0, strict=True, validate=validate.Range(min=0, max=100_000_000))
    bounty_kind = fields.String(load_default="none", validate=validate.OneOf(BOUNTY_KINDS))
    bounty = Cents(load_default=0, strict=True, validate=validate.Range(min=0, max=100_000_000))
    mystery_envelopes = fields.List(Cents(strict=True, validate=validate.Range(min=1, max=100_000_000)),
                                    load_default=list)
    structure = StructureField(load_default="daily_turbo",
                               metadata={"description": "a template name (daily_turbo, weekly_deep_stack) or the "
                                                        "structure as data"})
    max_reentries = fields.Integer(load_default=0, strict=True, validate=validate.Range(min=0, max=20))
    max_entries = fields.Integer(load_default=0, strict=True, validate=validate.Range(min=0, max=10_000))
    seats_per_table = fields.Integer(load_default=None, allow_none=True, strict=True, validate=validate.Range(min=2, max=12))
    final_table_size = fields.Integer(load_default=None, allow_none=True, strict=True,
                                      validate=validate.Range(min=2, max=12))
    guarantee = Cents(load_default=0, strict=True, validate=validate.Range(min=0, max=10_000_000_000))
    payout_table = fields.List(fields.Nested(PayoutRowIn), load_default=None, allow_none=True)
    table_numbers = fields.List(fields.Integer(strict=True), load_default=list,
                                metadata={"description": "the tables given, first to break first"})
    rebuy = fields.Nested(RebuyIn, load_default=None, allow_none=True,
                          metadata={"description": "rebuys, added to the structure"})
    add_on = fields.Nested(AddOnIn, load_default=None, allow_none=True,
                           metadata={"description": "the add-on, added to the structure"})


class TemplateIn(Strict):
    template_name = fields.String(required=True, validate=validate.Length(min=1, max=120))
    tournament = fields.Nested(TournamentIn, required=True)


class FromTemplateIn(Strict):
    scheduled_at = fields.AwareDateTime(load_default=None, allow_none=True)
    name = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=120))


class TablesIn(Strict):
    table_numbers = fields.List(fields.Integer(strict=True), required=True)


class RegisterIn(Strict):
    player_id = fields.Integer(required=True, strict=True)
    paid_with = fields.String(load_default="cash", validate=validate.OneOf(("cash", "balance")))


class PurchaseIn(Strict):
    kind = fields.String(required=True, validate=validate.OneOf(("rebuy", "add_on")))
    chips_now = fields.Integer(required=True, strict=True, validate=validate.Range(min=0),
                               metadata={"description": "his stack now, as the floor counts it (0: his last chip lost)"})
    paid_with = fields.String(load_default="cash", validate=validate.OneOf(("cash", "balance")))


class PurchaseOut(Schema):
    tournament_id = fields.Integer()
    tournament = fields.String()
    purchase_id = fields.Integer()
    entry_id = fields.Integer()
    player_name = fields.String()
    kind = fields.String(metadata={"description": "rebuy | add_on"})
    number = fields.Integer(metadata={"description": "his 1st, 2nd... of that kind"})
    price = Cents()
    fee = Cents()
    total = Cents()
    chips = fields.Integer()
    stack = fields.Integer(metadata={"description": "his stack after the purchase"})
    paid_with = fields.String()
    at = fields.DateTime()


class ReasonIn(Strict):
    reason = Reason()


class BustIn(Strict):
    entry_id = fields.Integer(required=True, strict=True)
    chips_at_start = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))


class BustsIn(Strict):
    busts = fields.List(fields.Nested(BustIn), required=True, validate=validate.Length(min=1, max=12))
    winners = fields.List(fields.Integer(strict=True), load_default=list,
                          metadata={"description": "entry ids that won the pot, in seat order from the button's left"})
    button_seat = fields.Integer(load_default=None, allow_none=True, strict=True, validate=validate.Range(min=1, max=12))


class StackIn(Strict):
    entry_id = fields.Integer(required=True, strict=True)
    chips = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))


class ChipsIn(Strict):
    stacks = fields.List(fields.Nested(StackIn), required=True, validate=validate.Length(min=1, max=500))
    table = fields.Integer(load_default=None, allow_none=True, strict=True,
                           metadata={"description": "the table counted: then every player seated there, and only them"})


class DealIn(Strict):
    method = fields.String(required=True, validate=validate.OneOf(("icm", "chip_chop")))
    save = Cents(load_default=0, strict=True, validate=validate.Range(min=0))
    stacks = fields.List(fields.Nested(StackIn), required=True, validate=validate.Length(min=2))


class AgreeIn(Strict):
    entry_id = fields.Integer(required=True, strict=True)


CANCEL_RULES = ("refund", "online_room", "fees_back", "fees_and_bounty_back", "sit_and_go", "random_prize")


class CancelIn(Strict):
    reason = Reason()
    stacks = fields.List(fields.Nested(StackIn), load_default=list)
    rule = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(CANCEL_RULES),
                         metadata={"description": "the formula for a running tournament (default: the house's)"})


class CancelPlanIn(Strict):
    stacks = fields.List(fields.Nested(StackIn), required=True, validate=validate.Length(min=1))
    rule = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(CANCEL_RULES))


# --- output --------------------------------------------------------------------------------------

class EntryOut(Schema):
    """An entry and what he bought (``floor.tournaments.results.Standing``)."""

    id = fields.Integer(attribute="entry.id")
    player_id = fields.Integer(attribute="entry.player_id")
    player_name = fields.String(attribute="entry.player.name")
    number = fields.Integer(attribute="entry.number", metadata={"description": "1: first entry, 2: first re-entry..."})
    status = fields.String(attribute="entry.status",
                           metadata={"description": "registered | alternate | seated | out | finished | refunded"})
    table = fields.Integer(allow_none=True, metadata={"description": "None unless seated"})
    seat = fields.Integer(attribute="entry.seat", allow_none=True)
    chips = fields.Integer(attribute="entry.chips")
    bounty = Cents(attribute="entry.bounty")
    place = fields.Integer(attribute="entry.place", allow_none=True)
    prize = Cents(attribute="entry.prize")
    bounties_won = Cents(attribute="entry.bounties_won")
    registered_at = fields.DateTime(attribute="entry.registered_at")
    rebuys = fields.Integer()
    add_ons = fields.Integer()
    purchases_paid = Cents()   # rebuys and add-ons, fees included
    banned = fields.Boolean(metadata={"description": "out because a ban made him leave (his chips taken out of play)"})


class ReceiptPurchaseOut(Schema):
    id = fields.Integer()
    kind = fields.String(metadata={"description": "rebuy | add_on"})
    price = Cents()
    fee = Cents()
    chips = fields.Integer()
    paid_with = fields.String()
    at = fields.DateTime()


class DrawProofOut(Schema):
    label = fields.String(metadata={"description": "what was drawn, e.g. late-seat:12"})
    seed_hex = fields.String()
    algorithm = fields.String()


class ReceiptOut(Schema):
    tournament_id = fields.Integer()
    tournament = fields.String()
    entry_id = fields.Integer()
    player_id = fields.Integer()
    player_name = fields.String()
    entry_number = fields.Integer()
    status = fields.String()
    table = fields.Integer(allow_none=True)
    seat = fields.Integer(allow_none=True)
    buy_in = Cents()
    fee = Cents()
    bounty = Cents()
    total = Cents()
    paid_with = fields.String()
    registered_at = fields.DateTime()
    draw = fields.Nested(DrawProofOut, allow_none=True, metadata={"description": "the seat draw, to redo it"})
    purchases = fields.List(fields.Nested(ReceiptPurchaseOut), metadata={"description": "his rebuys and add-ons"})
    total_paid = Cents()   # the entry and every purchase


class ClockOut(Schema):
    tournament_id = fields.Integer()
    name = fields.String()
    status = fields.String()
    started = fields.Boolean()
    step_index = fields.Integer()
    on_break = fields.Boolean()
    break_note = fields.String(allow_none=True)
    level = fields.Integer(allow_none=True)
    small_blind = fields.Integer(allow_none=True)
    big_blind = fields.Integer(allow_none=True)
    ante = fields.Integer()
    big_blind_ante = fields.Boolean()
    seconds_left = fields.Integer()
    beyond_schedule = fields.Boolean()
    next_level = fields.Integer(allow_none=True)
    next_small_blind = fields.Integer(allow_none=True)
    next_big_blind = fields.Integer(allow_none=True)
    next_ante = fields.Integer(allow_none=True)
    seconds_to_next_break = fields.Integer(allow_none=True)
    late_registration_open = fields.Boolean()
    seconds_to_late_registration_end = fields.Integer(allow_none=True)
    registration_closed_early = fields.Boolean(metadata={"description": "closed at the money by the house's rule"})
    hand_for_hand = fields.Boolean()
    hand_for_hand_hand = fields.Integer(allow_none=True, metadata={"description": "the hand dealt, None before the first"})
    hand_in_play = fields.Boolean(metadata={"description": "a hand-for-hand hand is being played"})
    tables_done = fields.List(fields.Integer(), metadata={"description": "tables that finished the hand"})
    tables_in_play = fields.List(fields.Integer())
    paid_places = fields.Integer()
    rebuy_open = fields.Boolean()
    add_on_open = fields.Boolean()
    paused = fields.Boolean()
    pause_reason = fields.String(allow_none=True)
    players_left = fields.Integer()
    entries = fields.Integer()
    average_stack = fields.Integer(metadata={"description": "chips in play over the players left"})
    chips_in_play = fields.Integer(metadata={"description": "starting stacks of every entry and the chips bought"})
    chips_counted = fields.Integer(metadata={"description": "the last counts of the players seated, added up"})
    counts_add_up = fields.Boolean(metadata={"description": "the counts add up to the chips in play"})
    prize_pool = Cents()
    payouts = fields.List(Cents())
    as_of = fields.DateTime()


class MoveOut(Schema):
    """A move the floor makes (``floor.models.TournamentMove``)."""

    id = fields.Integer()
    entry_id = fields.Integer()
    player_name = fields.String(attribute="entry.player.name")
    reason = fields.String(metadata={"description": "balance | break | final_table"})
    from_table = fields.Integer(attribute="from_table.number")
    from_seat = fields.Integer()
    to_table = fields.Integer(attribute="to_table.number")
    to_seat = fields.Integer()
    at = fields.DateTime()
    done = fields.Boolean()


class DealOut(Schema):
    id = fields.Integer()
    method = fields.String()
    save = Cents()
    status = fields.String(metadata={"description": "offered | agreed (everyone said yes: waits for a second person) | "
                                                    "paid | withdrawn"})
    entry_ids = fields.List(fields.Integer())
    stacks = fields.List(fields.Integer())
    prizes = fields.List(Cents())
    amounts = fields.List(Cents(), metadata={"description": "in the order of entry_ids"})
    agreed = fields.List(fields.Integer())
    approved_by = fields.String(attribute="approved_by_name", allow_none=True,
                                metadata={"description": "the second person who approved the payouts"})


class TournamentTableOut(Schema):
    table = fields.Integer(attribute="table.number")
    break_rank = fields.Integer()
    button_seat = fields.Integer(allow_none=True)
    in_play = fields.Boolean()
    broken = fields.Boolean()


class LevelOut(Schema):
    small_blind = fields.Integer()
    big_blind = fields.Integer()
    ante = fields.Integer()
    big_blind_ante = fields.Boolean()
    minutes = fields.Integer()


class BreakOut(Schema):
    minutes = fields.Integer()
    note = fields.String()


class StepOut(Schema):
    """One step of the schedule: a level or a break (one of the two keys)."""

    level = fields.Nested(LevelOut)
    break_ = fields.Nested(BreakOut, attribute="break", data_key="break")


class RebuyOut(Schema):
    price = Cents()
    fee = Cents()
    chips = fields.Integer()
    until_level = fields.Integer()
    max_per_player = fields.Integer(metadata={"description": "0: no limit"})
    at_or_below = fields.Integer(metadata={"description": "0: the starting stack"})


class AddOnOut(Schema):
    price = Cents()
    fee = Cents()
    chips = fields.Integer()
    after_level = fields.Integer()


class StructureOut(Schema):
    name = fields.String()
    starting_stack = fields.Integer()
    steps = fields.List(fields.Nested(StepOut))
    late_registration_levels = fields.Integer()
    late_registration_through_break = fields.Boolean()
    rebuy = fields.Nested(RebuyOut, metadata={"description": "only when the structure sells rebuys"})
    add_on = fields.Nested(AddOnOut, metadata={"description": "only when the structure sells an add-on"})


class PayoutRowOut(Schema):
    min_entries = fields.Integer()
    max_entries = fields.Integer(allow_none=True)
    percents = fields.List(fields.String(), metadata={"description": "per place: \"27.5\", or \"n/d\" when inexact"})


class TournamentOut(Schema):
    """A tournament in full (``floor.tournaments.results.Detail``)."""

    id = fields.Integer(attribute="tournament.id")
    name = fields.String(attribute="tournament.name")
    status = fields.String(attribute="tournament.status",
                           metadata={"description": "registering | running | finished | cancelled"})
    game_id = fields.Integer(attribute="tournament.game_id")
    game = fields.String(attribute="tournament.game.name")
    scheduled_at = fields.DateTime(attribute="tournament.scheduled_at", allow_none=True)
    started_at = fields.DateTime(attribute="tournament.started_at", allow_none=True)
    finished_at = fields.DateTime(attribute="tournament.finished_at", allow_none=True)
    buy_in = Cents(attribute="tournament.buy_in")
    fee = Cents(attribute="tournament.fee")
    bounty_kind = fields.String(attribute="tournament.bounty_kind")
    bounty = Cents(attribute="tournament.bounty")
    starting_stack = fields.Integer(attribute="tournament.structure.starting_stack")
    late_registration_levels = fields.Integer(attribute="tournament.structure.late_registration_levels")
    max_reentries = fields.Integer(attribute="tournament.max_reentries")
    max_entries = fields.Integer(attribute="tournament.max_entries")
    seats_per_table = fields.Integer(attribute="tournament.seats_per_table")
    final_table_size = fields.Integer(attribute="tournament.final_table_size")
    guarantee = Cents(attribute="tournament.guarantee")
    guarantee_approved_by = fields.String(attribute="tournament.guarantee_approved_by_name", allow_none=True,
                                          metadata={"description": "the pit boss who approved the guarantee"})
    cancel_request = fields.Method("_cancel_request", allow_none=True,
                                   metadata={"description": "a cancellation waiting for a second person: "
                                                            "{requested_by, rule, reason}"})

    def _cancel_request(self, d):
        req = d.tournament.cancel_request
        return None if not req else {"requested_by": req["by_name"], "rule": req["rule"], "reason": req["reason"]}
    tie_rule = fields.String(attribute="tournament.tie_rule")
    structure = fields.Nested(StructureOut, attribute="tournament.structure")
    payout_table = fields.List(fields.Nested(PayoutRowOut), attribute="tournament.payout_table")
    tables = fields.List(fields.Nested(TournamentTableOut))
    clock = fields.Nested(ClockOut)
    entries = fields.List(fields.Nested(EntryOut))
    moves = fields.List(fields.Nested(MoveOut), metadata={"description": "moves the floor has yet to make"})
    deal = fields.Nested(DealOut, allow_none=True)


class TournamentBriefOut(Schema):
    id = fields.Integer()
    name = fields.String()
    status = fields.String()
    scheduled_at = fields.DateTime(allow_none=True)
    buy_in = Cents()
    fee = Cents()
    bounty = Cents()


class TemplateSettingsOut(Schema):
    """A tournament's fields as saved with the template (``TournamentIn`` but the date)."""

    name = fields.String()
    game_id = fields.Integer()
    buy_in = Cents()
    fee = Cents()
    bounty_kind = fields.String(validate=validate.OneOf(BOUNTY_KINDS))
    bounty = Cents()
    mystery_envelopes = fields.List(Cents())
    structure = fields.Raw(metadata={"description": "a template name (daily_turbo, weekly_deep_stack) or the "
                                                    "structure as data"})
    max_reentries = fields.Integer()
    max_entries = fields.Integer()
    seats_per_table = fields.Integer(allow_none=True)
    final_table_size = fields.Integer(allow_none=True)
    guarantee = Cents()
    payout_table = fields.List(fields.Nested(PayoutRowOut), allow_none=True)
    table_numbers = fields.List(fields.Integer())
    rebuy = fields.Nested(RebuyOut, allow_none=True)
    add_on = fields.Nested(AddOnOut, allow_none=True)


class TemplateOut(Schema):
    id = fields.Integer()
    name = fields.String()
    settings = fields.Nested(TemplateSettingsOut)
    created_by_name = fields.String()


class EliminationOut(Schema):
    entry_id = fields.Integer()
    place = fields.Integer(allow_none=True, metadata={"description": "none while late registration is open: "
                                                                     "given when it closes"})
    chips_at_start = fields.Integer()
    prize = Cents()
    bounty_paid = Cents()


class BustOut(Schema):
    hand = fields.Integer()
    eliminations = fields.List(fields.Nested(EliminationOut))
    moves = fields.List(fields.Nested(MoveOut))
    finished = fields.Boolean()


class ShareOut(Schema):
    entry_id = fields.Integer()
    refund = Cents()
    bounty = Cents()
    next_prize = Cents()
    equal_share = Cents()
    chip_share = Cents()
    total = Cents()


class CancelOut(Schema):
    pending = fields.Boolean(load_default=False, metadata={"description": "true: nothing moved yet, a second person approves"})
    requested_by = fields.String(allow_none=True)
    approved_by = fields.String(allow_none=True)
    rule = fields.String()
    refunded = fields.List(fields.Integer())
    shares = fields.List(fields.Nested(ShareOut))
    fund_short = fields.Boolean()
    kept_by_house = Cents()


class DrawnSeatOut(Schema):
    entry_id = fields.Integer()
    table = fields.Integer()
    seat = fields.Integer()


class DrawnButtonOut(Schema):
    table = fields.Integer()
    seat = fields.Integer(allow_none=True, metadata={"description": "the button's seat"})
    cards = fields.List(fields.List(fields.Raw()), metadata={"description": "[seat, card] pairs of the draw for the button"})


class DrawnMoveOut(Schema):
    entry_id = fields.Integer()
    from_ = fields.List(fields.Integer(), attribute="from", data_key="from", metadata={"description": "[table, seat]"})
    to = fields.List(fields.Integer(), metadata={"description": "[table, seat]"})
    reason = fields.String(metadata={"description": "balance | break | final_table"})


class DrawnFinalTableOut(Schema):
    table = fields.Integer()
    button_seat = fields.Integer(allow_none=True)
    cards = fields.List(fields.List(fields.Raw()), metadata={"description": "[seat, card] pairs of the draw for the button"})


class DrawResultOut(Schema):
    """What the draw decided; the keys of its kind only."""

    entry_id = fields.Integer(metadata={"description": "late_seat, mystery: the entry drawn for"})
    table = fields.Integer(metadata={"description": "late_seat"})
    seat = fields.Integer(metadata={"description": "late_seat"})
    seats = fields.List(fields.Nested(DrawnSeatOut), metadata={"description": "seat_draw"})
    buttons = fields.List(fields.Nested(DrawnButtonOut), metadata={"description": "seat_draw"})
    moves = fields.List(fields.Nested(DrawnMoveOut), metadata={"description": "tables"})
    broken = fields.List(fields.Integer(), metadata={"description": "tables: the tables broken"})
    final_table = fields.Nested(DrawnFinalTableOut, allow_none=True, metadata={"description": "tables"})
    winners = fields.List(fields.Integer(), metadata={"description": "mystery: the entries that share it"})
    amount = Cents(metadata={"description": "mystery: the envelope drawn"})
    envelopes = fields.List(Cents(), metadata={"description": "mystery: the envelopes drawn from"})
    envelopes_left = fields.List(Cents(), metadata={"description": "mystery"})
    places = fields.List(fields.List(fields.Integer()), metadata={"description": "tie: [entry_id, place] pairs"})


class DrawOut(Schema):
    id = fields.Integer()
    kind = fields.String()
    label = fields.String()
    seed_hex = fields.String()
    algorithm = fields.String()
    result = fields.Nested(DrawResultOut)
    at = fields.DateTime()


class MoneyOut(Schema):
    entries = fields.Integer()
    collected = Cents()
    fees = Cents()
    bounty_stakes = Cents()
    rebuys = fields.Integer()
    add_ons = fields.Integer()
    purchases_to_pool = Cents()
    purchases_fees = Cents()
    prize_pool = Cents()
    accounts = fields.Dict(keys=fields.String(), values=fields.Integer())


class ResultsOut(Schema):
    tournament = fields.Nested(TournamentBriefOut)
    standings = fields.List(fields.Nested(EntryOut))
    money = fields.Nested(MoneyOut)
    draws = fields.List(fields.Nested(DrawOut))


class TableSeatOut(Schema):
    """A player at a tournament table (``floor.models.TournamentEntry``)."""

    seat = fields.Integer()
    entry_id = fields.Integer(attribute="id")
    player_name = fields.String(attribute="player.name")
    chips = fields.Integer()
    bounty = Cents()


class PostingOut(Schema):
    seat = fields.Integer()
    what = fields.String(metadata={"description": "small_blind | big_blind | ante"})
    amount = fields.Integer(metadata={"description": "chips (less than the level's when the stack is shorter)"})


class TableHandOut(Schema):
    button = fields.Integer()
    small_blind_seat = fields.Integer()
    big_blind_seat = fields.Integer()
    first_preflop = fields.Integer(metadata={"description": "the seat that acts first before the flop"})
    first_postflop = fields.Integer()
    heads_up = fields.Boolean(metadata={"description": "two players: the button posts the small blind"})
    postings = fields.List(fields.Nested(PostingOut), metadata={"description": "small blind, big blind, then antes"})


class TableViewOut(Schema):
    tournament_id = fields.Integer()
    table = fields.Integer()
    table_id = fields.Integer()
    button_seat = fields.Integer(allow_none=True)
    broken = fields.Boolean()
    clock = fields.Nested(ClockOut)
    seats = fields.List(fields.Nested(TableSeatOut))
    moves = fields.List(fields.Nested(MoveOut), metadata={"description": "moves to or from this table still to make"})
    hand = fields.Nested(TableHandOut, allow_none=True,
                         metadata={"description": "the blinds and antes at the clock's level; None below two players"})
