"""Response schemas of the live rounds (the dealer terminal, the pit boss's held rounds, the TV board):
each field typed and described, from the dataclasses and models of ``floor.rounds``."""
from __future__ import annotations

from marshmallow import Schema, fields

from floor.models import CardSource, RoundStatus, SettlementOutcome, ShoeStatus, TableKind, TableStatus
from floor.web.api.schemas import Cents, Choice, Iso, Out, Said

CARD = "rank then suit (AS, TD, 9H); \"??\" while a player may not see it"


class RoundTableSchema(Schema):
    id = fields.Integer()
    number = fields.Integer()
    name = fields.String()
    kind = Choice(TableKind, metadata={"description": "the game"})


class LiveTableSchema(RoundTableSchema):
    status = Choice(TableStatus)
    min_bet = Cents(attribute="game.min_bet", allow_none=True)
    max_bet = Cents(attribute="game.max_bet", allow_none=True)
    seat_count = fields.Integer()


class RoundCardSchema(Schema):
    card = fields.String(metadata={"description": CARD})
    target = fields.String(allow_none=True, metadata={
        "description": "where the deal put it: dealer | board | seat:N | player | banker; null when refused"})
    source = Choice(CardSource, metadata={"description": "who read it (dealer: typed by hand)"})
    accepted = fields.Boolean(metadata={"description": "false: refused (the reason says why), not part of the deal"})
    reason = Said(allow_none=True)
    at = Iso()


class BetLineSchema(Out):
    OMIT_NONE = ("paid",)

    id = fields.Integer()
    account_id = fields.Integer()
    spot = fields.String(metadata={"description": "the bet's spot: red, split, banker, bet, ante, call..."})
    numbers = fields.List(fields.Integer(), allow_none=True, metadata={"description": "roulette: the numbers covered"})
    amount = Cents()
    seat = fields.Integer(allow_none=True)
    hand = fields.Integer(allow_none=True, metadata={"description": "blackjack: the hand after a split"})
    player_id = fields.Integer(allow_none=True)
    requested = Cents(allow_none=True, metadata={"description": "cents asked for, when the limits cut it"})
    source = fields.String(metadata={"description": "dealer | player | device ..."})
    paid = Cents(metadata={"description": "cents the ledger handed back, stake excluded; only once settled or voided"})


class SettlementSchema(Schema):
    outcome = Choice(SettlementOutcome)
    bets = fields.Integer(metadata={"description": "how many bets it paid or returned"})
    staked = Cents()
    returned = Cents()
    commission = Cents()
    at = Iso()
    actor = fields.String()
    reason = Said(allow_none=True, metadata={"description": "why it was voided"})


class FlowHandSchema(Schema):
    cards = fields.List(fields.String(metadata={"description": CARD}))
    doubled = Cents(metadata={"description": "cents added by doubling down, 0 when not doubled"})
    total = fields.Integer(metadata={"description": "the best total of the hand"})


class FlowSeatSchema(Schema):
    hands = fields.List(fields.Nested(FlowHandSchema), metadata={"description": "blackjack: the seat's hands"})
    insurance = Cents(allow_none=True, metadata={"description": "blackjack: cents of insurance taken"})
    cards = fields.List(fields.String(metadata={"description": CARD}),
                        metadata={"description": "Casino Hold'em: the seat's two cards"})
    decision = fields.String(allow_none=True, metadata={"description": "Casino Hold'em: call | fold, null until made"})


class FlowSchema(Schema):
    seats = fields.Dict(keys=fields.String(metadata={"description": "seat number"}),
                        values=fields.Nested(FlowSeatSchema))
    dealer = fields.List(fields.String(metadata={"description": CARD}))
    board = fields.List(fields.String(metadata={"description": CARD}),
                        metadata={"description": "Casino Hold'em: the board"})
    expecting = fields.List(fields.Raw(), metadata={"description": (
        "what the deal waits for: [\"card\", target], [\"decision\", seat, hand] (blackjack), "
        "[\"decision\", [seats]] (Casino Hold'em), [\"insurance\", [seats]], or [\"done\"]")})
    options = fields.List(fields.String(), metadata={
        "description": "the decisions open now: hit, stand, double, split, insurance, no_insurance; call, fold"})


class KeyedSchema(Schema):
    result = fields.Dict(metadata={"description": "the result keyed, in the game's own terms (like a round's result)"})
    at = fields.String(allow_none=True)
    keyed_by = fields.List(fields.String(), metadata={"description": "who keyed it (none of them confirms it)"})
    keyed_by_ids = fields.List(fields.Integer(), metadata={"description": "their staff ids"})


class EntryByHandSchema(Schema):
    device = fields.String(metadata={"description": "the device not used: wheel | shoe | scanner"})
    reason = fields.String()
    at = fields.String(allow_none=True, metadata={"description": "since when"})
    by = fields.String(metadata={"description": "the pit boss who switched"})


