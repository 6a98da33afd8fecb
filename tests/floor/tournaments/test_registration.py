"""Registration through the ledger, alternates, re-entries, the recorded seat draw, the clock."""
from __future__ import annotations

from datetime import timedelta

import pytest

from floor import jobs, ledger, timers
from floor.errors import BadInput, Conflict, InvalidState
from floor.games import tournament as rules
from floor.models import AuditRecord, TournamentDraw
from floor.tournaments import clock, core, registration, setup
from floor.tournaments import jobs as _jobs  # noqa: F401  (registers the clock's job)
from tests.floor.poker_helpers import fill, table
from tests.floor.tournaments.helpers import HOUSE, T0, manager, players, tables, tournament
from tests.money import cash_in


def test_an_entry_pays_buy_in_fee_and_bounty_into_their_own_accounts(session):
    t = tournament(session, bounty_kind="knockout", bounty=2_500)
    m = manager(session)
    cage_before = ledger.balance(session, ledger.cage_account(session))
    p1, p2 = players(session, 2)
    cash_in(session, p2, 20_000, house=HOUSE)
    registration.register(session, m, HOUSE, t.id, p1, "cash", T0)
    e2 = registration.register(session, m, HOUSE, t.id, p2, "balance", T0)
    assert ledger.balance(session, core.account(session, t, "prize_pool")) == 20_000
    assert ledger.balance(session, core.account(session, t, "fees")) == 3_000
    assert ledger.balance(session, core.account(session, t, "bounties")) == 5_000
    assert ledger.player_balance(session, p2) == 20_000 - 14_000
    # cash at the desk comes in through the cage, like a deposit (the cage holds minus what is out)
    assert ledger.balance(session, ledger.cage_account(session)) == cage_before - 20_000 - 14_000
    assert e2.bounty == 2_500 and e2.status == "registered"
    assert ledger.check(session).ok
    with pytest.raises(Conflict) as exc:
        registration.register(session, m, HOUSE, t.id, p1, "cash", T0)
    assert exc.value.code == "already_registered"


def test_without_money_on_his_balance_nothing_is_registered(session):
    t = tournament(session)
    (p,) = players(session, 1)
    with pytest.raises(ledger.InsufficientBalance):
        registration.register(session, manager(session), HOUSE, t.id, p, "balance", T0)


def test_beyond_the_seats_players_are_alternates_and_move_up_when_someone_unregisters(session):
    t = tournament(session, table_numbers=tables(session, (41,)), seats_per_table=2, final_table_size=2)
    m = manager(session)
    entries = [registration.register(session, m, HOUSE, t.id, p, "cash", T0) for p in players(session, 3)]
    assert [e.status for e in entries] == ["registered", "registered", "alternate"]
    registration.unregister(session, m, t.id, entries[0].id, T0)
    assert [e.status for e in entries] == ["refunded", "registered", "registered"]
    assert ledger.balance(session, core.account(session, t, "prize_pool")) == 2 * t.buy_in


def test_the_seat_draw_is_recorded_and_redone_from_its_seed(session):
    t = tournament(session)
    m = manager(session)
    for p in players(session, 23):
        registration.register(session, m, HOUSE, t.id, p, "cash", T0)
    clock.start(session, m, t.id, T0)
    d = session.query(TournamentDraw).filter_by(tournament_id=t.id, kind="seat_draw").one()
    seated = core.entries(session, t, "seated")
    assert len(seated) == 23
    again = rules.draw_seats(rules.Draw(d.seed_hex, d.label), [e.id for e in seated],
                             {n: range(1, 11) for n in (41, 42, 43)})
    assert {(s.player, s.table, s.seat) for s in again.seats} == {(e.id, e.table.number, e.seat) for e in seated}
    counts = sorted(sum(1 for e in seated if e.table.number == n) for n in (41, 42, 43))
    assert counts == [7, 8, 8]
    assert {b["table"]: b["seat"] for b in d.result["buttons"]} == {b.table: b.button_seat for b in again.buttons}
    assert all(e.chips == 20_000 for e in seated)


