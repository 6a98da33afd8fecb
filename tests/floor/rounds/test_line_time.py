"""The line's time decides which bets stand (floor.rounds.line): a lock written by the device
process's lane with its arrival time refuses bets on the round it closed, a bet that slipped in
after it (its lock not yet written when the bet was taken) is refunded at settlement and reported
to the pit, and a table paused because the device process is behind takes no bet until it resumes."""
from __future__ import annotations

import pytest

from floor import ledger, rounds
from floor.errors import Conflict
from floor.models import Alert, Round, RoundEvent
from floor.rounds import bets, line
from tests.floor.rounds.helpers import DEALER, HOUSE, at, bet_returns, books_balance, event, fund, tid


def _bet(session, table, t, amount=1_000, numbers=(7,)):
    b, _ = bets.place(session, DEALER, table, spot="straight", numbers=list(numbers), amount=amount, player_id=1,
                      at=at(t), house=HOUSE)
    session.commit()
    return b.id


def test_a_bet_placed_after_the_lines_lock_is_refunded_not_paid(session):
    table = tid(session, 12)
    fund(session, 1, 50_000)
    event(session, rounds.wheel_status, table, 2, 11, (), at(0), device="wheel-12", house=HOUSE)
    on_time = _bet(session, table, 1)
    # the wheel said "no more bets" at 5 s; the device process is behind: the bet at 6 s is taken
    # before the lane has written the lock
    slipped = _bet(session, table, 6, amount=2_000)
    line.record_lock(session, table, "wheel-12", at(5), "no_more_bets")
    session.commit()
    with pytest.raises(Conflict) as refused:   # from now on the route refuses
        _bet(session, table, 7)
    assert refused.value.code == "late" and refused.value.params["device"] == "wheel-12"
    session.rollback()
    for state, t in ((3, 3), (4, 5)):
        event(session, rounds.wheel_status, table, state, 11, (), at(t), device="wheel-12", house=HOUSE)
    event(session, rounds.wheel_number, table, 11, 7, at(9), device="wheel-12")
    out = event(session, rounds.wheel_status, table, 5, 11, (), at(9.2), winning=7, device="wheel-12", house=HOUSE)
    session.expire_all()
    r = session.get(Round, out.round_id)
    assert r.status == "settled" and r.result["number"] == 7
    acct = ledger.player_account(session, 1)
    assert bet_returns(session, on_time, acct) == 36_000
    assert bet_returns(session, slipped, acct) == 2_000            # the stake back, no win
    assert ledger.player_balance(session, 1) == 50_000 - 1_000 + 36_000
    alert = session.query(Alert).filter_by(table_id=table, kind="late_bets").one()
    assert alert.severity == "critical" and alert.data["bets"] == [slipped] and alert.data["refunded"] == 2_000
    assert alert.data["msg"]["template"].startswith("Table {table} round {round}: {count} bets placed after")
    assert session.query(RoundEvent).filter_by(round_id=r.id, kind="late_bets").count() == 1
    books_balance(session)


def test_a_lock_from_an_earlier_round_does_not_close_the_next_one(session):
    table = tid(session, 12)
    fund(session, 1, 50_000)
    line.record_lock(session, table, "wheel-12", at(-10), "result")   # the spin before
    session.commit()
    event(session, rounds.wheel_status, table, 2, 12, (), at(0), device="wheel-12", house=HOUSE)
    assert _bet(session, table, 1)


def test_betting_pauses_while_the_device_process_is_behind_its_line(session):
    table = tid(session, 12)
    fund(session, 1, 50_000)
    event(session, rounds.wheel_status, table, 2, 13, (), at(0), device="wheel-12", house=HOUSE)
    assert line.pause(session, table, "wheel-12", 740, at(1)) is not None
    assert line.pause(session, table, "wheel-12", 900, at(1.5)) is None   # paused already: one alert
    session.commit()
    with pytest.raises(Conflict) as refused:
        _bet(session, table, 2)
    assert refused.value.code == "betting_paused" and refused.value.params["ms"] == 740
    assert "740 ms behind the line of wheel-12" in str(refused.value)
    session.rollback()
    [alert] = session.query(Alert).filter_by(table_id=table, kind="betting_paused").all()
    assert alert.data["msg"]["params"]["ms"] == 740
    assert line.resume(session, table, "wheel-12", at(3)) and not line.resume(session, table, "wheel-12", at(3))
    session.commit()
    assert _bet(session, table, 4)
