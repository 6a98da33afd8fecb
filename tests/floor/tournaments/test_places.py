"""Places while late registration is open and once it closes: the director's close, the clock's close
at its level, the last player in winning, everyone placed and paid to the cent."""
from __future__ import annotations

from datetime import timedelta

import pytest

from floor import jobs, ledger, timers
from floor.errors import InvalidState
from floor.models import AuditRecord, TournamentElimination
from floor.tournaments import clock, core, eliminations, places, registration, results
from tests.floor.tournaments.helpers import HOUSE, T0, manager, players, tournament

OPEN = T0 + timedelta(minutes=30)      # the turbo's late registration runs to minute 100


def _running(session, count, **values):
    m = manager(session)
    t = tournament(session, **values)
    for p in players(session, count):
        registration.register(session, m, HOUSE, t.id, p, "cash", T0)
    clock.start(session, m, t.id, T0)
    return m, t


def _bust_down_to(session, m, t, left, at):
    """Players out one a hand, each knocked out by a player at his own table, until ``left`` remain."""
    while len(core.entries(session, t, *core.IN_PLAY)) > left:
        seated = core.entries(session, t, "seated")
        out = seated[-1]
        winner = next(e for e in seated if e.table_id == out.table_id and e.id != out.id)
        eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": out.id, "chips_at_start": 1_000}], [winner.id], now=at)
        session.flush()


def _paid_prizes(session, t):
    return sum(e.prize for e in core.entries(session, t))


def test_the_director_closes_late_registration_and_everyone_out_is_placed_and_paid(session):
    m, t = _running(session, 30)
    _bust_down_to(session, m, t, 7, OPEN)
    # late registration open: 23 out, nobody placed, the tournament still takes entries
    assert [e.place for e in core.entries(session, t, "out")] == [None] * 23
    assert clock.late_open(session, t, OPEN)
    places.close_late_registration(session, m, HOUSE, t.id, OPEN + timedelta(minutes=1))
    assert not clock.late_open(session, t, OPEN + timedelta(minutes=1))
    out = core.entries(session, t, "out")
    # the first out finishes last: places 30 down to 8, each once
    assert sorted(e.place for e in out) == list(range(8, 31))
    first_out = min(out, key=lambda e: (e.out_at, -e.place))
    assert first_out.place == 30
    with pytest.raises(InvalidState) as exc:
        places.close_late_registration(session, m, HOUSE, t.id, OPEN + timedelta(minutes=2))
    assert exc.value.code == "registration_closed"
    assert session.query(AuditRecord).filter_by(action="tournament.registration_closed").count() == 1
    # from now on each player out is placed as he goes, and the last one in wins: 30 places, all paid
    _bust_down_to(session, m, t, 1, OPEN + timedelta(minutes=5))
    assert t.status == "finished"
    every = core.entries(session, t)
    assert sorted(e.place for e in every) == list(range(1, 31))
    pays = core.payouts(session, t, HOUSE.tournament_payout_unit)
    assert [e.prize for e in sorted(every, key=lambda e: e.place)][:len(pays)] == list(pays)
    assert _paid_prizes(session, t) == core.prize_pool(session, t)
    assert ledger.balance(session, core.account(session, t, "prize_pool")) == 0
    places_column = [line.split(",")[0] for line in results.results_csv(session, t).splitlines()[1:]]
    assert sorted(int(p) for p in places_column) == list(range(1, 31))


def test_one_player_left_when_the_director_closes_wins_and_the_places_in_the_money_are_paid(session):
    m, t = _running(session, 12)
    _bust_down_to(session, m, t, 1, OPEN)
    assert t.status == "running"          # one left, but the field may still grow
    pays = core.payouts(session, t, HOUSE.tournament_payout_unit)
    assert len(pays) >= 2
    places.close_late_registration(session, m, HOUSE, t.id, OPEN + timedelta(minutes=1))
    assert t.status == "finished"
    winner = next(e for e in core.entries(session, t) if e.place == 1)
    assert winner.status == "finished" and winner.prize == pays[0]
    by_place = sorted(core.entries(session, t), key=lambda e: e.place)
    assert [e.prize for e in by_place[:len(pays)]] == list(pays)
    # the elimination rows say what was paid, for the results and the audit
    rows = {r.entry_id: r for r in session.query(TournamentElimination).filter_by(tournament_id=t.id)}
    assert all(rows[e.id].prize == e.prize for e in by_place[1:])
    assert ledger.balance(session, core.account(session, t, "prize_pool")) == 0
    assert timers.pending(session, clock.timer_key(t)) is None


def test_the_clock_closes_late_registration_at_its_level_and_the_field_is_placed(session):
    m, t = _running(session, 10)
    _bust_down_to(session, m, t, 1, OPEN)
    assert t.status == "running"
    # the timers run to the end of late registration (level 6 and the break after it)
    while t.status == "running":
        timer = timers.pending(session, clock.timer_key(t))
        assert timer is not None, "the clock stopped before late registration closed"
        jobs.JOBS[timer.job](session, HOUSE, *timer.args, now=timer.due_at)
        session.flush()
    assert t.status == "finished"
    assert sorted(e.place for e in core.entries(session, t)) == list(range(1, 11))
    assert _paid_prizes(session, t) == core.prize_pool(session, t)


def test_closing_is_for_the_floor_of_a_running_tournament(session):
    m = manager(session)
    t = tournament(session)
    with pytest.raises(InvalidState):
        places.close_late_registration(session, m, HOUSE, t.id, T0)
