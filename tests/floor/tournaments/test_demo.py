"""The demo floor's tournament is in late registration, its clock running, its seats drawn."""
from __future__ import annotations

from datetime import timedelta

from floor import demo, ledger, timers
from floor.models import Tournament
from floor.tournaments import clock, core, registration
from tests.floor.tournaments.helpers import HOUSE, T0


def test_the_demo_tournament_takes_late_entries(session):
    demo.load_demo_tournament(session, HOUSE, now=T0)
    t = session.query(Tournament).one()
    state = clock.state(session, t, T0, HOUSE.tournament_payout_unit)
    assert (t.status, state["level"], state["late_registration_open"], state["players_left"]) == ("running", 2, True, 20)
    assert sorted(len(r) for r in core.layout(session, t).values()) == [10, 10]
    assert timers.pending(session, clock.timer_key(t)).due_at == T0 + timedelta(minutes=5)
    late = registration.register(session, demo.Actor.system("test"), HOUSE, t.id, 21, "cash", T0)
    assert late.status == "seated" and late.table.number == 21
    assert ledger.check(session).ok
