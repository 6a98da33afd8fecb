"""Pit boss pages beyond the console (/pit): a round's timeline, the shift report (printable, CSV),
the warnings and bans review, and the poker showdown tool."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

from flask import Blueprint, Response, redirect, render_template, request
from sqlalchemy import select

from floor import dealers, pit
from floor import players as players_svc
from floor import tables as tables_svc
from floor.errors import BadInput, InvalidState, NotFound
from floor.models import Table
from floor.pit import game_pace, ratings, wheel_watch
from floor.web import i18n
from floor.web.api.pit import LinkedRulingOut
from floor.web.api.pit_numbers import WheelOut
from floor.web.api.pit_schemas import TimelineSchema
from floor.web.api.ratings import PlayerRatings, RatedVisit
from floor.web.api.rotation_schemas import BoardOut
from floor.web.extensions import db, house
from floor.web.policy import allow

bp = Blueprint("pit", __name__, url_prefix="/pit")

VIEW = ("pit_boss", "admin", "floor_manager", "cashier")



def _day() -> date:
    raw = (request.args.get("day") or "").strip()
    if not raw:
        return pit.today(house(), datetime.now(timezone.utc))
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise BadInput("the gaming day is YYYY-MM-DD", field="day") from None


def _table_number() -> int | None:
    raw = (request.args.get("table") or "").strip()
    if not raw:
        return None
    if not raw.isdigit():
        raise BadInput("the table is a number", field="table")
    return int(raw)


@bp.route("/showdown")
@allow("pit_boss", "admin")
def showdown():
    tables = db.session.execute(select(Table).where(Table.kind == "poker").order_by(Table.number)).scalars().all()
    return render_template("pit_showdown.html", pit_page="showdown",
                           tables=[{"number": t.number, "name": t.name, "variant": t.game.variant} for t in tables],
                           rulings=LinkedRulingOut(many=True).dump(pit.poker_rulings(db.session, limit=20)))


@bp.route("/rounds/<int:round_id>")
@allow(*VIEW)
def round_timeline(round_id: int):
    """A round laid out again, card by card (data from /api/pit/rounds/<id>/timeline)."""
    tl = TimelineSchema().dump(pit.timeline(db.session, round_id, house()))
    return render_template("pit_timeline.html", pit_page="rounds", timeline=tl, round=tl["round"])


@bp.route("/shift")
@allow(*VIEW)
def shift_report():
    """The shift report: figures per table for a gaming day, printable."""
    day = _day()
    fig = pit.figures(db.session, day, house(), _table_number())
    tables = db.session.execute(select(Table.number, Table.name).where(Table.kind != "poker")
                                .order_by(Table.number)).all()
    pace = game_pace.day(db.session, day, house(), datetime.now(timezone.utc))
    if _table_number() is not None:
        pace["tables"] = [t for t in pace["tables"] if t["table"] == _table_number()]
    hourly = pit.hourly(db.session, day, house())
    if _table_number() is not None:
        hourly["tables"] = [t for t in hourly["tables"] if t["table"] == _table_number()]
    return render_template("pit_shift.html", pit_page="shift", fig=fig, day=day, table=_table_number(), pace=pace,
                           hourly=hourly,
                           tables=[{"number": n, "name": name} for n, name in tables],
                           span=(i18n.when(fig["from"]), i18n.when(fig["to"])),
                           printed_at=i18n.when(datetime.now(timezone.utc)))


@bp.route("/shift.csv")
@allow(*VIEW)
def shift_csv():
    day = _day()
    fig = pit.figures(db.session, day, house(), _table_number())
    return Response(pit.to_csv(fig), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="shift-{day.isoformat()}.csv"'})


@bp.route("/ratings")
@allow(*VIEW)
def ratings_page():
    """The gaming day's rated players, the highest theoretical win first, and every visit."""
    day, h = _day(), house()
    vs = ratings.day_visits_once(db.session, day, h)        # once for the players and their visits
    top = ratings.players_of_day(db.session, day, h, vs=vs)
    pages = max(1, -(-len(top["players"]) // RATINGS_PAGE))
    page = _page(pages)
    shown = top["players"][(page - 1) * RATINGS_PAGE:page * RATINGS_PAGE]
    ids = {r["player_id"] for r in shown}
    return render_template("pit_ratings.html", pit_page="ratings", day=day, top={**top, "players": shown},
                           page=page, pages=pages, first=(page - 1) * RATINGS_PAGE + 1,
                           visits=RatedVisit(many=True).dump(ratings.rated(
                               db.session, [v for v in vs if v.player_id in ids])))


RATINGS_PAGE = 50    # players a page of the ratings shows, with their visits (every one is in the CSV)


def _page(pages: int) -> int:
    raw = (request.args.get("page") or "1").strip()
    if not raw.isdigit() or not 1 <= int(raw) <= pages:
        raise BadInput("the page is a number from 1 to {pages}", field="page", pages=pages)
    return int(raw)


@bp.route("/ratings.csv")
@allow(*VIEW)
def ratings_csv():
    day = _day()
    rows = ratings.rated(db.session, ratings.day_visits_once(db.session, day, house()))
    return Response(ratings.to_csv(rows), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="ratings-{day.isoformat()}.csv"'})


@bp.route("/players/<int:player_id>")
@allow(*VIEW)
def player_page(player_id: int):
    """A player's visits over the last 30 days, with a chart of them."""
    p = players_svc.get_player(db.session, player_id)
    now = datetime.now(timezone.utc)
    data = PlayerRatings().dump(ratings.player_history(db.session, p.id, now - timedelta(days=30),
                                                       now + timedelta(minutes=1), house()))
    return render_template("pit_player.html", pit_page="ratings", player=p, data=data)


@bp.route("/wheels")
@allow(*VIEW)
def wheels():
    """The first roulette table's wheel (the page links to the others)."""
    first = db.session.execute(select(Table.number).where(Table.kind == "roulette").order_by(Table.number)).scalar()
    if first is None:
        raise NotFound("no roulette table", code="no_wheel")
    return redirect(f"/pit/wheels/{first}")


@bp.route("/wheels/<int:table_number>")
@allow(*VIEW)
def wheel_page(table_number: int):
    """A wheel's integrity: frequencies by pocket and section, direction and speed, the bias tests."""
    table = tables_svc.table_by_number(db.session, table_number)
    if table.kind != "roulette":
        raise InvalidState("table {table} has no wheel", code="wrong_game", table=table.number)
    w = WheelOut().dump(wheel_watch.wheel(db.session, table.id, house(), datetime.now(timezone.utc)))
    wheels = db.session.execute(select(Table.number, Table.name).where(Table.kind == "roulette")
                                .order_by(Table.number)).all()
    return render_template("pit_wheel.html", pit_page="wheels", wheel=w,
                           wheels=[{"number": n, "name": name} for n, name in wheels])


@bp.route("/rotation")
@allow(*VIEW)
def rotation_page():
    """The dealers' rotation: who deals where, who breaks next, who relieves whom, with countdowns."""
    rotation = dealers.board(db.session, house(), datetime.now(timezone.utc))
    rotation.dealers = dealers.roster(db.session)
    board = BoardOut().dump(rotation)
    return render_template("pit_rotation.html", pit_page="rotation", board=board)


@bp.route("/conduct")
@allow(*VIEW)
def conduct_review():
    """Every warning and ban with who gave it and why; lift with a reason."""
    return render_template("pit_conduct.html", pit_page="conduct")
