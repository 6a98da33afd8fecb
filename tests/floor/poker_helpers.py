"""Arranging the demo poker room for tests: fill tables at known times, open must-move tables."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import select

from floor.actors import Actor
from floor.models import Seat, Staff, Table
from floor.poker import mustmove, seating
from floor.settings import HouseSettings

T0 = datetime(2026, 3, 14, 18, 0, tzinfo=timezone.utc)   # 19:00 in Zurich, gaming day 2026-03-14
HOUSE = HouseSettings()
NLH, PLO = 1, 2


def manager(session, username: str = "manager") -> Actor:
    s = session.execute(select(Staff).where(Staff.username == username)).scalar_one()
    return Actor(s.name, s.role, f"tablet-{username}", s.id)


def table(session, number: int) -> Table:
    return session.execute(select(Table).where(Table.number == number)).scalar_one()


def add_table(session, number: int, game_id: int = NLH, seats: int = 10, status: str = "closed") -> Table:
    t = Table(number=number, name=f"Hold'em {number}", kind="poker", game_id=game_id, seat_count=seats, status=status)
    t.seats = [Seat(number=n) for n in range(1, seats + 1)]
    session.add(t)
    session.flush()
    return t


def fill(session, t: Table, player_ids, start: datetime = T0, seats=None, buy_in: int = 50_000):
    """Seat players one minute apart (their must-move order), in seats 1.. unless given."""
    actor = Actor.system("test")
    out = []
    for k, pid in enumerate(player_ids):
        seat = seats[k] if seats else k + 1
        out.append(seating.sit(session, actor, HOUSE, t, seat, pid, buy_in, start + timedelta(minutes=k)))
    session.flush()
    return out


def open_mm(session, number: int = 2, feeds: int = 1, now: datetime = T0):
    return mustmove.open_table(session, manager(session), HOUSE, table(session, number),
                               feeds=table(session, feeds), now=now)
