"""The ledger: double entry, never below zero for a player (also when two debits race), sums to zero."""
from __future__ import annotations

import threading

import pytest
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from floor import ledger
from floor.actors import Actor
from tests.floor.rounds.helpers import CASHIER, HOUSE


def test_transfers_move_both_balances_and_the_books_sum_to_zero(session):
    ledger.credit(session, CASHIER, 1, 5_000, house=HOUSE)
    ledger.debit(session, CASHIER, 1, 2_000, house=HOUSE)
    session.commit()
    assert ledger.player_balance(session, 1) == 3_000
    assert ledger.balance(session, ledger.cage_account(session)) == -3_000
    check = ledger.check(session)
    assert check.ok and check.total == 0


def test_a_player_balance_never_goes_below_zero(session):
    ledger.credit(session, CASHIER, 2, 1_000, house=HOUSE)
    session.commit()
    with pytest.raises(ledger.InsufficientBalance):
        ledger.debit(session, CASHIER, 2, 1_001, house=HOUSE)
    session.rollback()
    # even a raw update around the service is stopped by the database's CHECK
    from sqlalchemy import update

    from floor.models import Account
    with pytest.raises(IntegrityError):
        session.execute(update(Account).where(Account.key == "player:2").values(balance=-1))
        session.flush()
    session.rollback()
    assert ledger.player_balance(session, 2) == 1_000


def test_two_debits_racing_cannot_both_take_the_money(app, session):
    from floor.web.extensions import db
    ledger.credit(session, CASHIER, 3, 10_000, house=HOUSE)
    session.commit()
    engine = db.engine
    results = []
    barrier = threading.Barrier(2)

    def cash_out():
        with Session(engine) as s:
            barrier.wait()
            try:
                ledger.debit(s, Actor("t", "cashier", "t"), 3, 7_000, house=HOUSE)
                s.commit()
                results.append("ok")
            except ledger.InsufficientBalance:
                s.rollback()
                results.append("refused")

    threads = [threading.Thread(target=cash_out) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results) == ["ok", "refused"]
    session.expire_all()
    assert ledger.player_balance(session, 3) == 3_000
    assert ledger.check(session).ok
