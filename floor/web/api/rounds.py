"""Live rounds: the table's round, the dealer's moves, decisions, cards typed by hand, the pit boss's
settle and void of held rounds, and the board's history."""
from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import fields, validate

from floor import rounds
from floor import tables as tables_svc
from floor.web import device_commands
from floor.web.api.round_schemas import BoardGameSchema, RoundSchema, TableStateSchema
from floor.web.api.schemas import EmptySchema, Strict, cents
from floor.web.extensions import db, house
from floor.web.policy import actor, allow

blp = Blueprint("api_rounds", __name__, url_prefix="/api", description="Live rounds of the table games")

TABLE_STAFF = ("dealer", "pit_boss", "floor_manager", "admin", "cashier")
RUNS_TABLE = ("dealer", "pit_boss", "admin")


class CardSchema(Strict):
    card = fields.String(required=True, metadata={"description": "rank then suit, e.g. AS, TD, 9H"})


class DecisionSchema(Strict):
    seat = fields.Integer(required=True)
    action = fields.String(required=True, validate=validate.OneOf(
        ["hit", "stand", "double", "split", "insurance", "no_insurance", "call", "fold"]))
    hand = fields.Integer(load_default=None, allow_none=True)
    amount = cents(load_default=None, allow_none=True, metadata={"description": "cents (double, insurance)"})
    player_id = fields.Integer(load_default=None, allow_none=True,
                               metadata={"description": "a remote player deciding for his own seat"})


class SettleSchema(Strict):
    number = fields.Integer(load_default=None, allow_none=True, metadata={"description": "roulette"})
    cards = fields.List(fields.String(), load_default=None, allow_none=True,
                        metadata={"description": "baccarat: the coup's cards in shoe order"})


class VoidSchema(Strict):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=200))


def _table(number: int):
    return tables_svc.table_by_number(db.session, number)


def _state(table_id: int) -> rounds.TableState:
    return rounds.table_state(db.session, table_id, house())


@blp.route("/tables/<int:table_number>/round")
@allow(*TABLE_STAFF, table_arg="table_number")
@blp.response(200, TableStateSchema)
def table_round(table_number: int):
    """The table's live round (or its last one), what the dealer terminal shows."""
    return _state(_table(table_number).id)


@blp.route("/tables/<int:table_number>/round/open", methods=["POST"])
@allow(*RUNS_TABLE, table_arg="table_number")
@blp.arguments(EmptySchema)
@blp.response(201, TableStateSchema)
def open_round(_args, table_number: int):
    """Open betting; it closes by itself after the house's betting time."""
    t = _table(table_number)
    rounds.open_betting(db.session, actor(), t.id, house=house())
    db.session.commit()
    return _state(t.id)


@blp.route("/tables/<int:table_number>/round/close", methods=["POST"])
@allow(*RUNS_TABLE, table_arg="table_number")
@blp.arguments(EmptySchema)
@blp.response(200, TableStateSchema)
def close_round(_args, table_number: int):
    """"No more bets"."""
    t = _table(table_number)
    rounds.close_betting(db.session, actor(), t.id)
    db.session.commit()
    return _state(t.id)


@blp.route("/tables/<int:table_number>/round/card", methods=["POST"])
@allow(*RUNS_TABLE, table_arg="table_number")
@blp.arguments(CardSchema)
@blp.response(200, TableStateSchema)
def enter_card(args, table_number: int):
    """A card typed at the terminal when the scanner cannot read it (goes where the deal says)."""
    t = _table(table_number)
    out = rounds.card(db.session, t.id, args["card"], "dealer", None, actor=actor(), house=house())
    rounds.commit_then_settle(db.session, out, house=house())
    return _state(t.id)


@blp.route("/tables/<int:table_number>/round/decision", methods=["POST"])
@allow(*RUNS_TABLE, table_arg="table_number")
@blp.arguments(DecisionSchema)
@blp.response(200, TableStateSchema)
def decision(args, table_number: int):
    """A player's decision: hit, stand, double, split, insurance (blackjack); call, fold (Casino Hold'em)."""
    t = _table(table_number)
    out = rounds.decide(db.session, actor(), t.id, args["seat"], args["action"], hand=args["hand"],
                        amount=args["amount"], player_id=args["player_id"], house=house())
    rounds.commit_then_settle(db.session, out, house=house())
    return _state(t.id)


@blp.route("/tables/<int:table_number>/shoe", methods=["POST"])
@allow(*RUNS_TABLE, table_arg="table_number")
@blp.arguments(EmptySchema)
@blp.response(201, TableStateSchema)
def confirm_shoe(_args, table_number: int):
    """The dealer confirms a new baccarat shoe, and the table's smart shoe hears it (``GP 00``,
    through the device process). When the shoe cannot be told (no device process, the shoe
    unplugged, no answer in time) nothing is recorded and the error says why: 409 or 503."""
    t = _table(table_number)
    rounds.new_shoe(db.session, actor(), t.id, house=house())
    db.session.flush()
    device_commands.to_table(db.session, t.number, "shoe", "confirm_game")
    db.session.commit()
    return _state(t.id)


@blp.route("/rounds/held")
@allow("pit_boss", "admin", "floor_manager", "cashier")
@blp.response(200, RoundSchema(many=True))
def held():
    """Rounds waiting for the pit boss."""
    return rounds.held_rounds(db.session, house())


@blp.route("/rounds/<int:round_id>")
@allow("pit_boss", "admin", "floor_manager", "cashier")
@blp.response(200, RoundSchema)
def get_round(round_id: int):
    """One round with its bets, cards and settlement."""
    return rounds.round_detail(db.session, rounds.get_round(db.session, round_id), house())


@blp.route("/rounds/<int:round_id>/settle", methods=["POST"])
@allow("pit_boss", "admin")
@blp.arguments(SettleSchema)
@blp.response(200, RoundSchema)
def settle_held(args, round_id: int):
    """Settle a held round: roulette with the number, baccarat with the cards laid out again, or
    from the cards as recorded."""
    result = {k: v for k, v in args.items() if v is not None}
    # above the two-person threshold the domain refuses (409 two_person_rule): a ruling, two pit bosses
    rounds.settle_held(db.session, actor(), round_id, result, house=house())
    db.session.commit()
    return rounds.round_detail(db.session, rounds.get_round(db.session, round_id), house())


@blp.route("/rounds/<int:round_id>/void", methods=["POST"])
@allow("pit_boss", "admin")
@blp.arguments(VoidSchema)
@blp.response(200, RoundSchema)
def void(args, round_id: int):
    """Void a round: every bet is returned."""
    rounds.void_round(db.session, actor(), round_id, args["reason"], house=house())
    db.session.commit()
    return rounds.round_detail(db.session, rounds.get_round(db.session, round_id), house())


@blp.route("/board/games")
@allow("display", "floor_manager", "pit_boss", "admin")
@blp.response(200, BoardGameSchema(many=True))
def board_games():
    """Roulette history (last 20, hot and cold) and baccarat roads of the current shoe."""
    return rounds.board_games(db.session)