class RoundSchema(Out):
    OMIT_NONE = ("flow", "decision_until")

    id = fields.Integer(attribute="round.id")
    table_id = fields.Integer(attribute="round.table_id")
    number = fields.Integer(attribute="round.number", metadata={"description": "the table's round number"})
    kind = Choice(TableKind, attribute="round.kind", metadata={"description": "the game"})
    status = Choice(RoundStatus, attribute="round.status")
    # The game's own record of how the round ended, which the settlement pays from: roulette
    # {number, spin}; baccarat {winner, player_total, banker_total, pairs, cards...}; blackjack and
    # Casino Hold'em {seats: {seat: ...}, dealer, board}. Stored as the round's JSON column; its keys
    # are the game's, so it is kept a free-form map here.
    result = fields.Dict(allow_none=True, metadata={"description": "how the round ended, in the game's own terms"})
    held_reason = Said(attribute="round.held_reason", allow_none=True)
    closes_at = Iso(attribute="round.closes_at", allow_none=True, metadata={"description": "the betting timer"})
    cards = fields.List(fields.Nested(RoundCardSchema))
    bets = fields.List(fields.Nested(BetLineSchema))
    settlement = fields.Nested(SettlementSchema, allow_none=True)
    flow = fields.Nested(FlowSchema, metadata={"description": "blackjack / Casino Hold'em: hands, whose decision, the options"})
    table = fields.Nested(RoundTableSchema)
    spin = fields.Integer(attribute="round.spin", allow_none=True, metadata={"description": "roulette: the wheel's spin"})
    coup = fields.Integer(attribute="round.coup", allow_none=True, metadata={"description": "baccarat: the coup in the shoe"})
    shoe_id = fields.Integer(attribute="round.shoe_id", allow_none=True)
    opened_at = Iso(attribute="round.opened_at", allow_none=True)
    locked_at = Iso(attribute="round.locked_at", allow_none=True)
    result_at = Iso(attribute="round.result_at", allow_none=True)
    ended_at = Iso(attribute="round.ended_at", allow_none=True)
    decision_until = fields.String(metadata={"description": "when the decision timer answers for the player"})
    staked = Cents()
    keyed = fields.Nested(KeyedSchema, allow_none=True, metadata={
        "description": "entry by hand: the result keyed at the terminal, waiting for a second person's "
                       "confirmation; null otherwise"})


class ShoeSchema(Schema):
    number = fields.Integer()
    status = Choice(ShoeStatus)
    decks = fields.Integer()
    last_coup = fields.Integer(allow_none=True)


class TableStateSchema(Schema):
    table = fields.Nested(LiveTableSchema)
    round = fields.Nested(RoundSchema, allow_none=True)
    shoe = fields.Nested(ShoeSchema, allow_none=True, metadata={"description": "baccarat: the current shoe"})
    entry_by_hand = fields.Nested(EntryByHandSchema, allow_none=True, metadata={
        "description": "the table plays on by hand, its device not used; null: its device gives the results"})


class NumberSchema(Schema):
    number = fields.Integer()
    colour = fields.String(metadata={"description": "red | black | green"})


class CountedNumberSchema(NumberSchema):
    count = fields.Integer(metadata={"description": "spins it came up on, among the last 200"})


class RoadShoeSchema(Schema):
    number = fields.Integer()
    status = Choice(ShoeStatus)


class BeadSchema(Schema):
    coup = fields.Integer()
    winner = fields.String(metadata={"description": "player | banker | tie"})
    player_pair = fields.Boolean()
    banker_pair = fields.Boolean()
    total = fields.Integer(metadata={"description": "the winning hand's total"})


class RoadCellSchema(Schema):
    winner = fields.String(allow_none=True, metadata={"description": "player | banker; null: ties before any"})
    ties = fields.Integer()


class CountsSchema(Schema):
    player = fields.Integer()
    banker = fields.Integer()
    tie = fields.Integer()


class BoardGameSchema(Schema):
    """A roulette table has last, hot, cold and spins; a baccarat table shoe, beads, big_road, counts."""

    id = fields.Integer(attribute="table.id")
    number = fields.Integer(attribute="table.number")
    name = fields.String(attribute="table.name")
    kind = Choice((TableKind.ROULETTE, TableKind.BACCARAT), attribute="table.kind")
    last = fields.List(fields.Nested(NumberSchema), attribute="roulette.last",
                       metadata={"description": "roulette: the last 20 numbers, newest first"})
    hot = fields.List(fields.Nested(CountedNumberSchema), attribute="roulette.hot",
                      metadata={"description": "roulette: the five most seen"})
    cold = fields.List(fields.Nested(CountedNumberSchema), attribute="roulette.cold",
                       metadata={"description": "roulette: the five least seen"})
    spins = fields.Integer(attribute="roulette.spins", metadata={"description": "roulette: spins counted"})
    shoe = fields.Nested(RoadShoeSchema, attribute="baccarat.shoe", allow_none=True,
                         metadata={"description": "baccarat: the current shoe"})
    beads = fields.List(fields.Nested(BeadSchema), attribute="baccarat.beads",
                        metadata={"description": "baccarat: bead plate of the current shoe"})
    big_road = fields.List(fields.List(fields.Nested(RoadCellSchema)), attribute="baccarat.big_road",
                           metadata={"description": "baccarat: big road columns, a new one when the winner changes"})
    counts = fields.Nested(CountsSchema, attribute="baccarat.counts")
