"""People of the demo floor as actors, and a roulette spin played through the real rounds."""
from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from floor import rounds
from floor.actors import Actor
from floor.models import Staff
from floor.rounds import bets
from tests.floor.rounds.helpers import HOUSE, T0, event


def person(session, username: str) -> Actor:
    s = session.execute(select(Staff).where(Staff.username == username)).scalar_one()
    return Actor(s.name, s.role, f"test-{username}", s.id)


class People:
    def __init__(self, session):
        self.dealer = person(session, "dealer")
        self.dealer2 = person(session, "dealer2")
        self.manager = person(session, "manager")
        self.manager2 = person(session, "manager2")
        self.pit = person(session, "pitboss")
        self.pit2 = person(session, "pitboss2")
        self.cashier = person(session, "cashier")


class Wheel:
    """Table 12's wheel: each ``spin`` opens betting, takes the seat bets, and settles on a number."""

    def __init__(self, session, table_id: int, start: float = 0.0):
        self.session, self.table, self.t, self.no = session, table_id, start, 100

    def at(self):
        self.t += 1
        return T0 + timedelta(seconds=self.t)

    def spin(self, number: int, seat_bets=(), player_bets=(), dealer: Actor | None = None) -> int:
        s, table = self.session, self.table
        self.no += 1
        event(s, rounds.wheel_status, table, 2, self.no, (), self.at(), winning=None, house=HOUSE)
        r = rounds.active_round(s, table, lock=False)
        for seat, spot, numbers, amount in seat_bets:
            bets.place(s, dealer, table, spot=spot, numbers=numbers, amount=amount, seat=seat, source="dealer",
                       at=self.at(), house=HOUSE)
        for player_id, spot, numbers, amount in player_bets:
            bets.place(s, dealer, table, spot=spot, numbers=numbers, amount=amount, player_id=player_id,
                       at=self.at(), house=HOUSE)
        s.commit()
        event(s, rounds.wheel_status, table, 3, self.no, (), self.at(), house=HOUSE)
        event(s, rounds.wheel_status, table, 4, self.no, (), self.at(), house=HOUSE)
        event(s, rounds.wheel_number, table, self.no, number, self.at())
        event(s, rounds.wheel_status, table, 5, self.no, (), self.at(), winning=number, house=HOUSE)
        return r.id
