"""The pit's numbers over the API: game pace live and for a gaming day (wheel integrity joins here)."""
from __future__ import annotations

from datetime import datetime, timezone

from flask_smorest import Blueprint
from marshmallow import Schema, fields

from floor import pit
from floor import tables as tables_svc
from floor.errors import InvalidState
from floor.pit import game_pace, wheel_watch
from floor.web.api.schemas import Cents, Query
from floor.web.extensions import db, house
from floor.web.policy import allow

blp = Blueprint("api_pit_numbers", __name__, url_prefix="/api/pit",
                description="The pit's numbers: game pace, wheel integrity")

VIEW = ("pit_boss", "admin", "floor_manager", "cashier")


class PaceRow(Schema):
    table_id = fields.Integer()
    table = fields.Integer()
    name = fields.String()
    game = fields.String()
    rate = fields.Float(metadata={"description": "rounds an hour over the last window"})
    rounds = fields.Integer()
    window_minutes = fields.Integer()
    target_min = fields.Integer()
    target_max = fields.Integer()
    status = fields.String(metadata={"description": "idle | below | on_target | above"})
    below_since = fields.String(allow_none=True)


class DayQuery(Query):
    day = fields.Date(load_default=None, metadata={"description": "gaming day, YYYY-MM-DD (default: today's)"})


class PaceFigures(Schema):
    """A day's pace of a table, a game or a dealer."""

    rounds = fields.Integer()
    hours = fields.Float(metadata={"description": "hours played: runs of one dealer's rounds"})
    rate = fields.Float(metadata={"description": "rounds an hour"})
    target_min = fields.Integer()
    target_max = fields.Integer()
    status = fields.String(metadata={"description": "idle | below | on_target | above"})


class HourRounds(Schema):
    hour = fields.Integer(metadata={"description": "clock hour, house time"})
    rounds = fields.Integer()


class PaceTable(PaceFigures):
    table_id = fields.Integer()
    table = fields.Integer(metadata={"description": "the table's number"})
    name = fields.String()
    game = fields.String()
    series = fields.List(fields.List(fields.Raw()), metadata={
        "description": "the rate through the day: [time (ISO 8601), rounds an hour over the window before it]"})
    by_hour = fields.List(fields.Nested(HourRounds))


class PaceGame(PaceFigures):
    game = fields.String()


class PaceDealer(PaceFigures):
    dealer_id = fields.Integer(allow_none=True, metadata={"description": "null: rounds with no dealer recorded"})
    dealer = fields.String(allow_none=True)
    game = fields.String()
    handle = Cents(metadata={"description": "every stake placed in his rounds"})
    win_loss = Cents(metadata={"description": "the house's result"})


class PaceDay(Schema):
    day = fields.String()
    window_minutes = fields.Integer()
    tables = fields.List(fields.Nested(PaceTable), metadata={"description": "per table, with the rate through the day (series)"})
    games = fields.List(fields.Nested(PaceGame))
    dealers = fields.List(fields.Nested(PaceDealer))


@blp.route("/pace")
@allow(*VIEW)
@blp.response(200, PaceRow(many=True))
def live_pace():
    """Every open live-game table's pace now against the house target for its game."""
    return game_pace.live(db.session, house(), datetime.now(timezone.utc))


@blp.route("/pace/day")
@allow(*VIEW)
@blp.arguments(DayQuery, location="query")
@blp.response(200, PaceDay)
def day_pace(args):
    """A gaming day's pace per table, game and dealer."""
    now = datetime.now(timezone.utc)
    return game_pace.day(db.session, args["day"] or pit.today(house(), now), house(), now)


class HourlyTable(Schema):
    table = fields.Integer(metadata={"description": "the table's number"})
    name = fields.String()
    game = fields.String()
    win_loss = fields.List(Cents(), metadata={"description": "the house's result per hour, in the order of hours"})


class HourlyOut(Schema):
    day = fields.String()
    currency = fields.String()
    hours = fields.List(fields.Integer(), metadata={"description": "clock hours (house time) in the day's order"})
    tables = fields.List(fields.Nested(HourlyTable), metadata={"description": "per table: win_loss per hour, cents (house result)"})


