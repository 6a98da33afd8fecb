"""Each cancellation formula as the pit boss applies it to a running tournament: the amounts, worked
out by hand, paid through the ledger; the players already out get nothing; every account settles."""
from __future__ import annotations

from datetime import timedelta

import pytest

from floor import ledger
from floor.errors import BadInput
from floor.models import AuditRecord
from floor.tournaments import cancellation, clock, core, eliminations, registration
from tests.floor.tournaments.helpers import HOUSE, T0, manager, players, tables, tournament, cancelled

CLOSED = T0 + timedelta(minutes=101)


def _four_left(session, **values):
    """Five entries of 100.00 + 15.00 fee; the first out; four left with 400, 300, 200 and 100 chips
    (in thousands). Five entries pay two places: 325.00 and 175.00."""
    m = manager(session)
    t = tournament(session, table_numbers=tables(session, (41,)), **values)
    for p in players(session, 5):
        registration.register(session, m, HOUSE, t.id, p, "cash", T0)
    clock.start(session, m, t.id, T0)
    a, b, c, d, e = core.entries(session, t, "seated")
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": a.id, "chips_at_start": 100}], [b.id], now=CLOSED)
    return m, t, a, {b.id: 40_000, c.id: 30_000, d.id: 20_000, e.id: 10_000}, (b, c, d, e)


CASES = {
    # technical problem: each player left gets back all he paid; the player out's buy-in stays with the house
    "refund": ({}, [11_500, 11_500, 11_500, 11_500], 10_000),
    # everything paid in (57_500) shared: 4 x 11_500 back, the 11_500 left half equally (1_437.50 each,
    # the odd cents to the bigger stacks), half by chips (2_300, 1_725, 1_150, 575)
    "online_room": ({}, [11_500 + 1_438 + 2_300, 11_500 + 1_438 + 1_725, 11_500 + 1_437 + 1_150, 11_500 + 1_437 + 575], 0),
    # fees back (1_500 each), the prize pool (50_000) half equally (6_250 each), half by chips
    "fees_back": ({}, [1_500 + 6_250 + 10_000, 1_500 + 6_250 + 7_500, 1_500 + 6_250 + 5_000, 1_500 + 6_250 + 2_500], 0),
    # the same before the money with the (zero) bounties
    "fees_and_bounty_back": ({}, [17_750, 15_250, 12_750, 10_250], 0),
    # buy-ins and fees back, and the buy-in of the player out shared equally (2_500 each)
    "sit_and_go": ({}, [14_000] * 4, 0),
}


@pytest.mark.parametrize("rule", list(CASES))
def test_each_formula_pays_the_players_left_by_hand_worked_amounts(session, rule):
    values, expected, kept = CASES[rule]
    m, t, out, stacks, left = _four_left(session, **values)
    shown = cancellation.plan(session, HOUSE, t, stacks, rule)
    assert [s.total for s in shown.shares] == expected
    before = {e.id: ledger.player_balance(session, e.player_id) for e in left}
    res = cancelled(session, m, HOUSE, t.id, "table fire", stacks, now=CLOSED, rule=rule)
    assert res["rule"] == rule and [s["total"] for s in res["shares"]] == expected
    assert res["kept_by_house"] == kept
    for e, amount in zip(left, expected):
        assert ledger.player_balance(session, e.player_id) - before[e.id] == amount
        assert e.status == "finished"
    assert out.prize == 0 and ledger.player_balance(session, out.player_id) == 0   # the player out gets nothing
    assert ledger.balance(session, core.account(session, t, "prize_pool")) == 0
    assert ledger.balance(session, core.account(session, t, "bounties")) == 0
    # the house keeps: the fees not given back, plus what nobody was owed
    assert ledger.balance(session, core.account(session, t, "fees")) == 5 * (11_500) - sum(expected)
    assert t.status == "cancelled"
    rec = session.query(AuditRecord).filter_by(action="tournament.cancel").one()
    assert rule in rec.after and "table fire" in rec.after
    assert ledger.check(session).ok


def test_with_knockout_bounties_each_player_left_also_gets_the_bounty_on_his_head(session):
    m, t, out, stacks, left = _four_left(session, bounty_kind="knockout", bounty=1_000)
    b = left[0]
    assert b.bounties_won == 1_000       # he knocked out the first player
    res = cancelled(session, m, HOUSE, t.id, "power cut", stacks, now=CLOSED, rule="online_room")
    # in: 5 x 125.00 = 625.00, out already: 10.00 -> 615.00: 4 x 115.00 back, 4 x 10.00 bounties, then
    # 115.00 left shared as without bounties
    assert [s["bounty"] for s in res["shares"]] == [1_000] * 4
    assert [s["total"] for s in res["shares"]] == [16_238, 15_663, 15_087, 14_512]
    assert ledger.balance(session, core.account(session, t, "bounties")) == 0
    assert ledger.check(session).ok


def test_in_the_money_each_gets_the_next_prize_then_the_rest_by_chips(session):
    m, t, out, stacks, left = _four_left(session)
    b, c, d, e = left
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": b.id, "chips_at_start": 100}], [c.id], now=CLOSED)
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": c.id, "chips_at_start": 100}], [d.id], now=CLOSED)
    # two left, two places paid (325.00, 175.00): fees back, 175.00 each, the 150.00 left all by chips
    res = cancelled(session, m, HOUSE, t.id, "power cut", {d.id: 60_000, e.id: 40_000}, now=CLOSED,
                              rule="fees_and_bounty_back")
    assert [s["total"] for s in res["shares"]] == [1_500 + 17_500 + 9_000, 1_500 + 17_500 + 6_000]
    assert (out.prize, b.prize, c.prize) == (0, 0, 0)
    assert ledger.balance(session, core.account(session, t, "prize_pool")) == 0
    assert ledger.check(session).ok


def test_an_unknown_rule_or_missing_chips_pay_nothing(session):
    m, t, out, stacks, left = _four_left(session)
    with pytest.raises(BadInput):
        cancelled(session, m, HOUSE, t.id, "x", stacks, now=CLOSED, rule="lottery")
    with pytest.raises(BadInput):
        cancelled(session, m, HOUSE, t.id, "x", dict(list(stacks.items())[:3]), now=CLOSED, rule="refund")
    assert t.status == "running"


@pytest.mark.parametrize("large_from, expected, rule", [
    # small pool (500.00 below 1000.00): buy-ins back (100.00 each), the 100.00 left by chips
    (100_000, [14_000, 13_000, 12_000, 11_000], "random_prize_small"),
    # large pool (from 500.00): buy-ins back, then each 10 % of the 100.00 left, the 60.00 left by chips
    (50_000, [10_000 + 1_000 + 2_400, 10_000 + 1_000 + 1_800, 10_000 + 1_000 + 1_200, 10_000 + 1_000 + 600],
     "random_prize_large"),
])
def test_a_random_prize_pool_small_or_large(session, large_from, expected, rule):
    from floor.settings import HouseSettings
    house = HouseSettings.from_mapping(HOUSE.as_dict() | {"tournament_large_pool_from": large_from})
    m, t, out, stacks, left = _four_left(session)
    res = cancelled(session, m, house, t.id, "server down", stacks, now=CLOSED, rule="random_prize")
    assert res["rule"] == rule and [s["total"] for s in res["shares"]] == expected
    assert out.prize == 0 and ledger.balance(session, core.account(session, t, "prize_pool")) == 0
    assert ledger.balance(session, core.account(session, t, "fees")) == 5 * 1_500    # fees are not given back
    assert ledger.check(session).ok
