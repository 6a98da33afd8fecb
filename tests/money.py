"""Money onto a player's balance for a test's setup, the way the cage takes it: the cashier credits it
and, when the ledger's check asks for one (above the two-person threshold, counted per player and
gaming day and per person), a second pit boss approves it."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from floor import ledger
from floor.actors import Actor
from floor.models import Staff
from floor.settings import HouseSettings


def staff(session: Session, username: str) -> Actor:
    s = session.execute(select(Staff).where(Staff.username == username)).scalar_one()
    return Actor(s.name, s.role, "test", s.id)


def cash_in(session: Session, player_id: int, cents: int, memo: str | None = None, at: datetime | None = None,
            house: HouseSettings | None = None) -> int:
    """Cash in at the cage with its second pit boss's approval (so it counts towards nobody's day
    alone); returns the balance."""
    house = house or HouseSettings()
    grant = ledger.authorize(session, staff(session, "cashier"), ledger.Purpose.CASH_IN, cents, house=house,
                             player_id=player_id, approval=staff(session, "pitboss2"), at=at)
    ledger.transfer(session, ledger.cage_account(session), ledger.player_account(session, player_id), cents,
                    "deposit", at=at, memo=memo, grant=grant)
    return ledger.player_balance(session, player_id)
