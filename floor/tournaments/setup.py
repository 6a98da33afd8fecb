"""Setting a tournament up: from plain values or a template (a weekly event in two taps), with the
tables given to it in the house's breaking order."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from floor import audit, ledger
from floor.actors import Actor
from floor.errors import BadInput, Conflict, InvalidState, NotFound
from floor.games import tournament as rules
from floor.models import BOUNTY_KINDS, Game, Table, Tournament, TournamentTable, TournamentTemplate
from floor.settings import HouseSettings
from floor.tournaments import core

# The fields a tournament (and a template) is made of, with their defaults.
FIELDS = {
    "name": None, "game_id": None, "buy_in": None, "fee": 0, "bounty_kind": "none", "bounty": 0,
    "mystery_envelopes": [], "structure": "daily_turbo", "max_reentries": 0, "max_entries": 0,
    "seats_per_table": None, "final_table_size": None, "guarantee": 0, "payout_table": None,
    "table_numbers": [], "rebuy": None, "add_on": None,
}


def _cents(values: dict, name: str, most: int) -> int:
    v = values.get(name, 0)
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= most:
        raise BadInput("{what} is a whole number of cents from 0 to {most}", field=name, what=name, most=most)
    return v


def _count(values: dict, name: str, least: int) -> int:
    v = values.get(name)
    if isinstance(v, bool) or not isinstance(v, int) or v < least:
        raise BadInput("{what} is a whole number, at least {least}", field=name, what=name, least=least)
    return v


def _structure(value) -> dict:
    if isinstance(value, str):
        if value not in rules.TEMPLATES:
            raise BadInput("no structure {name}", field="structure", name=value)
        return rules.structure_to_data(rules.TEMPLATES[value])
    return rules.structure_to_data(rules.structure_from_data(value))   # checked by the pure rules


def _payouts(value) -> list:
    if value is None:
        return rules.payout_table_to_data(rules.STANDARD_PAYOUTS)
    try:
        return rules.payout_table_to_data(rules.payout_table(value))
    except BadInput as e:
        e.field = f"payout_table.{e.field}"
        raise


def _game(session: Session, game_id) -> Game:
    game = session.get(Game, game_id) if isinstance(game_id, int) and not isinstance(game_id, bool) else None
    if game is None:
        raise NotFound("no game {game_id}", field="game_id", game_id=game_id)
    if game.kind != "poker":
        raise BadInput("{game} is not a poker game", field="game_id", game=game.name)
    return game


def checked(session: Session, settings: HouseSettings, values: dict) -> dict:
    """The values with defaults filled in, each one checked (a bad one names its field)."""
    unknown = set(values) - set(FIELDS) - {"scheduled_at"}
    if unknown:
        raise BadInput("unknown field {name}", field=sorted(unknown)[0], name=sorted(unknown)[0])
    v = {k: values.get(k, d) for k, d in FIELDS.items()}
    if not isinstance(v["name"], str) or not v["name"].strip() or len(v["name"]) > 120:
        raise BadInput("a tournament needs a name (at most 120 characters)", field="name")
    v["name"] = v["name"].strip()
    _game(session, v["game_id"])
    for name in ("buy_in", "fee", "bounty", "guarantee"):
        _cents(v, name, settings.max_amount_cents)
    if v["buy_in"] + v["fee"] + v["bounty"] > settings.max_amount_cents:
        raise BadInput("an entry costs at most {most} cents, fee and bounty included", field="buy_in",
                       most=settings.max_amount_cents)
    if v["buy_in"] == 0:
        raise BadInput("the buy-in is more than 0", field="buy_in")
    if v["bounty_kind"] not in BOUNTY_KINDS:
        raise BadInput("the bounty is one of {kinds}", field="bounty_kind", kinds=", ".join(BOUNTY_KINDS))
    if (v["bounty_kind"] == "none") != (v["bounty"] == 0):
        raise BadInput("a bounty tournament has a bounty amount, and only one has", field="bounty")
    envelopes = v["mystery_envelopes"]
    if not isinstance(envelopes, list) or any(isinstance(e, bool) or not isinstance(e, int) or e <= 0 for e in envelopes):
        raise BadInput("mystery envelopes are amounts in cents", field="mystery_envelopes")
    v["seats_per_table"] = v["seats_per_table"] or settings.tournament_seats_per_table
    v["final_table_size"] = v["final_table_size"] or min(settings.tournament_final_table_size, v["seats_per_table"])
    _count(v, "seats_per_table", 2)
    _count(v, "final_table_size", 2)
    _count(v, "max_reentries", 0)
    _count(v, "max_entries", 0)
    if v["seats_per_table"] > 12 or v["final_table_size"] > v["seats_per_table"]:
        raise BadInput("a final table of {size} does not fit {seats}-seat tables", field="final_table_size",
                       size=v["final_table_size"], seats=v["seats_per_table"])
    v["structure"] = _structure(v["structure"])
    for key in ("rebuy", "add_on"):      # rebuys and the add-on given beside a structure join it
        if v.get(key):
            v["structure"] = _structure(v["structure"] | {key: dict(v[key])})
    v["payout_table"] = _payouts(v["payout_table"])
    numbers = v["table_numbers"]
    if not isinstance(numbers, list) or len(set(map(str, numbers))) != len(numbers):
        raise BadInput("tables are listed once each, first to break first", field="table_numbers")
    return v


def _tables(session: Session, t: Tournament, numbers: list[int]) -> None:
    for rank, number in enumerate(numbers, start=1):
        table = session.execute(select(Table).where(Table.number == number)).scalar_one_or_none()
        if table is None:
            raise NotFound("no table {number}", field="table_numbers", number=number)
        if table.kind != "poker" or table.seat_count < t.seats_per_table:
            raise BadInput("table {number} has no {seats} poker seats", field="table_numbers",
                           number=number, seats=t.seats_per_table)
        session.add(TournamentTable(tournament_id=t.id, table_id=table.id, break_rank=rank))


def create(session: Session, actor: Actor, settings: HouseSettings, values: dict,
           template: TournamentTemplate | None = None) -> Tournament:
    v = checked(session, settings, values)
    scheduled = values.get("scheduled_at")
    if scheduled is not None and (not isinstance(scheduled, datetime) or scheduled.tzinfo is None):
        raise BadInput("the start is a date and time with its zone", field="scheduled_at")
    t = Tournament(name=v["name"], game_id=v["game_id"], template_id=template.id if template else None,
                   scheduled_at=scheduled, buy_in=v["buy_in"], fee=v["fee"], bounty_kind=v["bounty_kind"],
                   bounty=v["bounty"], mystery_envelopes=v["mystery_envelopes"], structure=v["structure"],
                   max_reentries=v["max_reentries"], max_entries=v["max_entries"],
                   seats_per_table=v["seats_per_table"], final_table_size=v["final_table_size"],
                   guarantee=v["guarantee"], payout_table=v["payout_table"], tie_rule=settings.tournament_tie_rule,
                   status="registering", created_by=actor.staff_id)
    session.add(t)
    session.flush()
    _tables(session, t, v["table_numbers"])
    session.flush()
    audit.record(session, actor, "tournament.create", f"tournament:{t.id}",
                 after={k: v[k] for k in FIELDS if k != "structure"} | {"template": template.name if template else None})
    core.publish(session, t, "tournament.changed")
    return t


def set_tables(session: Session, actor: Actor, tournament_id: int, numbers: list[int]) -> Tournament:
    """Give tables to a tournament that has not started (in breaking order); tables already in play
    stay as they are once it runs, new ones are added at the front of the breaking order."""
    t = core.lock(session, tournament_id)
    core.require_status(t, "registering")
    given = core.tables(session, t)
    before = [tt.table.number for tt in given]
    for tt in given:
        session.delete(tt)
    session.flush()
    if not isinstance(numbers, list) or len(set(numbers)) != len(numbers):
        raise BadInput("tables are listed once each, first to break first", field="table_numbers")
    _tables(session, t, numbers)
    audit.record(session, actor, "tournament.tables", f"tournament:{t.id}", before={"tables": before},
                 after={"tables": numbers})
    core.publish(session, t, "tournament.changed")
    return t


def approve_guarantee(session: Session, actor: Actor, settings: HouseSettings, tournament_id: int) -> Tournament:
    """A second person (a pit boss, never the one who set the tournament up) approves its guarantee:
    the overlay it may cost the house is paid through the ledger's check with this approval."""
    t = core.lock(session, tournament_id)
    core.require_status(t, "registering")
    if t.guarantee <= 0:
        raise InvalidState("{name} has no guarantee", code="no_guarantee", name=t.name)
    ledger.second_person(ledger.Purpose.OVERLAY, actor, t.created_by)
    t.guarantee_approved_by, t.guarantee_approved_by_name = actor.staff_id, actor.name
    session.flush()
    audit.record(session, actor, "tournament.guarantee_approved", f"tournament:{t.id}",
                 after={"guarantee": t.guarantee, "created_by": t.created_by})
    core.publish(session, t, "tournament.changed")
    return t


