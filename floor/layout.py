"""The floor's layout: its games (a game at its limits) and its tables (a number, a name, a game, seats).

A floor starts from nothing: an admin creates and changes games and tables (the admin page,
`flask floor game …`, `flask floor table …`), or the configuration declares them (`[[games]]`,
`[[tables]]`) and `flask floor setup` applies the declaration. Every change is audited. A table's game
and seats change only while it is closed with nobody seated and no round under way; its name at any
time. A game's limits change at any time (the next bet is judged by them); its kind never once a table
deals it.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from sqlalchemy import exists, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from floor import audit
from floor.actors import Actor
from floor.errors import BadInput, Conflict, NotFound, Term
from floor.models import Game, Round, Seat, SeatAssignment, Table
from floor.models.rounds import ACTIVE as ACTIVE_STATUSES
from floor.models.tables import POKER_VARIANTS, STRUCTURES, TABLE_KINDS

MAX_CENTS = 100_000_000          # one million in the house currency: far above any table's limit
MAX_TABLE_NUMBER = 9999
MAX_SEATS = 12                   # the schema's bound (seat_count BETWEEN 1 AND 12)
# what each kind of device reads, by the game of its table
DEVICE_GAMES = {"wheel": ("roulette",), "shoe": ("baccarat",), "scanner": ("blackjack", "casino_holdem")}
GAME_FIELDS = ("name", "kind", "variant", "structure", "small_blind", "big_blind", "min_bet", "max_bet")


def _name(value, field: str) -> str:
    if not isinstance(value, str):
        raise BadInput("a name is text", field=field)
    value = unicodedata.normalize("NFC", value).strip()
    if not 1 <= len(value) <= 80 or any(unicodedata.category(c).startswith("C") for c in value):
        raise BadInput("a name has 1 to 80 printable characters", field=field)
    return value


def _cents(value, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CENTS:
        raise BadInput("{what} is a whole number of cents from 0 to {most}", field=field, what=Term(field), most=MAX_CENTS)
    return value


def _checked_game(values: dict) -> dict:
    """A game's fields, whole and consistent: a poker game has a variant, a structure and blinds; a
    table game has its minimum and maximum bet."""
    kind = values.get("kind")
    if kind not in TABLE_KINDS:
        raise BadInput("unknown game kind {kind!r}; one of {kinds}", field="kind", kind=str(kind),
                       kinds=", ".join(TABLE_KINDS))
    out = {"name": _name(values.get("name"), "name"), "kind": kind}
    for field in ("small_blind", "big_blind", "min_bet", "max_bet"):
        out[field] = _cents(values.get(field) or 0, field)
    if kind == "poker":
        if values.get("variant") not in POKER_VARIANTS:
            raise BadInput("a poker game's variant is one of {choices}", field="variant",
                           choices=", ".join(POKER_VARIANTS))
        if values.get("structure") not in STRUCTURES:
            raise BadInput("a poker game's structure is one of {choices}", field="structure",
                           choices=", ".join(STRUCTURES))
        if not 0 < out["small_blind"] <= out["big_blind"]:
            raise BadInput("the blinds are above zero, the small blind no more than the big", field="small_blind")
        out.update(variant=values["variant"], structure=values["structure"], min_bet=0, max_bet=0)
    else:
        if values.get("variant") or values.get("structure"):
            raise BadInput("only a poker game has a variant and a structure", field="variant")
        if not 0 < out["min_bet"] <= out["max_bet"]:
            raise BadInput("the minimum bet is above zero and no more than the maximum", field="min_bet")
        out.update(variant=None, structure=None, small_blind=0, big_blind=0)
    return out


def _game_row(game: Game) -> dict:
    return {f: getattr(game, f) for f in GAME_FIELDS}


def get_game(session: Session, game_id: int) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise NotFound("no game {game_id}", game_id=game_id)
    return game


def game_by_name(session: Session, name: str) -> Game:
    game = session.execute(select(Game).where(Game.name == name)).scalar_one_or_none()
    if game is None:
        raise NotFound("no game named {name!r}", name=name)
    return game


def _name_free(session: Session, name: str, game_id: int | None = None) -> None:
    q = select(Game.id).where(Game.name == name)
    if game_id is not None:
        q = q.where(Game.id != game_id)
    if session.execute(q).first():
        raise Conflict("a game named {name!r} exists already", name=name)


def create_game(session: Session, actor: Actor, values: dict) -> Game:
    fields = _checked_game(values)
    _name_free(session, fields["name"])
    game = Game(**fields)
    session.add(game)
    session.flush()
    audit.record(session, actor, "game.create", f"game:{game.id}", after=fields)
    return game


def change_game(session: Session, actor: Actor, game_id: int, changes: dict) -> Game:
    """Change a game's name or limits (a poker game's variant and structure too). Its kind stays once
    a table deals it: the tables' rounds and history are of that kind."""
    game = get_game(session, game_id)
    before = _game_row(game)
    fields = _checked_game({**before, **{k: v for k, v in changes.items() if k in GAME_FIELDS}})
    if fields == before:
        return game
    if fields["kind"] != before["kind"] and session.execute(
            select(Table.id).where(Table.game_id == game.id).limit(1)).first():
        raise Conflict("a game's kind cannot change while a table deals it", code="game_in_use")
    _name_free(session, fields["name"], game.id)
    for k, v in fields.items():
        setattr(game, k, v)
    session.flush()
    audit.record(session, actor, "game.change", f"game:{game.id}", before=before,
                 after={k: v for k, v in fields.items() if before[k] != v})
    return game