@blp.route("/win-loss/hourly")
@allow(*VIEW)
@blp.arguments(DayQuery, location="query")
@blp.response(200, HourlyOut)
def hourly(args):
    """The house's win/loss per table and clock hour of a gaming day (for the charts)."""
    return pit.hourly(db.session, args["day"] or pit.today(house(), datetime.now(timezone.utc)), house())


class WheelSection(Schema):
    name = fields.String()
    pockets = fields.List(fields.Integer())
    hits = fields.Integer()
    expected = fields.Float(metadata={"description": "hits expected of a fair wheel over those spins"})


class Spin(Schema):
    round_id = fields.Integer()
    at = fields.String(allow_none=True)
    number = fields.Integer(allow_none=True)
    direction = fields.Integer(allow_none=True, metadata={"description": "the rotor's direction: 0 clockwise, 1 anticlockwise"})
    rpm = fields.Float(allow_none=True, metadata={"description": "the rotor's speed"})
    by_hand = fields.Boolean(metadata={"description": "entered by hand (the wheel not used): not in the bias tests"})


class Rounded(fields.Float):
    """A float rounded for reading."""

    def __init__(self, places: int, **kw):
        super().__init__(**kw)
        self.places = places

    def _serialize(self, value, attr, obj, **kwargs):
        return None if value is None else round(value, self.places)


class FitSchema(Schema):
    """One goodness-of-fit test of the window."""

    name = fields.String()
    statistic = Rounded(3)
    df = fields.Integer(allow_none=True, metadata={"description": "degrees of freedom; null: a binomial tail test"})
    p_value = fields.Float()
    observed = fields.List(fields.Integer())
    expected = fields.List(Rounded(2))
    labels = fields.List(fields.Raw(), metadata={"description": "what each count is: a pocket, a section's name, "
                                                                  "an arc's pockets"})


class BiasReportSchema(Schema):
    possible_bias = fields.Boolean()
    spins = fields.Integer()
    per_test_threshold = fields.Float(metadata={"description": "a test fails below this p-value"})
    counts = fields.List(fields.Integer(), metadata={"description": "hits per pocket 0..36"})
    tests = fields.List(fields.Nested(FitSchema))
    failing = fields.Pluck(FitSchema, "name", many=True, metadata={"description": "the tests that failed, by name"})


class WheelOut(Schema):
    table_id = fields.Integer()
    table = fields.Integer()
    name = fields.String()
    window_spins = fields.Integer()
    spins = fields.Integer(metadata={"description": "spins counted (the last window_spins at most)"})
    spins_last_hour = fields.Integer(metadata={"description": "spins in the last 60 minutes"})
    counts = fields.List(fields.Integer(), metadata={"description": "hits per pocket 0..36 over those spins"})
    wheel_order = fields.List(fields.Integer())
    sections = fields.List(fields.Nested(WheelSection))
    last = fields.List(fields.Nested(Spin), metadata={"description": "the last spins: number, rotor direction and rpm"})
    directions_alternate = fields.Boolean()
    hand_spins = fields.Integer(metadata={"description": "spins entered by hand among the last window_spins: kept "
                                                         "apart, out of counts and the bias tests"})
    hand_counts = fields.List(fields.Integer(), metadata={"description": "hits per pocket 0..36 of those entered by hand"})
    window = fields.Integer(metadata={"description": "the last completed window (1, 2, ...; 0: none yet)"})
    report = fields.Nested(BiasReportSchema, allow_none=True, metadata={"description": "that window's bias tests"})


def wheel_view(table_number: int) -> dict:
    table = tables_svc.table_by_number(db.session, table_number)
    if table.kind != "roulette":
        raise InvalidState("table {table} has no wheel", code="wrong_game", table=table.number)
    return wheel_watch.wheel(db.session, table.id, house(), datetime.now(timezone.utc))


@blp.route("/wheels/<int:table_number>")
@allow(*VIEW)
@blp.response(200, WheelOut)
def wheel(table_number: int):
    """A roulette wheel's integrity figures: pocket and section frequencies, the rotor's direction
    and speed over the last spins, the last completed window's bias tests."""
    return wheel_view(table_number)
