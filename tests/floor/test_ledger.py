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


def test_the_check_finds_a_balance_that_no_transfer_explains(session):
    from sqlalchemy import update

    from floor.models import Account
    ledger.credit(session, CASHIER, 4, 2_000, house=HOUSE)
    session.commit()
    # someone edits two balances behind the ledger's back: the total still sums to zero
    session.execute(update(Account).where(Account.key == "player:4").values(balance=Account.balance + 500))
    session.execute(update(Account).where(Account.id == ledger.cage_account(session)).values(
        balance=Account.balance - 500))
    session.commit()
    check = ledger.check(session)
    player = session.query(Account).filter_by(key="player:4").one()
    assert not check.ok and check.total == 0
    assert set(check.mismatched) == {player.id, ledger.cage_account(session)}


def test_the_check_holds_while_transfers_commit_beside_it(app, session):
    # The check reads every balance and every transfer in one snapshot; reading them in several
    # statements saw a transfer committed in between as a broken book (PostgreSQL, READ COMMITTED).
    from floor.web.extensions import db
    engine = db.engine
    stop = threading.Event()
    moved, errors = [], []

    def cashier():
        try:
            with Session(engine) as s:
                while not stop.is_set() and len(moved) < 150:
                    ledger.credit(s, Actor("t", "cashier", "t"), 1, 100, house=HOUSE)
                    s.commit()
                    moved.append(1)
        except Exception as e:  # shown by the assertion below, not lost in the thread
            errors.append(e)

    t = threading.Thread(target=cashier)
    t.start()
    checks = []
    try:
        while t.is_alive():
            with Session(engine) as s:
                checks.append(ledger.check(s))
    finally:
        stop.set()
        t.join(60)
    assert not errors and len(moved) == 150 and checks
    assert all(c.ok for c in checks), [c for c in checks if not c.ok][:3]