# --- templates -----------------------------------------------------------------------------------

def save_template(session: Session, actor: Actor, settings: HouseSettings, name: str, values: dict) -> TournamentTemplate:
    if not isinstance(name, str) or not name.strip():
        raise BadInput("a template needs a name", field="name")
    values = {k: v for k, v in values.items() if k != "scheduled_at"}
    checked(session, settings, values)
    tpl = TournamentTemplate(name=name.strip(), settings=values, created_by_name=actor.name)
    try:
        with session.begin_nested():
            session.add(tpl)
            session.flush()
    except IntegrityError:
        raise Conflict("there is already a template {name}", code="template_exists", field="name", name=name) from None
    audit.record(session, actor, "tournament.template", f"tournament_template:{tpl.id}", after=values | {"name": tpl.name})
    return tpl


def templates(session: Session) -> list[TournamentTemplate]:
    return list(session.execute(select(TournamentTemplate).order_by(TournamentTemplate.name)).scalars())


def from_template(session: Session, actor: Actor, settings: HouseSettings, template_id: int,
                  scheduled_at: datetime | None = None, name: str | None = None) -> Tournament:
    """The second tap: the template's event, for this date."""
    tpl = session.get(TournamentTemplate, template_id)
    if tpl is None:
        raise NotFound("no template {template_id}", template_id=template_id)
    values = dict(tpl.settings)
    if name:
        values["name"] = name
    values["scheduled_at"] = scheduled_at
    return create(session, actor, settings, values, template=tpl)
