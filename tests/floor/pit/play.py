"""Playing live rounds for the pit's tests: a roulette spin through the wheel's entry points."""
from __future__ import annotations

from datetime import datetime, timedelta

from floor import rounds
from floor.rounds import bets
from tests.floor.rounds.helpers import DEALER, HOUSE, event


def spin(session, table: int, spin_no: int, number: int, t: datetime, stakes: list[dict], *, sec=timedelta(seconds=1)):
    """One roulette spin: betting from ``t``, the bets a second later, the ball in ``number`` at t+14.2 s."""
    event(session, rounds.wheel_status, table, 2, spin_no, (), t, house=HOUSE)
    placed = [bets.place(session, DEALER, table, at=t + sec, house=HOUSE, **kw)[0] for kw in stakes]
    session.commit()
    event(session, rounds.wheel_status, table, 3, spin_no, (), t + 5 * sec, house=HOUSE)
    event(session, rounds.wheel_status, table, 4, spin_no, (), t + 9 * sec, house=HOUSE)
    event(session, rounds.wheel_number, table, spin_no, number, t + 14 * sec)
    event(session, rounds.wheel_status, table, 5, spin_no, (), t + 14.2 * sec, winning=number, house=HOUSE)
    return placed
