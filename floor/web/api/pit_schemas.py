"""Response schemas of the pit boss's reviews: a round's timeline (its cards, bets, transfers, events,
rulings and the replay check), rulings on rounds, the shift figures and the conduct review, each
field typed and described, from what ``floor.pit`` returns."""
from __future__ import annotations

from marshmallow import Schema, fields

from floor.models import RoundStatus, SettlementOutcome, TableKind
from floor.web.api.conduct import BanSchema, WarningSchema
from floor.web.api.round_schemas import CARD, RoundTableSchema, SettlementSchema
from floor.web.api.schemas import Cents, Choice, Iso, Said
from floor.web import i18n

class Rows(fields.List):
    """A long list of the plain maps ``floor.pit.timeline`` builds JSON-ready (a big spin has tens of
    thousands of bets, transfers and audit records): each map is cut to the schema's keys, without
    a field-by-field conversion, which would take seconds. The schema documents each key."""

    def __init__(self, schema: type[Schema], **kw):
        super().__init__(fields.Nested(schema), **kw)

    def _keys(self) -> dict[str, str]:
        """The map's key -> the response's key, for each field of the schema."""
        return {f.attribute or name: f.data_key or name for name, f in self.inner.schema.dump_fields.items()}

    def _serialize(self, value, attr, obj, **kwargs):
        if value is None:
            return None
        keys = self._keys()
        return [self._row(item, keys) for item in value]

    def _row(self, item, keys):
        return {keys[k]: v for k, v in item.items() if k in keys}


class Entries(Rows):
    """The timeline's entries, each (its type, the thing): a plain map as ``Rows``, a ruling dumped
    by its schema."""

    def _row(self, item, keys):
        kind, thing = item
        if isinstance(thing, dict):
            row = {"type": kind, **super()._row(thing, keys)}
            for k in ("reason", "decoded"):       # sentences kept as text, said in the reader's language
                if isinstance(row.get(k), str):
                    row[k] = i18n.said(row[k])
            if isinstance(row.get("data"), dict) and isinstance(row["data"].get("reason"), str):
                row["data"] = {**row["data"], "reason": i18n.said(row["data"]["reason"])}
            return row
        return {"type": kind, **RulingOut().dump(thing)}


RESULT = "how the round ended, in the game's own terms (as the round's result is stored)"
RULING_STATES = ("applied", "pending", "rejected", "withdrawn")


# --- rulings on rounds -----------------------------------------------------------------------------

class CorrectionSchema(Schema):
    """What the pit boss entered as mis-read (one of the three)."""

    number = fields.Integer(metadata={"description": "roulette: the real number"})
    cards = fields.List(fields.String(metadata={"description": CARD}),
                        metadata={"description": "baccarat: the whole coup in shoe order"})
    replace = fields.Dict(keys=fields.String(metadata={"description": "the card's place in the deal"}),
                          values=fields.String(metadata={"description": CARD}),
                          metadata={"description": "card games: the real card at each place corrected"})


class ReplayBetSchema(Schema):
    bet_id = fields.Integer()
    spot = fields.String()
    seat = fields.Integer(allow_none=True)
    stake = Cents()
    replay_returns = Cents(metadata={"description": "cents the replayed result returns to the bet"})
    settled_returned = Cents(metadata={"description": "cents the settlement returned"})
    now_returned = Cents(metadata={"description": "cents returned by now, corrections included"})
    matches = fields.Boolean()


class ReplaySchema(Schema):
    """The result recomputed from the recorded cards (or the wheel's two readings), compared."""

    # Both results are the game's own record of a round (see RoundSchema.result): free-form maps.
    result = fields.Dict(allow_none=True, metadata={"description": "the replayed result: " + RESULT})
    settled_result = fields.Dict(allow_none=True, metadata={"description": "the result settled: " + RESULT})
    result_matches = fields.Boolean(allow_none=True, metadata={"description": "null: nothing to replay"})
    payouts_match = fields.Boolean(allow_none=True, metadata={"description": "null: not settled, or no replay"})
    bets = fields.List(fields.Nested(ReplayBetSchema), metadata={"description": "a settled round's bets, replayed"})