def _table_row(table: Table) -> dict:
    return {"number": table.number, "name": table.name, "game": table.game.name, "seats": table.seat_count,
            "status": table.status}


def _number(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_TABLE_NUMBER:
        raise BadInput("a table number is a whole number from 1 to {most}", field="number", most=MAX_TABLE_NUMBER)
    return value


def _seats(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SEATS:
        raise BadInput("a table has 1 to {most} seats", field="seats", most=MAX_SEATS)
    return value


def table_by_number(session: Session, number: int) -> Table:
    table = session.execute(select(Table).where(Table.number == number)).scalar_one_or_none()
    if table is None:
        raise NotFound("no table number {number}", number=number)
    return table


def create_table(session: Session, actor: Actor, number: int, name: str, game_id: int, seats: int) -> Table:
    """A new table, closed: the floor opens it when a dealer is there."""
    number, name, seats = _number(number), _name(name, "name"), _seats(seats)
    game = get_game(session, game_id)
    if session.execute(select(Table.id).where(Table.number == number)).first():
        raise Conflict("table {number} exists already", number=number)
    table = Table(number=number, name=name, kind=game.kind, game_id=game.id, seat_count=seats, status="closed")
    table.seats = [Seat(number=n) for n in range(1, seats + 1)]
    session.add(table)
    session.flush()
    audit.record(session, actor, "table.create", f"table:{table.id}", after=_table_row(table))
    return table


def _quiet(session: Session, table: Table) -> None:
    """A table's game and seats change only while nothing happens at it."""
    if table.status != "closed":
        raise Conflict("close table {number} before changing its game or seats", code="table_not_closed",
                       number=table.number)
    seated = session.execute(select(exists().where(SeatAssignment.table_id == table.id,
                                                   SeatAssignment.left_at.is_(None)))).scalar()
    live = session.execute(select(exists().where(Round.table_id == table.id,
                                                 Round.status.in_(ACTIVE_STATUSES)))).scalar()
    if seated or live:
        raise Conflict("table {number} still has players or a round under way", code="table_in_use",
                       number=table.number)


def change_table(session: Session, actor: Actor, number: int, *, name: str | None = None,
                 game_id: int | None = None, seats: int | None = None) -> Table:
    table = table_by_number(session, number)
    before = _table_row(table)
    new_name = _name(name, "name") if name is not None else table.name
    game = get_game(session, game_id) if game_id is not None else table.game
    new_seats = _seats(seats) if seats is not None else table.seat_count
    if (new_name, game.id, new_seats) == (table.name, table.game_id, table.seat_count):
        return table
    if game.id != table.game_id or new_seats != table.seat_count:
        _quiet(session, table)
    if new_seats < table.seat_count:
        # seats with a history stay (the history names them): only never-used seats go
        gone = [s for s in table.seats if s.number > new_seats]
        try:
            with session.begin_nested():
                for seat in gone:
                    session.delete(seat)
        except IntegrityError:
            raise Conflict("seats of table {number} above {seats} have a history and stay", code="seats_in_use",
                           number=table.number, seats=new_seats) from None
        session.expire(table, ["seats"])
    elif new_seats > table.seat_count:
        have = {s.number for s in table.seats}
        session.add_all(Seat(table_id=table.id, number=n) for n in range(1, new_seats + 1) if n not in have)
    table.name, table.game_id, table.kind, table.seat_count = new_name, game.id, game.kind, new_seats
    session.flush()
    session.refresh(table)
    after = _table_row(table)
    audit.record(session, actor, "table.change", f"table:{table.id}", before=before,
                 after={k: v for k, v in after.items() if before[k] != v})
    return table


def layout(session: Session) -> dict:
    """Every game and table as plain data (the admin page, the API, the CLI's listing)."""
    games = session.execute(select(Game).order_by(Game.kind, Game.name)).scalars().all()
    tables = session.execute(select(Table).order_by(Table.number)).scalars().all()
    return {"games": [{"id": g.id, **_game_row(g)} for g in games],
            "tables": [{"number": t.number, "name": t.name, "kind": t.kind, "game_id": t.game_id,
                        "game": t.game.name, "seats": t.seat_count, "status": t.status} for t in tables]}


@dataclass
class Applied:
    """What applying a declared layout did, for the person running setup."""

    created: list[str]
    changed: list[str]


def apply_declared(session: Session, actor: Actor, games: list[dict], tables: list[dict]) -> Applied:
    """Make the floor what the configuration declares: a declared game or table that is missing is
    created, one that differs is changed (by the same rules as an admin's change); games and tables
    the configuration does not name are left as they are. Applying it twice changes nothing."""
    done = Applied([], [])
    for entry in games:
        if not isinstance(entry, dict):
            raise BadInput("each [[games]] entry is a table of settings", field="games")
        name = _name(entry.get("name"), "name")
        game = session.execute(select(Game).where(Game.name == name)).scalar_one_or_none()
        if game is None:
            create_game(session, actor, entry)
            done.created.append(f"game {name}")
        elif _checked_game(entry) != _game_row(game):
            change_game(session, actor, game.id, entry)
            done.changed.append(f"game {name}")
    for entry in tables:
        if not isinstance(entry, dict):
            raise BadInput("each [[tables]] entry is a table of settings", field="tables")
        unknown = set(entry) - {"number", "name", "game", "seats"}
        if unknown:
            raise BadInput("unknown table settings {names}", field="tables", names=", ".join(sorted(unknown)))
        number = _number(entry.get("number"))
        game = game_by_name(session, _name(entry.get("game"), "game"))
        name = entry.get("name", f"{game.name} ({number})")
        seats = entry.get("seats", 7 if game.kind != "poker" else 10)
        table = session.execute(select(Table).where(Table.number == number)).scalar_one_or_none()
        if table is None:
            create_table(session, actor, number, name, game.id, seats)
            done.created.append(f"table {number}")
        elif (table.name, table.game_id, table.seat_count) != (name, game.id, seats):
            change_table(session, actor, number, name=name, game_id=game.id, seats=seats)
            done.changed.append(f"table {number}")
    return done


def device_problems(session: Session, devices: list[tuple[str, str, str]]) -> list[str]:
    """What is wrong with the devices the configuration names, as (name, table, kind): a device for a
    table the floor does not have, or for a table whose game the device does not read. Said in plain
    English for the log of a process that refuses to start."""
    tables = {str(t.number): t.kind for t in session.execute(select(Table)).scalars()}
    problems = []
    for name, table, kind in devices:
        if table not in tables:
            problems.append(f"device {name!r} is configured for table {table}, which this floor does not have "
                            f"(create it: flask floor table create {table} …, or declare it under [[tables]] "
                            f"and run flask floor setup)")
        elif tables[table] not in DEVICE_GAMES.get(kind, ()):
            problems.append(f"device {name!r} ({kind}) is configured for table {table}, which deals "
                            f"{tables[table]}; a {kind} reads {' or '.join(DEVICE_GAMES.get(kind, ()))}")
    return problems
