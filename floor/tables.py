"""The floor's tables and who sits where, as plain data for pages, the API and live updates."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select, union
from sqlalchemy.orm import Session, selectinload

from floor.errors import Conflict, InvalidState, NotFound
from floor.models import Bet, ListCall, PlayerVisit, Round, SeatAssignment, Table, Tournament, TournamentEntry
from floor.models.rounds import ACTIVE as ROUND_ACTIVE

# What a table is doing (``Occupancy.use``)
CLOSED, CASH_GAME, TABLE_GAME, TOURNAMENT = "closed", "cash_game", "table_game", "tournament"


@dataclass(frozen=True)
class Occupancy:
    """A table's one occupant and how many people it has, read the same way by the floor, the board,
    the lists, must-move, closing and tournaments: a tournament table counts its seated entries, a
    live-game table its seats with an identified player or a bet in the round running, a cash game
    its seated players."""

    use: str
    players: int
    tournament_id: int | None = None
    tournament_name: str | None = None

    def as_dict(self) -> dict:
        return {"use": self.use, "players": self.players,
                "tournament": None if self.tournament_id is None
                else {"id": self.tournament_id, "name": self.tournament_name}}


def use_of(table: Table) -> str:
    if table.tournament_id is not None:
        return TOURNAMENT
    if table.status != "open":
        return CLOSED
    return CASH_GAME if table.kind == "poker" else TABLE_GAME


def occupancy(session: Session, tables: list[Table]) -> dict[int, Occupancy]:
    ids = [t.id for t in tables]
    if not ids:
        return {}
    cash = dict(session.execute(select(SeatAssignment.table_id, func.count(SeatAssignment.id))
                                .where(SeatAssignment.table_id.in_(ids), SeatAssignment.left_at.is_(None))
                                .group_by(SeatAssignment.table_id)).all())
    entries = dict(session.execute(select(TournamentEntry.table_id, func.count(TournamentEntry.id))
                                   .join(Table, Table.id == TournamentEntry.table_id)
                                   .where(TournamentEntry.table_id.in_(ids), TournamentEntry.status == "seated",
                                          TournamentEntry.tournament_id == Table.tournament_id)
                                   .group_by(TournamentEntry.table_id)).all())
    # a live-game seat is taken by an identified player or by a bet in the round running there
    seats = union(
        select(PlayerVisit.table_id, PlayerVisit.seat).where(PlayerVisit.table_id.in_(ids), PlayerVisit.ended_at.is_(None)),
        select(Bet.table_id, Bet.seat).join(Round, Round.id == Bet.round_id)
        .where(Bet.table_id.in_(ids), Bet.seat.is_not(None), Round.status.in_(ROUND_ACTIVE)),
    ).subquery()
    live = dict(session.execute(select(seats.c.table_id, func.count()).group_by(seats.c.table_id)).all())
    names = dict(session.execute(select(Tournament.id, Tournament.name).where(
        Tournament.id.in_({t.tournament_id for t in tables if t.tournament_id is not None}))).all())
    out = {}
    for t in tables:
        use = use_of(t)
        if use == TOURNAMENT:
            out[t.id] = Occupancy(use, entries.get(t.id, 0), t.tournament_id, names.get(t.tournament_id))
        elif t.kind == "poker":
            out[t.id] = Occupancy(use, cash.get(t.id, 0))
        else:
            out[t.id] = Occupancy(use, live.get(t.id, 0))
    return out


def table_occupancy(session: Session, table: Table) -> Occupancy:
    return occupancy(session, [table])[table.id]


def refuse_unless_free_for_tournament(session: Session, table: Table, tournament_id: int) -> None:
    """A tournament starts playing at a table only if nothing else does: no other tournament holds
    it, no cash-game player sits there, no call holds a seat for one."""
    if table.tournament_id is not None and table.tournament_id != tournament_id:
        other = session.get(Tournament, table.tournament_id)
        raise InvalidState("table {number} is playing the tournament {name}", code="table_in_use",
                       number=table.number, name=other.name if other else table.tournament_id)
    occ = table_occupancy(session, table)
    if occ.use == CASH_GAME and occ.players:
        raise InvalidState("table {number} still has {players} cash-game players", code="table_in_use",
                       number=table.number, players=occ.players)
    called = session.execute(select(func.count(ListCall.id)).where(ListCall.table_id == table.id,
                                                                    ListCall.closed_at.is_(None))).scalar()
    if called:
        raise InvalidState("table {number} holds a seat for a called cash-game player", code="table_in_use",
                       number=table.number)


def free_for_tournament(session: Session, table: Table, tournament_id: int) -> bool:
    try:
        refuse_unless_free_for_tournament(session, table, tournament_id)
    except InvalidState:
        return False
    return True


def refuse_if_tournament(session: Session, table: Table) -> None:
    """Cash-game actions (seating, calling from a list, opening, closing, must-move) on a table a
    tournament holds are refused with the reason: the tournament gives it back when it breaks the
    table or ends."""
    if table.tournament_id is not None:
        t = session.get(Tournament, table.tournament_id)
        raise Conflict("table {number} is playing the tournament {name} ({players} players); it is the "
                       "floor's again when the tournament breaks it or ends", code="tournament_table",
                       number=table.number, name=t.name if t else table.tournament_id,
                       players=table_occupancy(session, table).players)


def get_table(session: Session, table_id: int) -> Table:
    table = session.get(Table, table_id)
    if table is None:
        raise NotFound("no table {table_id}", table_id=table_id)
    return table


def table_by_number(session: Session, number: int) -> Table:
    table = session.execute(select(Table).where(Table.number == number)).scalar_one_or_none()
    if table is None:
        raise NotFound("no table number {number}", number=number)
    return table


def occupants(session: Session, table_ids: list[int] | None = None) -> dict[int, SeatAssignment]:
    """Open seat assignments keyed by seat id."""
    q = select(SeatAssignment).where(SeatAssignment.left_at.is_(None)).options(
        selectinload(SeatAssignment.player))
    if table_ids is not None:
        q = q.where(SeatAssignment.table_id.in_(table_ids))
    return {a.seat_id: a for a in session.execute(q).scalars()}


def table_json(table: Table, seated: dict[int, SeatAssignment], occ: Occupancy | None = None) -> dict:
    game = table.game
    seats = []
    for seat in table.seats:
        a = seated.get(seat.id)
        seats.append({
            "number": seat.number,
            "player": None if a is None else {"id": a.player.id, "name": a.player.name},
            "sat_at": None if a is None else a.sat_at.isoformat(),
        })
    return {
        "id": table.id, "number": table.number, "name": table.name, "kind": table.kind,
        "status": table.status, "seat_count": table.seat_count,
        "game": {"id": game.id, "name": game.name, "kind": game.kind, "variant": game.variant,
                 "structure": game.structure, "small_blind": game.small_blind, "big_blind": game.big_blind,
                 "min_bet": game.min_bet, "max_bet": game.max_bet},
        "seats": seats,
        "occupied": occ.players if occ is not None else sum(1 for s in seats if s["player"]),
        **({"use": occ.use, "tournament": occ.as_dict()["tournament"]} if occ is not None else {}),
    }


def floor_tables(session: Session) -> list[dict]:
    tables = session.execute(
        select(Table).options(selectinload(Table.seats)).order_by(Table.number)
    ).scalars().all()
    seated = occupants(session)
    occ = occupancy(session, list(tables))
    return [table_json(t, seated, occ[t.id]) for t in tables]