class ApprovalSchema(Schema):
    decision = fields.String(metadata={"description": "approved | rejected | withdrawn"})
    reason = fields.String()
    by = fields.Integer(attribute="decided_by", allow_none=True, metadata={"description": "the staff id"})
    by_name = fields.String(attribute="decided_by_name")
    terminal = fields.String()
    at = Iso()


class RulingOut(Schema):
    id = fields.Integer()
    round_id = fields.Integer()
    round_number = fields.Integer()
    table_id = fields.Integer()
    table_number = fields.Integer()
    table_name = fields.String()
    game = Choice(TableKind)
    kind = fields.String(metadata={"description": "confirm | void | correct"})
    reason = fields.String()
    round_status = Choice(RoundStatus, metadata={"description": "the round's status when ruled"})
    correction = fields.Nested(CorrectionSchema, allow_none=True)
    # The corrected result is the game's own record of a round (see RoundSchema.result).
    result = fields.Dict(allow_none=True, metadata={"description": "a correction: the corrected result, " + RESULT})
    replay = fields.Nested(ReplaySchema, allow_none=True, metadata={"description": "the replay check when ruled"})
    amount = Cents(metadata={"description": "cents the ruling moves (the two-person rule compares it)"})
    needs_approval = fields.Boolean()
    state = Choice(RULING_STATES)
    decided_by = fields.Integer(allow_none=True)
    decided_by_name = fields.String()
    terminal = fields.String()
    at = Iso()
    approval = fields.Nested(ApprovalSchema, allow_none=True, metadata={"description": "the second pit boss's answer"})


# --- the timeline ------------------------------------------------------------------------------------

class TimelineRoundSchema(Schema):
    id = fields.Integer()
    table_id = fields.Integer()
    number = fields.Integer()
    kind = Choice(TableKind)
    status = Choice(RoundStatus)
    coup = fields.Integer(allow_none=True)
    spin = fields.Integer(allow_none=True)
    shoe_id = fields.Integer(allow_none=True)
    opened_at = Iso(allow_none=True)
    closes_at = Iso(allow_none=True)
    locked_at = Iso(allow_none=True)
    result_at = Iso(allow_none=True)
    ended_at = Iso(allow_none=True)
    # The game's own record of the round (see RoundSchema.result).
    result = fields.Dict(allow_none=True, metadata={"description": RESULT})
    held_reason = Said(allow_none=True)
    settlement = fields.Nested(SettlementSchema, allow_none=True)
    table = fields.Nested(RoundTableSchema)
    # What the device kept of the round, in the device's own terms.
    device = fields.Dict(allow_none=True, metadata={"description": "the device's bookkeeping (the wheel: its "
                                                                   "spin, the bare number, its state)"})


class TimelineCardSchema(Schema):
    """A card read for the round: accepted or refused; in a layout, where the deal put it."""

    id = fields.Integer()
    at = Iso(allow_none=True)
    step = fields.Integer(allow_none=True, metadata={"description": "its place in the deal"})
    card = fields.String(metadata={"description": CARD})
    source = fields.String(metadata={"description": "who read it (dealer: typed by hand)"})
    target = fields.String(allow_none=True, metadata={
        "description": "dealer | board | seat:N[:hand] | player | banker; null when refused"})
    accepted = fields.Boolean()
    reason = Said(allow_none=True, metadata={"description": "why it was refused"})
    corrected = fields.Boolean(metadata={"description": "a corrected layout: a ruling changed this card"})
    was = fields.String(allow_none=True, metadata={"description": "a corrected layout: the card as read"})


class LayoutHandSchema(Schema):
    hand = fields.Integer(metadata={"description": "1, then 2... after a split"})
    cards = fields.List(fields.Nested(TimelineCardSchema))
    total = fields.Integer(allow_none=True, metadata={"description": "blackjack: the best total"})


class LayoutSeatSchema(Schema):
    seat = fields.Integer()
    hands = fields.List(fields.Nested(LayoutHandSchema))
    decisions = fields.List(fields.String(), metadata={"description": "the seat's decisions in order"})


class BaccaratTotalsSchema(Schema):
    player = fields.Integer(allow_none=True)
    banker = fields.Integer(allow_none=True)


