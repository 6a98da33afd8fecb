"""Roulette on a winning-number-only wheel: the dealer opens and closes betting at the terminal (the
wheel has no states to do it), and the wheel's number, when it comes, settles the round."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import select

from floor import ledger, rounds
from floor.models import Alert, Round
from floor.rounds import bets
from floor.rounds.engines.wheel import Hold, Number, Result, Status, Stray, WheelRound, WheelState, step
from tests.floor.rounds.helpers import DEALER, HOUSE, PIT, at, bet_returns, books_balance, event, fund, tid

T = datetime(2026, 1, 1, tzinfo=timezone.utc)


# --- the engine alone ----------------------------------------------------------------------------

def test_a_number_alone_settles_the_round_the_dealer_closed():
    locked = WheelState(open=True, round=WheelRound("locked"))
    state, out = step(locked, Number(17, None, alone=True), T)
    assert out == [Result(17, None)] and state.round.status == "result"


def test_a_number_alone_while_betting_is_open_holds_the_round():
    state, out = step(WheelState(open=True, round=WheelRound("betting")), Number(17, None, alone=True), T)
    assert [type(o) for o in out] == [Hold] and out[0].data == {"spin": None, "number": 17}
    assert state.round.status == "held"


def test_a_number_alone_with_no_round_is_a_stray_result_every_time():
    state, out = step(WheelState(open=True), Number(5, None, alone=True), T)
    assert out == [Stray(None, 5, True)]
    assert step(state, Number(5, None, alone=True), T)[1] == [Stray(None, 5, True)]


def test_the_ss2_wheel_still_needs_its_no_more_bets_and_state_5():
    """What changed for the number-only wheel changed nothing for the wheel with states: its bare
    number on a round the dealer locked (no state 4 seen) is still a result without no more bets."""
    locked = WheelState(open=True, round=WheelRound("locked"))
    state, out = step(locked, Number(17, None), T)
    assert [type(o) for o in out] == [Hold]
    state, out = step(WheelState(open=True, round=WheelRound("locked", 4, nmb=4)), Number(17, 4), T)
    assert out == [] and state.round.bare == 17   # it waits for the state-5 line to agree
    assert step(state, Status(5, 4, winning=17), T)[1] == [Result(17, 4)]


# --- the rounds, in the database -----------------------------------------------------------------

def test_the_dealer_closes_betting_and_the_number_settles_the_bets(session):
    table = tid(session, 12)
    fund(session, 1, 50_000)
    r = rounds.open_betting(session, DEALER, table, at(0), house=HOUSE)
    session.commit()
    placed = []
    for spot, numbers, amount in [("straight", [17], 1_000), ("black", None, 2_000), ("red", None, 3_000)]:
        b, _ = bets.place(session, DEALER, table, spot=spot, numbers=numbers, amount=amount, player_id=1,
                          at=at(5), house=HOUSE)
        placed.append(b.id)
    session.commit()
    rounds.close_betting(session, DEALER, table, at(20))   # the dealer's tap: "no more bets"
    session.commit()
    out = event(session, rounds.wheel_number, table, None, 17, at(31), raw=b"N:17:CCW\r\n", device="wheel-12",
                alone=True, direction=1)
    assert out.settle == r.id
    session.expire_all()
    r = session.get(Round, r.id)
    assert r.status == "settled" and r.result == {"number": 17, "spin": None}
    assert r.device["direction"] == 1   # the pit's wheel watch reads the rotor's direction from here
    acct = ledger.player_account(session, 1)
    assert [bet_returns(session, b, acct) for b in placed] == [36_000, 4_000, 0]
    assert ledger.player_balance(session, 1) == 50_000 - 6_000 + 40_000
    books_balance(session)
    # the wheel repeating its line after the round settled is a stray result, alerted, never paid
    event(session, rounds.wheel_number, table, None, 17, at(50), raw=b"N:17:CCW\r\n", device="wheel-12", alone=True,
          direction=1)
    assert session.get(Round, r.id).status == "settled"
    assert ledger.player_balance(session, 1) == 50_000 - 6_000 + 40_000
    kinds = session.execute(select(Alert.kind).where(Alert.table_id == table)).scalars().all()
    assert "result_without_no_more_bets" in kinds


def test_a_number_before_the_dealer_closed_betting_is_held_for_the_pit_boss(session):
    table = tid(session, 12)
    fund(session, 2, 10_000)
    r = rounds.open_betting(session, DEALER, table, at(0), house=HOUSE)
    session.commit()
    b, _ = bets.place(session, DEALER, table, spot="odd", amount=4_000, player_id=2, at=at(5), house=HOUSE)
    session.commit()
    out = event(session, rounds.wheel_number, table, None, 7, at(30), raw=b"N:7:CW\r\n", device="wheel-12",
                alone=True, direction=0)
    assert out.settle is None
    session.expire_all()
    r = session.get(Round, r.id)
    assert r.status == "held" and "result without no more bets" in r.held_reason
    assert ledger.player_balance(session, 2) == 6_000   # nothing paid until the pit boss decides
    rounds.settle_held(session, PIT, r.id, {"number": 7}, at(60), house=HOUSE)
    session.commit()
    assert bet_returns(session, b.id, ledger.player_account(session, 2)) == 8_000
    books_balance(session)


def test_the_pit_wheel_watch_reads_the_rotor_direction_of_a_number_only_wheel(session):
    """The direction on each number line is kept on the round: a rotor that stops alternating is
    alerted as for the wheel controller."""
    from floor.pit import wheel_watch
    table = tid(session, 12)
    t = 0.0
    for direction in (0, 1, 1):   # the third spin turned the same way as the second
        rounds.open_betting(session, DEALER, table, at(t), house=HOUSE)
        session.commit()
        rounds.close_betting(session, DEALER, table, at(t + 20))
        session.commit()
        event(session, rounds.wheel_number, table, None, 9, at(t + 30), raw=b"N:9:CW\r\n", device="wheel-12",
              alone=True, direction=direction)
        t += 40
    raised = wheel_watch.check(session, HOUSE, at(t))
    assert [a.kind for a in raised] == ["direction_not_alternating"]
    last = session.execute(select(Round).where(Round.table_id == table).order_by(Round.number.desc())).scalars().first()
    assert raised[0].data["rounds"] == [last.id]
