"""Property: whatever bets, results, voids and restarts happen, the books balance (the sum over all
accounts is zero, every balance matches its transfers) and every player's balance is his deposits
minus his stakes plus what the rules return."""
from __future__ import annotations

import dataclasses
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from floor import ledger, rounds
from floor.errors import Conflict
from floor.games import roulette
from floor.rounds import bets
from tests.floor.rounds.helpers import DEALER, at, fund, tid
from tests.floor.rounds.helpers import HOUSE as TABLE_HOUSE

# The books are the property here; who may move what is tests/web/test_two_person_rule.py's. With the
# two-person thresholds above anything a play can stake, every fate runs to its end.
HOUSE = dataclasses.replace(TABLE_HOUSE, dispute_two_person_cents=10**8, cashier_two_person_cents=10**8)

LAYOUT = roulette.all_bets()
PLAYERS = (14, 15, 16)
_spins = itertools.count(100)

bet_st = st.tuples(st.sampled_from(PLAYERS), st.integers(0, len(LAYOUT) - 1), st.sampled_from((500, 1_000, 5_000, 20_000)))
round_st = st.fixed_dictionaries({
    "bets": st.lists(bet_st, max_size=6),
    "fate": st.sampled_from(["result", "crash_then_recover", "void", "misspin_then_result", "hold_then_settle"]),
    "number": st.integers(0, 36),
    "deposit": st.sampled_from((0, 0, 3_000, 10_000)),
})


@pytest.mark.slow
@pytest.mark.timeout(1200)   # 25 examples of up to four rounds: about a minute, longer on a loaded machine
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plays=st.lists(round_st, min_size=1, max_size=4))
def test_books_balance_and_each_balance_is_deposits_minus_stakes_plus_returns(session, plays):
    table = tid(session, 12)
    start = {p: ledger.player_balance(session, p) for p in PLAYERS}
    expected = dict(start)
    for play in plays:
        spin = next(_spins) % 256 + 1
        t = spin * 100
        for p in PLAYERS:
            if play["deposit"]:
                fund(session, p, play["deposit"])
                expected[p] += play["deposit"]
        rounds.wheel_status(session, table, 2, spin, (), at(t), house=HOUSE)
        session.commit()
        accepted = []
        for player, idx, stake in play["bets"]:
            b = LAYOUT[idx]
            try:
                bets.place(session, DEALER, table, spot=b.kind, numbers=list(b.numbers), amount=stake,
                           player_id=player, at=at(t + 1), house=HOUSE)
                session.commit()
                accepted.append((player, b, stake))
                expected[player] -= stake
            except Conflict:      # more than the balance, or over the spot's maximum: refused, nothing moves
                session.rollback()
        fate, number = play["fate"], play["number"]
        if fate == "misspin_then_result":
            rounds.wheel_status(session, table, 3, spin, {"misspin"}, at(t + 3), house=HOUSE)
            session.commit()
        rounds.wheel_status(session, table, 4, spin, (), at(t + 5), house=HOUSE)
        session.commit()
        if fate == "void":
            rounds.device_fault(session, table, "sensor fault", at(t + 6))
            session.commit()
            rounds.void_round(session, DEALER, rounds.last_round(session, table).id, "fault", at(t + 7), house=HOUSE)
            session.commit()
            for player, _, stake in accepted:
                expected[player] += stake
            continue
        if fate == "hold_then_settle":
            rounds.wheel_status(session, table, 6, spin, (), at(t + 6), house=HOUSE)
            session.commit()
            rounds.settle_held(session, DEALER, rounds.last_round(session, table).id, {"number": number}, at(t + 9), house=HOUSE)
            session.commit()
        else:
            rounds.wheel_number(session, table, spin, number, at(t + 9))
            out = rounds.wheel_status(session, table, 5, spin, (), at(t + 9.1), winning=number, house=HOUSE)
            session.commit()
            if fate == "crash_then_recover":
                rounds.settle(session, out.settle, at=at(t + 10), house=HOUSE)
                session.rollback()          # the process died before committing
                session.expunge_all()
                rounds.recover(session, at(t + 20), house=HOUSE)
            else:
                rounds.settle(session, out.settle, at=at(t + 10), house=HOUSE)
                rounds.settle(session, out.settle, at=at(t + 10), house=HOUSE)   # a repeat does nothing
            session.commit()
        for player, b, stake in accepted:
            expected[player] += roulette.returned(b, stake, number, roulette.DEFAULT)
        assert rounds.last_round(session, table).status == "settled"
    for p in PLAYERS:
        assert ledger.player_balance(session, p) == expected[p], p
    check = ledger.check(session)
    assert check.ok and check.total == 0, check