class LayoutSchema(Schema):
    """The table as it lay; which keys come depends on the game (``kind``)."""

    kind = Choice(TableKind)
    number = fields.Integer(allow_none=True, metadata={"description": "roulette: the number"})
    colour = fields.String(allow_none=True, metadata={"description": "roulette: red | black | green"})
    player = fields.List(fields.Nested(TimelineCardSchema), metadata={"description": "baccarat: the player's cards"})
    banker = fields.List(fields.Nested(TimelineCardSchema), metadata={"description": "baccarat: the banker's cards"})
    totals = fields.Nested(BaccaratTotalsSchema, metadata={"description": "baccarat: each side's total"})
    winner = fields.String(allow_none=True, metadata={"description": "baccarat: player | banker | tie"})
    seats = fields.List(fields.Nested(LayoutSeatSchema), metadata={"description": "card games: the seats in order"})
    dealer = fields.List(fields.Nested(TimelineCardSchema), metadata={"description": "card games: the dealer's cards"})
    board = fields.List(fields.Nested(TimelineCardSchema), metadata={"description": "Casino Hold'em: the board"})
    dealer_total = fields.Integer(allow_none=True, metadata={"description": "blackjack: the dealer's best total"})


class FrameSchema(Schema):
    """A raw device frame as received, decoded alongside."""

    id = fields.Integer()
    at = Iso(allow_none=True)
    device = fields.String()
    raw = fields.String(metadata={"description": "the bytes, readable: ASCII as is, control bytes by name (<STX>)"})
    hex = fields.String(metadata={"description": "the bytes in hex"})
    bytes = fields.Integer(metadata={"description": "how many bytes"})
    decoded = Said(metadata={"description": "what the decoder read in it"})


class EventSchema(Schema):
    id = fields.Integer()
    at = Iso(allow_none=True)
    kind = fields.String(metadata={"description": "status | decision | correction | ruling | result ..."})
    from_ = fields.String(data_key="from", attribute="from", allow_none=True, metadata={"description": "status before"})
    to = fields.String(allow_none=True, metadata={"description": "status after"})
    step = fields.Integer(allow_none=True)
    # What the event carries depends on its kind (a decision's seat and action, a ruling's number...).
    data = fields.Dict(allow_none=True, metadata={"description": "what the event carries, per kind"})
    by = fields.String(allow_none=True, metadata={"description": "who (the audit record's actor)"})
    role = fields.String(allow_none=True)
    terminal = fields.String(allow_none=True)


class TimelineBetSchema(Schema):
    id = fields.Integer()
    at = Iso(allow_none=True)
    spot = fields.String()
    numbers = fields.List(fields.Integer(), allow_none=True, metadata={"description": "roulette: the numbers covered"})
    seat = fields.Integer(allow_none=True)
    hand = fields.Integer(allow_none=True)
    amount = Cents()
    requested = Cents(allow_none=True, metadata={"description": "cents asked for, when the limits cut it"})
    player_id = fields.Integer(allow_none=True)
    player = fields.String(allow_none=True)
    source = fields.String()
    by = fields.String(allow_none=True, metadata={"description": "who placed it"})
    role = fields.String(allow_none=True)
    terminal = fields.String(allow_none=True)


class TimelineBetMoneySchema(TimelineBetSchema):
    settled_returned = Cents(allow_none=True, metadata={"description": "what the settlement returned; null: not settled"})
    returned_now = Cents(allow_none=True, metadata={"description": "what it has by now, corrections included"})
    corrections = Cents(allow_none=True, metadata={"description": "what the corrections added (negative: took back)"})


class TransferLineSchema(Schema):
    id = fields.Integer()
    at = Iso(allow_none=True)
    kind = fields.String(metadata={"description": "stake | win | return | lose | commission | refund | correction ..."})
    amount = Cents()
    bet_id = fields.Integer(allow_none=True)
    memo = fields.String(allow_none=True)
    from_ = fields.String(data_key="from", attribute="from", metadata={"description": "the account's key"})
    to = fields.String(metadata={"description": "the account's key"})
    from_label = fields.String(metadata={"description": "the account by name"})
    to_label = fields.String(metadata={"description": "the account by name"})


