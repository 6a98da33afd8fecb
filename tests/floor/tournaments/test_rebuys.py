"""Rebuys and the add-on: sold only while the structure offers them, paid through the ledger into the
prize pool (the fee to the house), audited, on the receipt and the results; the payouts, the shift
figures and a cancellation count them; every cent paid in comes out again."""
from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from floor import ledger
from floor.errors import InvalidState
from floor.gaming_day import gaming_day
from floor.games import tournament as rules
from floor.models import AuditRecord
from floor.pit import shift
from floor.tournaments import cancellation, clock, core, eliminations, registration, results
from tests.floor.tournaments.helpers import HOUSE, T0, manager, players, tables, tournament, cancelled

# the daily turbo (15-minute levels, late registration until the break after level 6) with rebuys
# until the end of level 3 (at most two, at or below the starting stack) and the add-on during level 4
STRUCTURE = rules.structure_to_data(dataclasses.replace(
    rules.DAILY_TURBO, rebuy=rules.Rebuys(price=5_000, fee=500, chips=20_000, until_level=3, max_per_player=2),
    add_on=rules.AddOn(price=5_000, fee=0, chips=30_000, after_level=3)))
LEVEL_2 = T0 + timedelta(minutes=20)
LEVEL_4 = T0 + timedelta(minutes=50)
LEVEL_5 = T0 + timedelta(minutes=65)
CLOSED = T0 + timedelta(minutes=101)


def _running(session, count, **values):
    m = manager(session)
    t = tournament(session, structure=STRUCTURE, table_numbers=tables(session, (41,)), **values)
    for p in players(session, count):
        registration.register(session, m, HOUSE, t.id, p, "cash", T0)
    clock.start(session, m, t.id, T0)
    return m, t


def test_a_rebuy_pays_the_prize_pool_and_the_house_and_is_refused_outside_the_rules(session):
    m, t = _running(session, 4)
    a, b, c, d = core.entries(session, t, "seated")
    with pytest.raises(InvalidState) as exc:           # above the starting stack
        registration.buy_chips(session, m, HOUSE, t.id, a.id, "rebuy", 25_000, "cash", LEVEL_2)
    assert exc.value.code == "too_many_chips"
    p = registration.buy_chips(session, m, HOUSE, t.id, a.id, "rebuy", 0, "cash", LEVEL_2)
    assert (p.price, p.fee, p.chips, a.chips) == (5_000, 500, 20_000, 20_000)
    registration.buy_chips(session, m, HOUSE, t.id, a.id, "rebuy", 3_000, "cash", LEVEL_2)
    assert a.chips == 23_000
    with pytest.raises(InvalidState) as exc:           # two at most
        registration.buy_chips(session, m, HOUSE, t.id, a.id, "rebuy", 0, "cash", LEVEL_2)
    assert exc.value.code == "no_rebuy_left"
    with pytest.raises(InvalidState) as exc:           # level 4: the rebuys are over
        registration.buy_chips(session, m, HOUSE, t.id, b.id, "rebuy", 0, "cash", LEVEL_4)
    assert exc.value.code == "rebuys_over"
    with pytest.raises(InvalidState) as exc:
        registration.buy_chips(session, m, HOUSE, t.id, b.id, "add_on", 10_000, "cash", LEVEL_2)
    assert exc.value.code == "add_on_not_yet"
    registration.buy_chips(session, m, HOUSE, t.id, b.id, "add_on", 10_000, "cash", LEVEL_4)
    assert b.chips == 40_000
    with pytest.raises(InvalidState) as exc:
        registration.buy_chips(session, m, HOUSE, t.id, b.id, "add_on", 10_000, "cash", LEVEL_4)
    assert exc.value.code == "add_on_taken"
    with pytest.raises(InvalidState) as exc:
        registration.buy_chips(session, m, HOUSE, t.id, c.id, "add_on", 10_000, "cash", LEVEL_5)
    assert exc.value.code == "add_on_over"

    assert ledger.balance(session, core.account(session, t, "prize_pool")) == 4 * 10_000 + 3 * 5_000
    assert ledger.balance(session, core.account(session, t, "fees")) == 4 * 1_500 + 2 * 500
    assert core.prize_pool(session, t) == 55_000
    assert [x.kind for x in core.purchases(session, t)] == ["rebuy", "rebuy", "add_on"]
    audited = [r.action for r in session.query(AuditRecord).filter(AuditRecord.action.in_(
        ("tournament.rebuy", "tournament.add_on"))).order_by(AuditRecord.id)]
    assert audited == ["tournament.rebuy", "tournament.rebuy", "tournament.add_on"]
    r = registration.receipt(session, t, a)
    assert [(x["kind"], x["price"], x["fee"]) for x in r["purchases"]] == [("rebuy", 5_000, 500)] * 2
    assert r["total_paid"] == 11_500 + 2 * 5_500
    money = results.money(session, t)
    assert (money["rebuys"], money["add_ons"], money["collected"], money["fees"]) == (2, 1, 55_000, 7_000)
    row = next(x for x in results.standings(session, t) if x.entry.id == a.id)
    assert (row.rebuys, row.add_ons, row.purchases_paid) == (2, 0, 11_000)
    assert "2,0,11000" in results.results_csv(session, t)
    fig = shift.figures(session, gaming_day(T0, HOUSE.timezone, HOUSE.gaming_day_rollover), HOUSE)
    (srow,) = fig["tournaments"]
    assert (srow["fees"], srow["collected"], srow["rebuys"], srow["house"]) == (7_000, 55_000, 3, 7_000)
    assert "Fees (house revenue)" in shift.to_csv(fig) and ",70.00," in shift.to_csv(fig)
    assert ledger.check(session).ok