def test_a_late_entry_gets_a_drawn_seat_at_a_short_table_and_a_re_entry_after_a_bust(session):
    from floor.tournaments import eliminations
    t = tournament(session, max_reentries=1)
    m = manager(session)
    ids = players(session, 21)
    for p in ids[:20]:
        registration.register(session, m, HOUSE, t.id, p, "cash", T0)
    clock.start(session, m, t.id, T0)
    late = registration.register(session, m, HOUSE, t.id, ids[20], "cash", T0 + timedelta(minutes=20))
    assert late.status == "seated" and late.chips == 20_000
    receipt = registration.receipt(session, t, late)
    assert receipt["seat"] == late.seat and receipt["total"] == 11_500 and receipt["draw"]["label"].endswith("late-seat:%d" % late.id)
    victim = next(e for e in core.entries(session, t, "seated") if e.id != late.id)
    winner = next(e for e in core.entries(session, t, "seated") if e.table_id == victim.table_id and e.id != victim.id)
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": victim.id, "chips_at_start": 5_000}], [winner.id],
                      now=T0 + timedelta(minutes=25))
    # 20 players left: the lone late table broke, the two others are full, so the re-entry waits
    assert [tt.broken_at is not None for tt in core.tables(session, t)] == [True, False, False]
    again = registration.register(session, m, HOUSE, t.id, victim.player_id, "cash", T0 + timedelta(minutes=26))
    assert again.number == 2 and again.status == "alternate" and again.seat is None
    other = next(e for e in core.entries(session, t, "seated") if e.id != winner.id)
    mate = next(e for e in core.entries(session, t, "seated") if e.table_id == other.table_id and e.id != other.id)
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": other.id, "chips_at_start": 5_000}], [mate.id],
                      now=T0 + timedelta(minutes=26))
    assert again.status == "seated" and again.table_id == other.table_id and again.chips == 20_000
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": again.id, "chips_at_start": 5_000}], [winner.id],
                      now=T0 + timedelta(minutes=27))
    with pytest.raises(Conflict) as exc:
        registration.register(session, m, HOUSE, t.id, victim.player_id, "cash", T0 + timedelta(minutes=28))
    assert exc.value.code == "no_reentry"
    assert core.entries_count(session, t) == 22
    # late registration ends with level 6 and the break after it (6 x 15 + 10 minutes)
    with pytest.raises(InvalidState) as exc:
        registration.register(session, m, HOUSE, t.id, players(session, 30)[29], "cash", T0 + timedelta(minutes=101))
    assert exc.value.code == "registration_closed"


def test_levels_advance_by_the_timer_and_a_pause_stops_the_clock(session):
    t = tournament(session)
    m = manager(session)
    for p in players(session, 4):
        registration.register(session, m, HOUSE, t.id, p, "cash", T0)
    clock.start(session, m, t.id, T0)
    timer = timers.pending(session, clock.timer_key(t))
    assert timer.due_at == T0 + timedelta(minutes=15) and timer.job == clock.JOB
    jobs.JOBS[timer.job](session, HOUSE, *timer.args, now=timer.due_at)
    assert t.step_index == 1
    assert clock.state(session, t, timer.due_at, 100)["big_blind"] == 300
    clock.pause(session, m, t.id, "card room power cut", T0 + timedelta(minutes=20))
    assert timers.pending(session, clock.timer_key(t)) is None
    s = clock.state(session, t, T0 + timedelta(minutes=50), 100)
    assert s["paused"] and s["pause_reason"] == "card room power cut" and s["seconds_left"] == 10 * 60
    clock.resume(session, m, t.id, T0 + timedelta(minutes=50))
    assert timers.pending(session, clock.timer_key(t)).due_at == T0 + timedelta(minutes=60)
    with pytest.raises(InvalidState):
        clock.resume(session, m, t.id, T0 + timedelta(minutes=51))
    with pytest.raises(BadInput):
        clock.pause(session, m, t.id, "  ", T0 + timedelta(minutes=51))
    # a repeated timer finds the step announced and changes nothing
    assert clock.tick(session, t.id, T0 + timedelta(minutes=51)) is False
    assert session.query(AuditRecord).filter_by(action="tournament.pause").count() == 1


def test_a_template_makes_the_weekly_event_in_two_taps(session):
    m = manager(session)
    tpl = setup.save_template(session, m, HOUSE, "Friday Deep Stack", {
        "name": "Friday Deep Stack", "game_id": 1, "buy_in": 20_000, "fee": 3_000, "structure": "weekly_deep_stack",
        "max_reentries": 1, "guarantee": 500_000, "seats_per_table": 10, "table_numbers": tables(session)})
    t = setup.from_template(session, m, HOUSE, tpl.id, T0 + timedelta(days=7))
    assert (t.name, t.buy_in, t.guarantee, t.template_id) == ("Friday Deep Stack", 20_000, 500_000, tpl.id)
    assert [tt.table.number for tt in core.tables(session, t)] == [41, 42, 43]
    with pytest.raises(Conflict):
        setup.save_template(session, m, HOUSE, "Friday Deep Stack", {"name": "x", "game_id": 1, "buy_in": 1})


@pytest.mark.parametrize("bad, field", [
    ({"buy_in": -5}, "buy_in"), ({"buy_in": 0}, "buy_in"), ({"bounty_kind": "knockout"}, "bounty"),
    ({"game_id": 3}, "game_id"), ({"seats_per_table": 1}, "seats_per_table"), ({"name": ""}, "name"),
    ({"structure": "no such"}, "structure"), ({"table_numbers": [41, 41]}, "table_numbers"),
    ({"payout_table": [[2, None, [60, 50]]]}, "payout_table"),
])
def test_bad_set_up_names_its_field(session, bad, field):
    with pytest.raises(BadInput) as exc:
        tournament(session, **bad)
    assert field in (exc.value.field or "")


def test_a_table_with_cash_game_players_cannot_host_the_start(session):
    t = tournament(session, table_numbers=[1], seats_per_table=9, final_table_size=9)
    m = manager(session)
    for p in players(session, 4):
        registration.register(session, m, HOUSE, t.id, p, "cash", T0)
    fill(session, table(session, 1), [20, 21], T0)
    with pytest.raises(InvalidState) as exc:
        clock.start(session, m, t.id, T0)
    assert exc.value.code == "table_in_use"