class RoundDecisionSchema(Schema):
    seat = fields.Integer(allow_none=True)
    action = fields.String(metadata={"description": "hit, stand, double, split, insurance, no_insurance; call, fold"})
    hand = fields.Integer(allow_none=True)
    amount = Cents(allow_none=True, metadata={"description": "what a double, split or call added"})
    step = fields.Integer(allow_none=True)
    at = Iso(allow_none=True)
    by = fields.String(allow_none=True)
    terminal = fields.String(allow_none=True)


class AuditLineSchema(Schema):
    id = fields.Integer()
    at = Iso(allow_none=True)
    action = fields.String()
    by = fields.String()
    role = fields.String()
    terminal = fields.String(allow_none=True)
    before = fields.String(allow_none=True, metadata={"description": "JSON text, as audited"})
    after = fields.String(allow_none=True, metadata={"description": "JSON text, as audited"})


ENTRY_TYPES = ("frame", "card", "event", "bet", "transfer", "settlement", "ruling", "approval")


class TimelineEntrySchema(FrameSchema, TimelineCardSchema, EventSchema, TimelineBetSchema, TransferLineSchema,
                          RulingOut):
    """One thing that happened; its ``type`` says which, and which keys come: a frame, card, event,
    bet, transfer or ruling has the keys of its own list; a settlement the round's settlement's
    (``by`` its actor); an approval the second pit boss's answer (``ruling_id``, ``kind``,
    ``decision``, ``reason``, ``by`` the staff id, ``by_name``, ``terminal``, ``at``)."""

    type = Choice(ENTRY_TYPES)
    at = Iso(allow_none=True)
    kind = fields.String(metadata={"description": "an event's, transfer's or ruling's kind (the ruling's for an approval)"})
    reason = fields.String(allow_none=True)
    terminal = fields.String(allow_none=True)
    source = fields.String()
    amount = Cents()
    by = fields.Raw(allow_none=True, metadata={"description": "who: a name; an approval: the staff id"})
    # a settlement
    outcome = Choice(SettlementOutcome)
    bets = fields.Integer(metadata={"description": "a settlement: how many bets it paid or returned"})
    staked = Cents()
    returned = Cents()
    commission = Cents()
    # an approval
    ruling_id = fields.Integer()
    decision = fields.String(metadata={"description": "approved | rejected | withdrawn"})
    by_name = fields.String()


class TimelineTotalsSchema(Schema):
    staked = Cents()
    returned = Cents(allow_none=True, metadata={"description": "null until settled"})


class TimelineSchema(Schema):
    round = fields.Nested(TimelineRoundSchema)
    layout = fields.Nested(LayoutSchema, metadata={"description": "the cards as dealt (or the roulette number)"})
    corrected_layout = fields.Nested(LayoutSchema, allow_none=True,
                                     metadata={"description": "after the last applied correction"})
    # The result that stands, the game's own record of a round (see RoundSchema.result).
    effective_result = fields.Dict(allow_none=True, metadata={"description": "the result that stands (after the "
                                                                             "last correction): " + RESULT})
    replay = fields.Nested(ReplaySchema, metadata={"description": "the result recomputed from the recorded cards, compared"})
    entries = Entries(TimelineEntrySchema, metadata={
        "description": "everything in time order: frame, card, event, bet, transfer, settlement, ruling, approval"})
    frames = Rows(FrameSchema)
    cards = Rows(TimelineCardSchema, metadata={"description": "the accepted cards in deal order"})
    bets = Rows(TimelineBetMoneySchema)
    transfers = Rows(TransferLineSchema)
    decisions = fields.List(fields.Nested(RoundDecisionSchema))
    audit = Rows(AuditLineSchema)
    rulings = fields.List(fields.Nested(RulingOut))
    pending = fields.Nested(RulingOut, allow_none=True, metadata={"description": "the ruling waiting for a second pit boss"})
    totals = fields.Nested(TimelineTotalsSchema)


# --- shift figures ------------------------------------------------------------------------------------

