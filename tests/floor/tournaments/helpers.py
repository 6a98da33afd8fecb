"""Arranging tournaments for tests: tables of ten seats, players enough for a field, a manager."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import select

from floor.models import Player, Seat, Table
from floor.settings import HouseSettings
from floor.tournaments import cancellation, deals, setup
from tests.floor.poker_helpers import NLH, manager

T0 = datetime(2026, 3, 14, 18, 0, tzinfo=timezone.utc)
HOUSE = HouseSettings()
TABLES = (41, 42, 43)   # first to break first; 43 hosts the final table


def tables(session, numbers=TABLES, seats: int = 10) -> list[int]:
    for n in numbers:
        if session.execute(select(Table).where(Table.number == n)).scalar_one_or_none() is None:
            t = Table(number=n, name=f"Tournament {n}", kind="poker", game_id=NLH, seat_count=seats, status="open")
            t.seats = [Seat(number=k) for k in range(1, seats + 1)]
            session.add(t)
    session.flush()
    return list(numbers)


def players(session, count: int) -> list[int]:
    have = list(session.execute(select(Player.id).order_by(Player.id)).scalars())
    for k in range(len(have), count):
        p = Player(name=f"Player {k + 1}", card_number=f"8100{k:04d}")
        session.add(p)
        session.flush()
        have.append(p.id)
    return have[:count]


def tournament(session, **values):
    v = {"name": "Friday Turbo", "game_id": NLH, "buy_in": 10_000, "fee": 1_500, "structure": "daily_turbo",
         "seats_per_table": 10, "final_table_size": 9, "table_numbers": tables(session)} | values
    return setup.create(session, manager(session), HOUSE, v)


def cancelled(session, m, settings, tournament_id, reason, stacks=None, now=None, rule=None) -> dict:
    """Cancel as the floor must: one person asks, a second one approves (nothing moves in between)."""
    asked = cancellation.cancel(session, m, settings, tournament_id, reason, stacks, now=now, rule=rule)
    if not asked["pending"]:
        return asked
    return cancellation.approve_cancel(session, manager(session, "pitboss2"), settings, tournament_id, now=now)


def approve_deal(session, t, d, now=None):
    """The second person (a pit boss) approves a deal everyone agreed to: it is paid."""
    return deals.approve(session, manager(session, "pitboss2"), HOUSE, t.id, d.id, now=now)


__all__ = ["T0", "HOUSE", "manager", "tables", "players", "tournament", "cancelled", "approve_deal"]
