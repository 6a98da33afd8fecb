"""Seating: a player sits in a seat, and leaves it. The poker room rules (buy-ins, must-move,
cooling-off, waiting lists) build on these two moves.

The database holds the invariants (one open assignment per seat, one per player per table), so two
tablets seating at once cannot both win: the loser gets a Conflict.
"""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from floor import audit, notify
from floor.actors import Actor
from floor.errors import Conflict, InvalidState, NotFound
from floor.models import Seat, SeatAssignment, Table


def _seat(session: Session, table: Table, seat_number: int) -> Seat:
    seat = session.execute(
        select(Seat).where(Seat.table_id == table.id, Seat.number == seat_number)).scalar_one_or_none()
    if seat is None:
        raise NotFound(f"table {table.number} has no seat {seat_number}")
    return seat


def open_assignment(session: Session, table_id: int, seat_number: int) -> SeatAssignment | None:
    return session.execute(
        select(SeatAssignment).join(Seat, Seat.id == SeatAssignment.seat_id)
        .where(SeatAssignment.table_id == table_id, Seat.number == seat_number, SeatAssignment.left_at.is_(None))
    ).scalar_one_or_none()


def sit(session: Session, actor: Actor, table: Table, seat_number: int, player_id: int,
        buy_in: int = 0, now: datetime | None = None, arrival: str = "new") -> SeatAssignment:
    """Put a player in a free seat. Rules about who may sit there are the caller's (see seating rules)."""
    if table.status != "open":
        raise InvalidState(f"table {table.number} is {table.status}")
    seat = _seat(session, table, seat_number)
    if open_assignment(session, table.id, seat_number) is not None:
        raise Conflict(f"seat {seat_number} at table {table.number} is taken", code="seat_taken")
    a = SeatAssignment(seat_id=seat.id, table_id=table.id, player_id=player_id, buy_in=buy_in,
                       sat_at=now or datetime.now(timezone.utc), arrival=arrival)
    session.add(a)
    try:
        with session.begin_nested():
            session.flush()
    except IntegrityError:
        # Another tablet won the race for this seat (or seated him at this table) first.
        raise Conflict(f"seat {seat_number} at table {table.number} was just taken, or the player "
                       f"already sits at this table", code="seat_taken") from None
    audit.record(session, actor, "seat.sit", f"table:{table.id}",
                 after={"seat": seat_number, "player_id": player_id, "buy_in": buy_in, "arrival": arrival})
    notify.publish(session, "tables.changed", {"table_id": table.id}, "floor", "board", notify.table_room(table.id))
    return a


def leave(session: Session, actor: Actor, assignment: SeatAssignment, reason: str,
          chips_out: int | None = None, now: datetime | None = None) -> SeatAssignment:
    """Close a player's stay in a seat (left, busted, moved, forfeited, banned...)."""
    if assignment.left_at is not None:
        raise Conflict("this player has already left the seat", code="already_left")
    assignment.left_at = now or datetime.now(timezone.utc)
    assignment.reason_left = reason
    assignment.chips_out = chips_out
    audit.record(session, actor, "seat.leave", f"table:{assignment.table_id}",
                 before={"seat_id": assignment.seat_id, "player_id": assignment.player_id},
                 after={"reason": reason, "chips_out": chips_out})
    notify.publish(session, "tables.changed", {"table_id": assignment.table_id}, "floor", "board",
                   notify.table_room(assignment.table_id))
    return assignment