class ShiftTotalsSchema(Schema):
    played = fields.Integer(metadata={"description": "rounds settled"})
    voided = fields.Integer()
    held = fields.Integer(metadata={"description": "rounds held at some point"})
    still_held = fields.Integer()
    open = fields.Integer(metadata={"description": "rounds still running or held"})
    bets = fields.Integer()
    handle = Cents(metadata={"description": "every stake placed (what the shift report called drop before)"})
    refunded = Cents(metadata={"description": "stakes returned by voids before settlement"})
    payouts = Cents(metadata={"description": "paid beyond the stakes, net of what corrections took back"})
    commission = Cents()
    win_loss = Cents(metadata={"description": "the house's result (positive: the house won)"})
    corrections = Cents(metadata={"description": "what rulings moved to (positive) or from the players"})
    rulings = fields.Integer()
    device_faults = fields.Integer()
    faults_by_kind = fields.Dict(keys=fields.String(metadata={"description": "the alert's kind"}),
                                 values=fields.Integer(), metadata={"description": "device alerts per kind"})
    drop = Cents(allow_none=True, metadata={"description": "the cash and markers exchanged for chips: the count "
                                                           "room's verified count, else the buy-ins recorded"})
    drop_counted = fields.Boolean(metadata={"description": "the drop is the count room's verified count"})
    fills = Cents(allow_none=True, metadata={"description": "chips received from the cage"})
    credits = Cents(allow_none=True, metadata={"description": "chips sent back to the cage"})
    win = Cents(allow_none=True, metadata={"description": "drop + (closing - opening) + credits - fills over the "
                                                          "shifts closed in the day; null: none closed"})
    hold = fields.Integer(allow_none=True, metadata={"description": "win / drop in hundredths of a percent "
                                                                    "(1234 = 12.34 %); null: no drop or no win"})
    rounds_win = Cents(allow_none=True, metadata={"description": "the house's result of the rounds in chips"})
    difference = Cents(allow_none=True, metadata={"description": "win - rounds' win (0: reconciled)"})


class ShiftTableSchema(ShiftTotalsSchema):
    table_id = fields.Integer()
    recorded_drop = Cents(metadata={"description": "the buy-ins the dealers recorded"})
    drop_difference = Cents(allow_none=True, metadata={"description": "counted drop - recorded buy-ins"})
    table = fields.Integer(metadata={"description": "the table's number"})
    name = fields.String()
    game = Choice(TableKind)


class ShiftTournamentSchema(Schema):
    tournament_id = fields.Integer()
    name = fields.String()
    entries = fields.Integer(metadata={"description": "buy-ins paid, net of refunds"})
    rebuys = fields.Integer(metadata={"description": "rebuys and add-ons"})
    fees = Cents(metadata={"description": "the house's revenue, net of refunds"})
    collected = Cents(metadata={"description": "paid into the prize pool (the players' money)"})
    prizes = Cents()
    overlay = Cents(metadata={"description": "what the house added for a guarantee"})
    house = Cents(metadata={"description": "the house's result: fees less the overlay"})


class ShiftSchema(Schema):
    day = fields.String()
    currency = fields.String()
    tables = fields.List(fields.Nested(ShiftTableSchema))
    totals = fields.Nested(ShiftTotalsSchema)
    tournaments = fields.List(fields.Nested(ShiftTournamentSchema), metadata={
        "description": "per tournament: entries, fees (the house's), collected, prizes, overlay, house"})
    from_ = fields.String(data_key="from", attribute="from")
    to = fields.String()


# --- the conduct review -----------------------------------------------------------------------------

class ReviewWarningSchema(WarningSchema):
    """A warning as the review lists it: the table's number, the terminal and who lifted it too."""
    table_number = fields.Integer(allow_none=True)
    note = fields.String(allow_none=True)
    terminal = fields.String(allow_none=True)
    lifted_by = fields.String(allow_none=True)


class ReviewBanSchema(BanSchema):
    """A ban as the review lists it: who lifted it, and whether it is in force."""
    lifted_by_name = fields.String(allow_none=True)
    state = Choice(("in_force", "expired", "lifted"))


class ConductSchema(Schema):
    since = fields.String()
    days = fields.Integer()
    warnings = fields.List(fields.Nested(ReviewWarningSchema))
    bans = fields.List(fields.Nested(ReviewBanSchema))
