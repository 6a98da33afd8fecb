"""Player ratings: who sits at a live-game seat (player card or the dealer's pick), the day's rated
players, a player's visits."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from floor import pit
from floor import players as players_svc
from floor import tables as tables_svc
from floor.pit import ratings, visits
from floor.web.api.schemas import Iso, PlayerSchema, Query, Strict
from floor.web.extensions import db, house
from floor.web.policy import actor, allow

blp = Blueprint("api_ratings", __name__, url_prefix="/api", description="Player ratings and who sits where")

SEATS = ("dealer", "pit_boss", "floor_manager", "admin")
VIEW = ("pit_boss", "admin", "floor_manager", "cashier")


class IdentifyIn(Strict):
    card_number = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=40),
                                metadata={"description": "the player card as the scanner read it"})
    player_id = fields.Integer(load_default=None, allow_none=True, metadata={"description": "the dealer's pick"})


class VisitOut(Schema):
    """A visit at a seat (``floor.pit.visits.SeatedVisit``)."""

    id = fields.Integer(attribute="visit.id")
    player_id = fields.Integer(attribute="visit.player_id")
    player = fields.String(attribute="player.name")
    card_number = fields.String(attribute="player.card_number")
    table_id = fields.Integer(attribute="visit.table_id")
    seat = fields.Integer(attribute="visit.seat")
    started_at = Iso(attribute="visit.started_at")
    ended_at = Iso(attribute="visit.ended_at", allow_none=True)
    identified_by = fields.String(attribute="visit.identified_by", metadata={"description": "card | dealer"})
    end_reason = fields.String(attribute="visit.end_reason", allow_none=True,
                               metadata={"description": "left | replaced | moved | table_closed"})


class PickQuery(Query):
    q = fields.String(load_default="", validate=validate.Length(max=60))


class DayQuery(Query):
    day = fields.Date(load_default=None, metadata={"description": "gaming day, YYYY-MM-DD (default: today's)"})
    limit = fields.Integer(load_default=None, validate=validate.Range(min=1, max=1000))


class HistoryQuery(Query):
    days = fields.Integer(load_default=30, validate=validate.Range(min=1, max=366))


class RatedPlay(Schema):
    """What a rating counts, for a visit and for a player's day."""

    minutes = fields.Float()
    rounds = fields.Integer()
    hand_rounds = fields.Integer(metadata={"description": "of those rounds, the ones whose result was entered by hand"})
    bets = fields.Integer()
    staked = fields.Integer(metadata={"description": "cents"})
    average_stake = fields.Integer(metadata={"description": "cents per round"})
    won = fields.Integer(metadata={"description": "the player's result from the ledger, cents"})
    house_result = fields.Integer(metadata={"description": "the house's result, cents"})
    theo = fields.Integer(metadata={"description": "theoretical win, cents"})


class RatedVisit(RatedPlay):
    """A rated visit (``floor.pit.ratings.RatedVisit``): who and where from it, what he played from its visit."""

    player_id = fields.Integer()
    player = fields.String()
    card_number = fields.String()
    table_id = fields.Integer()
    table_number = fields.Integer()
    table_name = fields.String()
    game = fields.String()
    seat = fields.Integer(allow_none=True, metadata={"description": "None: played from his balance"})
    started_at = Iso()
    ended_at = Iso()

    OWN = ("player", "card_number", "table_number", "table_name", "game")
    FROM_VISIT = {"rounds": "round_count", "theo": "theo_cents", "hand_rounds": "hand_round_count"}

    def get_attribute(self, obj, attr, default):
        if attr in self.OWN:
            return super().get_attribute(obj, attr, default)
        return super().get_attribute(obj.visit, self.FROM_VISIT.get(attr, attr), default)


class RatedPlayer(RatedPlay):
    player_id = fields.Integer()
    player = fields.String()
    card_number = fields.String()
    visits = fields.Integer()
    tables = fields.List(fields.Integer(), metadata={"description": "the table numbers he played at"})


class DayTotals(Schema):
    players = fields.Integer()
    staked = fields.Integer(metadata={"description": "cents"})
    won = fields.Integer(metadata={"description": "cents"})
    theo = fields.Integer(metadata={"description": "cents"})


class DayPlayers(Schema):
    day = fields.String()
    currency = fields.String()
    players = fields.List(fields.Nested(RatedPlayer), metadata={"description": "the highest theoretical win first"})
    totals = fields.Nested(DayTotals)


