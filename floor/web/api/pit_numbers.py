"""The pit's numbers over the API: game pace live and for a gaming day (wheel integrity joins here)."""
from __future__ import annotations

from datetime import datetime, timezone

from flask_smorest import Blueprint
from marshmallow import Schema, fields

from floor import pit
from floor.pit import game_pace
from floor.web.api.schemas import Strict
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


class DayQuery(Strict):
    day = fields.Date(load_default=None, metadata={"description": "gaming day, YYYY-MM-DD (default: today's)"})


class PaceDay(Schema):
    day = fields.String()
    window_minutes = fields.Integer()
    tables = fields.List(fields.Dict(), metadata={"description": "per table, with the rate through the day (series)"})
    games = fields.List(fields.Dict())
    dealers = fields.List(fields.Dict())


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
