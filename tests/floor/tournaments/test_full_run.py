"""A 30-player, three-table tournament from registration to a deal at four, on both databases:
late registration, re-entries, two out on one hand, balancing, a table broken, the final table.
Every payout is checked against the pure rules and the ledger balances at every step."""
from __future__ import annotations

from datetime import timedelta

import pytest

from floor import ledger
from floor.games import tournament as rules
from floor.models import TournamentDraw, TournamentElimination, TournamentMove
from floor.tournaments import clock, core, deals, eliminations, registration
from tests.floor.tournaments.helpers import HOUSE, T0, manager, players, tournament, approve_deal


def _table_counts(session, t):
    return sorted(len(row) for row in core.layout(session, t).values())


def _bust(session, m, t, entry, winner, at, chips=1_000):
    return eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": entry.id, "chips_at_start": chips}],
                             [winner.id], now=at)


def _tablemate(session, t, e):
    return next(x for x in core.entries(session, t, "seated") if x.table_id == e.table_id and x.id != e.id)


@pytest.mark.slow
def test_thirty_players_three_tables_to_a_deal_at_four(session):
    m = manager(session)
    t = tournament(session, bounty_kind="knockout", bounty=2_000, max_reentries=1, guarantee=300_000)
    ids = players(session, 30)
    for p in ids[:27]:
        registration.register(session, m, HOUSE, t.id, p, "cash", T0 - timedelta(minutes=30))
    clock.start(session, m, t.id, T0)
    assert _table_counts(session, t) == [9, 9, 9]

    # late registration: three more players, one per table (each joins one of the shortest tables)
    at = T0 + timedelta(minutes=10)
    for p in ids[27:]:
        e = registration.register(session, m, HOUSE, t.id, p, "cash", at)
        assert e.status == "seated"
    assert _table_counts(session, t) == [10, 10, 10]
    assert {d.kind for d in session.query(TournamentDraw).filter_by(tournament_id=t.id)} == {"seat_draw", "late_seat"}

    # two re-entries after busts during late registration
    at = T0 + timedelta(minutes=20)
    reentered, first_out = [], []
    for k in range(2):
        victim = core.entries(session, t, "seated")[k * 7]
        _bust(session, m, t, victim, _tablemate(session, t, victim), at)
        assert victim.place is None      # the field still grows: placed when late registration closes
        first_out.append(victim)
        again = registration.register(session, m, HOUSE, t.id, victim.player_id, "cash", at)
        reentered.append(again)
        assert again.number == 2 and again.status == "seated"
    assert core.entries_count(session, t) == 32
    assert ledger.check(session).ok

    # late registration closes after level 6 and its break (100 minutes)
    at = T0 + timedelta(minutes=101)
    assert not clock.reading(session, t, at).late_registration_open
    paid = core.payouts(session, t, HOUSE.tournament_payout_unit)
    assert paid == rules.payouts(rules.prize_pool(32 * 10_000, 300_000), 32, rules.STANDARD_PAYOUTS, unit=100)
    assert len(paid) == 7      # 26-40 entries pay seven places

    # two out on one hand at the same table: the one with more chips at the start finishes higher
    a = core.entries(session, t, "seated")[0]
    b = _tablemate(session, t, a)
    w = next(x for x in core.entries(session, t, "seated") if x.table_id == a.table_id and x.id not in (a.id, b.id))
    left = len(core.entries(session, t, "seated"))
    out = eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": a.id, "chips_at_start": 8_000},
                                                       {"entry_id": b.id, "chips_at_start": 12_000}], [w.id], now=at)
    assert (a.place, b.place) == (left, left - 1)
    assert [e.place for e in first_out] == [32, 31]   # the first out finishes last
    assert w.bounties_won == 4_000 and a.bounty == b.bounty == 0
    assert {e.hand for e in out["eliminations"]} == {out["hand"]}

    # bust players one by one (the first seated player of the fullest table) until 4 are left
    broken_seen = final_seen = False
    while len(core.entries(session, t, "seated")) > 4:
        at += timedelta(minutes=3)
        layout = core.layout(session, t)
        biggest = max(layout, key=lambda n: (len(layout[n]), n))
        seat = min(layout[biggest])
        victim = core.entry(session, t, layout[biggest][seat])
        before = len(core.entries(session, t, "seated"))
        res = _bust(session, m, t, victim, _tablemate(session, t, victim), at)
        assert victim.place == before
        pays = core.payouts(session, t, 100)
        assert victim.prize == (pays[victim.place - 1] if victim.place <= len(pays) else 0)
        counts = _table_counts(session, t)
        assert max(counts) - min(counts) <= 1
        broken_seen |= any(mv.reason == "break" for mv in res["moves"])
        final_seen |= any(mv.reason == "final_table" for mv in res["moves"])
        for mv in res["moves"]:
            assert core.entry(session, t, mv.entry_id).table_id == mv.to_table_id
        assert ledger.check(session).ok
    assert broken_seen and final_seen
    assert len(core.layout(session, t)) == 1 and 43 in core.layout(session, t)
    moves = session.query(TournamentMove).filter_by(tournament_id=t.id).all()
    redo = session.query(TournamentDraw).filter_by(tournament_id=t.id, kind="tables").first()
    assert redo.result["moves"] and moves

    # a deal at four by ICM: the amounts are the pure function's, paid when the last one agrees
    four = core.entries(session, t, "seated")
    stacks = {e.id: s for e, s in zip(four, (250_000, 180_000, 120_000, 90_000))}
    d = deals.offer(session, m, HOUSE, t.id, "icm", stacks, now=at)
    prizes = list(core.payouts(session, t, 100)[:4])
    assert d.amounts == rules.icm([stacks[i] for i in d.entry_ids], prizes)
    assert sum(d.amounts) == sum(prizes)
    pool_before = ledger.balance(session, core.account(session, t, "prize_pool"))
    for e in four[:3]:
        deals.agree(session, m, HOUSE, t.id, d.id, e.id, now=at)
    assert t.status == "running" and d.status == "offered"
    deals.agree(session, m, HOUSE, t.id, d.id, four[3].id, now=at)
    # everyone agreed: nothing is paid until a second person approves (not the one who recorded it all)
    assert t.status == "running" and d.status == "agreed"
    assert ledger.balance(session, core.account(session, t, "prize_pool")) == pool_before
    approve_deal(session, t, d, now=at)
    assert t.status == "finished" and d.status == "paid"
    assert pool_before - sum(d.amounts) == 0
    assert sorted(e.place for e in four) == [1, 2, 3, 4]
    assert next(e for e in four if e.place == 1).id == four[0].id   # the biggest stack places first

    # the money: nothing left in the pool or the bounties, the house added the overlay, kept the fees
    assert ledger.balance(session, core.account(session, t, "prize_pool")) == 0
    assert ledger.balance(session, core.account(session, t, "bounties")) == 0
    assert ledger.balance(session, core.account(session, t, "fees")) == 32 * 1_500
    assert ledger.balance(session, core.account(session, t, "overlay")) == 0    # 320 000 collected, above the guarantee
    everyone = core.entries(session, t)
    assert sum(e.prize for e in everyone) == rules.prize_pool(320_000, 300_000)
    assert sum(e.bounties_won for e in everyone) == 32 * 2_000
    assert session.query(TournamentElimination).filter_by(tournament_id=t.id).count() == 28
    assert ledger.check(session).ok
