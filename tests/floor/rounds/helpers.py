"""Shared arrangements for round tests: table ids, a funded player, one event per transaction."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import func, select

from floor import ledger, rounds
from floor.actors import Actor
from floor.models import Transfer
from floor.settings import HouseSettings
from floor.tables import table_by_number
from tests.money import cash_in

T0 = datetime(2024, 5, 1, 20, 0, tzinfo=timezone.utc)
CASHIER = Actor("Cleo Cashier", "cashier", "cage-1")
DEALER = Actor("Dan Dealer", "dealer", "table-terminal")
PIT = Actor("Paul Pitboss", "pit_boss", "pit-1")
HOUSE = HouseSettings()


def tid(session, number: int) -> int:
    return table_by_number(session, number).id


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def fund(session, player_id: int, amount: int) -> None:
    cash_in(session, player_id, amount, "test deposit", at=T0, house=HOUSE)
    session.commit()


def event(session, fn, *args, **kw):
    """Run one device event in its own transaction, then settle in the next one when it asks (by the
    house settings the event was given)."""
    out = fn(session, *args, **kw)
    rounds.commit_then_settle(session, out, at=kw.get("at"), house=kw.get("house", HOUSE))
    return out


def bet_returns(session, bet_id: int, account_id: int) -> int:
    """What a bet handed back to its account (stake included), from the ledger alone."""
    back = session.execute(select(func.coalesce(func.sum(Transfer.amount), 0)).where(
        Transfer.bet_id == bet_id, Transfer.to_account_id == account_id)).scalar_one()
    out = session.execute(select(func.coalesce(func.sum(Transfer.amount), 0)).where(
        Transfer.bet_id == bet_id, Transfer.from_account_id == account_id, Transfer.kind != "stake")).scalar_one()
    return back - out


def books_balance(session) -> None:
    check = ledger.check(session)
    assert check.ok, check