class PlayerTotals(Schema):
    visits = fields.Integer()
    minutes = fields.Float()
    rounds = fields.Integer()
    hand_rounds = fields.Integer()
    bets = fields.Integer()
    staked = fields.Integer(metadata={"description": "cents"})
    won = fields.Integer(metadata={"description": "cents"})
    theo = fields.Integer(metadata={"description": "cents"})


class PlayerRatings(Schema):
    player = fields.Nested(PlayerSchema)
    since = fields.String()
    visits = fields.Nested(RatedVisit, many=True)
    totals = fields.Nested(PlayerTotals)


def gaming_day(day: date | None) -> date:
    return day or pit.today(house(), datetime.now(timezone.utc))


@blp.route("/tables/<int:table_number>/seats/<int:seat>/player", methods=["POST"])
@allow(*SEATS, table_arg="table_number")
@blp.arguments(IdentifyIn)
@blp.response(201, VisitOut)
def identify(args, table_number: int, seat: int):
    """The player at a seat, by his player card or the dealer's pick: his visit (and rating) begins."""
    table = tables_svc.table_by_number(db.session, table_number)
    v = visits.identify(db.session, actor(), table.id, seat, player_id=args["player_id"],
                        card_number=args["card_number"])
    db.session.commit()
    return visits.SeatedVisit(v, players_svc.get_player(db.session, v.player_id))


@blp.route("/tables/<int:table_number>/seats/<int:seat>/player", methods=["DELETE"])
@allow(*SEATS, table_arg="table_number")
@blp.response(200, VisitOut)
def leave(table_number: int, seat: int):
    """The player at the seat leaves: his visit ends."""
    table = tables_svc.table_by_number(db.session, table_number)
    v = visits.leave(db.session, actor(), table.id, seat)
    db.session.commit()
    return visits.SeatedVisit(v, players_svc.get_player(db.session, v.player_id))


@blp.route("/tables/<int:table_number>/seated")
@allow(*SEATS, "cashier", table_arg="table_number")
@blp.response(200, VisitOut(many=True))
def seated(table_number: int):
    """Who is identified at each seat now."""
    return visits.seated(db.session, tables_svc.table_by_number(db.session, table_number).id)


class PickedPlayer(Schema):
    id = fields.Integer()
    name = fields.String()
    card_number = fields.String()


@blp.route("/tables/<int:table_number>/players")
@allow(*SEATS, table_arg="table_number")
@blp.arguments(PickQuery, location="query")
@blp.response(200, PickedPlayer(many=True))
def pick(args, table_number: int):
    """Players to pick from at a table terminal (name or card)."""
    tables_svc.table_by_number(db.session, table_number)
    return [{"id": p.id, "name": p.name, "card_number": p.card_number}
            for p in players_svc.search(db.session, args["q"], limit=10)]


@blp.route("/pit/ratings")
@allow(*VIEW)
@blp.arguments(DayQuery, location="query")
@blp.response(200, DayPlayers)
def day_players(args):
    """The gaming day's rated players, the highest theoretical win first (CSV: /pit/ratings.csv)."""
    day, h = gaming_day(args["day"]), house()
    return ratings.players_of_day(db.session, day, h, args["limit"], vs=ratings.day_visits_once(db.session, day, h))


@blp.route("/pit/ratings/visits")
@allow(*VIEW)
@blp.arguments(DayQuery, location="query")
@blp.response(200, RatedVisit(many=True))
def day_visits(args):
    """Every rated visit of the gaming day."""
    return ratings.rated(db.session, ratings.day_visits_once(db.session, gaming_day(args["day"]), house()))


@blp.route("/pit/players/<int:player_id>/ratings")
@allow(*VIEW)
@blp.arguments(HistoryQuery, location="query")
@blp.response(200, PlayerRatings)
def player_ratings(args, player_id: int):
    """A player's visits over the last days, newest first, with their totals."""
    return player_history(player_id, args["days"])


def player_history(player_id: int, days: int) -> dict:
    p = players_svc.get_player(db.session, player_id)
    now = datetime.now(timezone.utc)
    out = ratings.player_history(db.session, p.id, now - timedelta(days=days), now + timedelta(minutes=1), house())
    return {"player": p, **out}
