"""The floor's tables and who sits where, as plain data for pages, the API and live updates."""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from floor.errors import NotFound
from floor.models import SeatAssignment, Table


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


def table_json(table: Table, seated: dict[int, SeatAssignment]) -> dict:
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
        "occupied": sum(1 for s in seats if s["player"]),
    }


def floor_tables(session: Session) -> list[dict]:
    tables = session.execute(
        select(Table).options(selectinload(Table.seats)).order_by(Table.number)
    ).scalars().all()
    seated = occupants(session)
    return [table_json(t, seated) for t in tables]