def test_no_chips_are_sold_without_rebuys_in_the_structure_or_after_late_registration(session):
    m = manager(session)
    t = tournament(session, table_numbers=tables(session, (41,)))
    for p in players(session, 3):
        registration.register(session, m, HOUSE, t.id, p, "cash", T0)
    clock.start(session, m, t.id, T0)
    a = core.entries(session, t, "seated")[0]
    with pytest.raises(InvalidState) as exc:
        registration.buy_chips(session, m, HOUSE, t.id, a.id, "rebuy", 0, "cash", LEVEL_2)
    assert exc.value.code == "no_rebuys"
    assert not clock.state(session, t, LEVEL_2, 100)["rebuy_open"]


def test_a_cancellation_gives_each_player_left_the_fees_of_his_rebuys_too(session):
    m, t = _running(session, 3)
    a, b, c = core.entries(session, t, "seated")
    registration.buy_chips(session, m, HOUSE, t.id, a.id, "rebuy", 0, "cash", LEVEL_2)
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": c.id, "chips_at_start": 100}], [b.id], now=CLOSED)
    out = cancelled(session, m, HOUSE, t.id, "power cut", {a.id: 30_000, b.id: 30_000}, now=CLOSED)
    refunds = {s["entry_id"]: s["refund"] for s in out["shares"]}
    assert refunds == {a.id: 1_500 + 500, b.id: 1_500}
    assert sum(s["total"] for s in out["shares"]) == 3 * 10_000 + 5_000 + 1_500 + 500 + 1_500
    assert c.prize == 0
    for kind in ("prize_pool", "bounties"):
        assert ledger.balance(session, core.account(session, t, kind)) == 0
    assert ledger.check(session).ok


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(2, 7), rebuys=st.lists(st.integers(0, 6), max_size=8), add_ons=st.lists(st.integers(0, 6), max_size=4),
       guarantee=st.sampled_from([0, 100_000]))
def test_every_cent_paid_in_with_rebuys_comes_out_as_prizes_or_fees(session, n, rebuys, add_ons, guarantee):
    m, t = _running(session, n, guarantee=guarantee)
    seated = core.entries(session, t, "seated")
    for k in rebuys:
        e = seated[k % n]
        if sum(1 for p in core.purchases(session, t, e.id) if p.kind == "rebuy") < 2:
            registration.buy_chips(session, m, HOUSE, t.id, e.id, "rebuy", 0, "cash", LEVEL_2)
    for k in set(a % n for a in add_ons):
        registration.buy_chips(session, m, HOUSE, t.id, seated[k].id, "add_on", 1_000, "cash", LEVEL_4)
    paid_in = n * 11_500 + sum(p.price + p.fee for p in core.purchases(session, t))
    while t.status == "running":
        left = core.entries(session, t, "seated")
        eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": left[0].id, "chips_at_start": 100}], [left[1].id],
                          now=CLOSED)
    everyone = core.entries(session, t)
    overlay = -ledger.balance(session, core.account(session, t, "overlay"))
    assert sum(e.prize for e in everyone) == core.pool_collected(session, t) + overlay == max(
        core.pool_collected(session, t), guarantee)
    assert sum(e.prize for e in everyone) + ledger.balance(session, core.account(session, t, "fees")) == paid_in + overlay
    assert ledger.balance(session, core.account(session, t, "prize_pool")) == 0
    assert sorted(e.place for e in everyone) == list(range(1, n + 1))
    assert ledger.check(session).ok
