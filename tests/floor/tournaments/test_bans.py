"""A ban from the poker area made while a tournament runs: the player leaves it at once. Seated, he is
out as if alone on the next hand, his chips taken out of play, his place paid if in the money and the
bounty on his own head back to him; an alternate never seated is refunded. Audited, shown as banned."""
from __future__ import annotations

import json
from datetime import timedelta

from floor import ledger
from floor.models import AuditRecord, TournamentElimination
from floor.poker import conduct
from floor.tournaments import clock, core, eliminations, places, registration, results
from tests.floor.tournaments.helpers import HOUSE, T0, manager, players, tables, tournament

OPEN = T0 + timedelta(minutes=30)      # the turbo's late registration runs to minute 100
CLOSED = T0 + timedelta(minutes=101)


def _running(session, count, **values):
    m = manager(session)
    t = tournament(session, **values)
    for p in players(session, count):
        registration.register(session, m, HOUSE, t.id, p, "cash", T0)
    clock.start(session, m, t.id, T0)
    return m, t


def test_a_banned_player_leaves_the_running_tournament_his_chips_out_of_play(session):
    m, t = _running(session, 4, table_numbers=tables(session, (41,)), bounty_kind="knockout", bounty=2_000)
    a, b, c, d = sorted(core.entries(session, t, "seated"), key=lambda e: e.id)
    stack = core.structure(t).starting_stack
    eliminations.record_chips(session, m, t.id, {a.id: stack + 500, b.id: stack - 500, c.id: stack, d.id: stack})
    seat = a.seat
    pays = core.payouts(session, t, HOUSE.tournament_payout_unit)
    assert len(pays) < 4          # fourth place is out of the money here

    ban, freed = conduct.ban_player(session, m, HOUSE, a.player_id, "threatened the dealer",
                                    until=CLOSED + timedelta(hours=6), now=CLOSED)

    assert (a.status, a.seat, a.place, a.prize) == ("out", None, 4, 0)
    # nobody knocked him out: the bounty on his head is his again; nobody won his chips
    assert ledger.player_balance(session, a.player_id) == 2_000 and (a.bounty, a.bounties_won) == (0, 2_000)
    assert (b.chips, c.chips, d.chips) == (stack - 500, stack, stack)
    row = session.query(TournamentElimination).filter_by(entry_id=a.id).one()
    assert (row.ban_id, row.chips_removed, row.place, row.winners, row.seat) == (ban.id, stack + 500, 4, [], seat)
    state = clock.state(session, t, CLOSED, HOUSE.tournament_payout_unit)
    assert state["players_left"] == 3 and state["chips_in_play"] == 4 * stack - (stack + 500)
    assert state["counts_add_up"]
    assert [s.banned for s in results.standings(session, t) if s.entry.id == a.id] == [True]
    assert "banned" in results.results_csv(session, t).splitlines()[-1]
    audit = session.query(AuditRecord).filter_by(action="tournament.banned").one()
    assert json.loads(audit.after)["entry_id"] == a.id and json.loads(audit.after)["chips_removed"] == stack + 500
    assert audit.actor == m.name
    # the rest play on to the end: every bounty paid, the ledger adds up
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": b.id, "chips_at_start": stack - 500}], [c.id], now=CLOSED)
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": c.id, "chips_at_start": 2 * stack - 500}], [d.id], now=CLOSED)
    assert t.status == "finished" and d.place == 1
    assert ledger.balance(session, core.account(session, t, "bounties")) == 0
    assert ledger.balance(session, core.account(session, t, "prize_pool")) == 0
    assert ledger.check(session).ok


def test_in_the_money_his_place_is_paid_and_late_registration_places_him_when_it_closes(session):
    m, t = _running(session, 12, table_numbers=tables(session, (41, 42)))
    seated = core.entries(session, t, "seated")
    banned = seated[0]
    # late registration open: out without a place, like any player out then
    conduct.ban_player(session, m, HOUSE, banned.player_id, "abuse", until=OPEN + timedelta(hours=6), now=OPEN)
    assert (banned.status, banned.place) == ("out", None)
    places.close_late_registration(session, m, HOUSE, t.id, OPEN + timedelta(minutes=1))
    assert banned.place == 12
    # once the field is known, a player banned in the money is paid his place
    pays = core.payouts(session, t, HOUSE.tournament_payout_unit)
    left = core.entries(session, t, "seated")
    while len(left) > len(pays):
        out = left[-1]
        winner = next(e for e in left if e.table_id == out.table_id and e.id != out.id)
        eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": out.id, "chips_at_start": 1_000}], [winner.id],
                          now=CLOSED)
        left = core.entries(session, t, "seated")
    paid = left[0]
    before = ledger.player_balance(session, paid.player_id)
    conduct.ban_player(session, m, HOUSE, paid.player_id, "abuse", until=CLOSED + timedelta(hours=6), now=CLOSED)
    assert (paid.status, paid.place, paid.prize) == ("out", len(pays), pays[-1])
    assert ledger.player_balance(session, paid.player_id) == before + pays[-1]
    assert ledger.check(session).ok


def test_an_alternate_waiting_for_a_seat_is_refunded_and_a_third_warning_does_the_same(session):
    m, t = _running(session, 10, table_numbers=tables(session, (41,)))
    late = players(session, 11)[-1]
    alt = registration.register(session, m, HOUSE, t.id, late, "cash", OPEN)
    assert alt.status == "alternate"
    cage_before = ledger.balance(session, ledger.cage_account(session))
    for _ in range(HOUSE.warnings_to_ban):
        conduct.give_warning(session, m, late, "electronic_device", HOUSE, now=OPEN)
    assert alt.status == "refunded"
    assert ledger.balance(session, ledger.cage_account(session)) == cage_before + t.buy_in + t.fee
    assert json.loads(session.query(AuditRecord).filter_by(action="tournament.banned").one().after)["refunded"] \
        == t.buy_in + t.fee
    # a ban from the live games only leaves his tournament alone
    other = core.entries(session, t, "seated")[0]
    conduct.ban(session, m, other.player_id, "live games only", OPEN + timedelta(hours=1), scope="live_games",
                now=OPEN, house=HOUSE)
    assert other.status == "seated"
    assert ledger.check(session).ok
