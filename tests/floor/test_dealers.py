"""Dealer rotation with a controlled clock: clock in, take a table, the plan of who relieves whom
and when (60 on, 20 off), the handover, rounds attributed to the dealer who dealt them, and the
refusals; on both databases."""
from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from floor import dealers, rounds
from floor.errors import BadInput, Conflict
from floor.models import DealerStint, Round, Staff
from floor.settings import HouseSettings
from tests.floor.rounds.helpers import DEALER, HOUSE, PIT, T0, tid

M = timedelta(minutes=1)
TWO = HouseSettings(rotation_tables="10,12")


def _staff(session, username):
    return session.execute(select(Staff.id).where(Staff.username == username)).scalar_one()


def test_the_rotation_plan_and_the_handover(session):
    dan, dora = _staff(session, "dealer"), _staff(session, "dealer2")
    bacc, wheel = tid(session, 10), tid(session, 12)
    dealers.clock_in(session, PIT, dan, T0)
    dealers.clock_in(session, PIT, dora, T0)
    dealers.take_table(session, PIT, dan, bacc, T0)
    session.commit()
    b = dealers.board(session, TWO, T0 + 10 * M)
    rows = {r.table: r for r in b.tables}
    assert [r.table for r in b.tables] == [10, 12]
    assert rows[10].dealer == "Dan Dealer" and rows[10].due_at.isoformat() == (T0 + 60 * M).isoformat()
    # table 12 has nobody: Dora (clocked in, resting) goes there first
    assert rows[12].dealer is None and rows[12].incoming == "Dora Dealer"
    assert rows[10].incoming is None
    dealers.take_table(session, PIT, dora, wheel, T0 + 12 * M)
    session.commit()
    # the wheel's round is Dora's, the baccarat's Dan's
    r = rounds.open_betting(session, DEALER, wheel, T0 + 13 * M, house=HOUSE)
    assert r.dealer_id == dora
    rounds.new_shoe(session, DEALER, bacc, T0 + 13 * M, house=HOUSE)
    assert rounds.open_betting(session, DEALER, bacc, T0 + 14 * M, house=HOUSE).dealer_id == dan
    session.commit()
    # nobody rests: no relief planned; Dan breaks first (due at 60), then Dora (due at 72)
    b = dealers.board(session, TWO, T0 + 50 * M)
    assert [(n.table, n.dealer) for n in b.next_break] == [(10, "Dan Dealer"), (12, "Dora Dealer")]
    assert all(r.incoming is None for r in b.tables) and b.breaks == []
    # a third dealer clocks in: he relieves Dan at 60 (due first), being fresh
    dealers.clock_in(session, PIT, _staff(session, "dealer3"), T0 + 55 * M)
    session.commit()
    b = dealers.board(session, TWO, T0 + 56 * M)
    rows = {r.table: r for r in b.tables}
    assert rows[10].incoming == "Dino Dealer" and rows[10].relief_at.isoformat() == (T0 + 60 * M).isoformat()
    # the handover: Dino takes table 10, Dan goes on his break, ready 20 minutes later
    dealers.take_table(session, PIT, _staff(session, "dealer3"), bacc, T0 + 61 * M, how="login")
    session.commit()
    b = dealers.board(session, TWO, T0 + 62 * M)
    assert [(x.dealer, x.ready_at.isoformat()) for x in b.breaks] == [("Dan Dealer", (T0 + 81 * M).isoformat())]
    # Dora is due at 72; Dan relieves her once rested, at 81
    rows = {r.table: r for r in b.tables}
    assert rows[12].incoming == "Dan Dealer" and rows[12].relief_at.isoformat() == (T0 + 81 * M).isoformat()
    assert dealers.current_dealer(session, bacc) == _staff(session, "dealer3")
    history = session.execute(select(DealerStint.table_id, DealerStint.how).where(DealerStint.staff_id == dan)
                              .order_by(DealerStint.id)).all()
    assert history == [(None, "clock_in"), (bacc, "relief"), (None, "break")]


def test_clocking_refusals(session):
    dan, bacc = _staff(session, "dealer"), tid(session, 10)
    with pytest.raises(Conflict) as not_in:
        dealers.clock_out(session, PIT, dan, T0)
    assert not_in.value.code == "not_clocked_in"
    dealers.take_table(session, PIT, dan, bacc, T0)          # logging in at a table clocks him in
    session.commit()
    with pytest.raises(Conflict) as twice:
        dealers.clock_in(session, PIT, dan, T0 + M)
    assert twice.value.code == "clocked_in"
    with pytest.raises(Conflict) as at_table:
        dealers.clock_out(session, PIT, dan, T0 + M)
    assert at_table.value.code == "at_a_table"
    dealers.go_on_break(session, PIT, dan, T0 + 2 * M)
    assert dealers.current_dealer(session, bacc) is None
    dealers.clock_out(session, PIT, dan, T0 + 3 * M)
    session.commit()
    with pytest.raises(BadInput):
        dealers.clock_in(session, PIT, _staff(session, "pitboss"), T0)
    assert session.execute(select(Round.id).where(Round.dealer_id == dan)).first() is None


FOUR = HouseSettings(rotation_tables="10,12,14,15")


def _open_together(session, spares: int):
    """Four tables opened at once at T0, each by a dealer clocked in; ``spares`` more clocked in, resting."""
    names = ["dealer", "dealer2", "dealer3", "dealer4", "dealer5"]
    ids = [_staff(session, n) for n in names[:4 + spares]]
    for d in ids:
        dealers.clock_in(session, PIT, d, T0)
    for d, number in zip(ids, (10, 12, 14, 15)):
        dealers.take_table(session, PIT, d, tid(session, number), T0)
    session.commit()
    return ids


def test_tables_opened_together_get_staggered_first_breaks_and_no_stint_passes_the_maximum(session):
    """Four tables and one spare dealer at 60 on, 20 off: all due at 60 would relieve them at 60, 80,
    100 and 120 minutes. Staggered, they are due at 15, 30, 45, 60 and relieved at 15, 35, 55, 75 as
    each relieved dealer is rested in time: none past the house's maximum of 80."""
    _open_together(session, spares=1)
    b = dealers.board(session, FOUR, T0 + M)
    rows = {r.table: r for r in b.tables}
    assert [(rows[n].due_at - T0) // M for n in (10, 12, 14, 15)] == [15, 30, 45, 60]
    assert [(rows[n].relief_at - T0) // M for n in (10, 12, 14, 15)] == [15, 35, 55, 75]
    assert rows[10].incoming == "Dario Dealer" and rows[12].incoming == rows[10].dealer   # the relay
    assert b.over_max == [] and not any(r.over_max for r in b.tables)
    # two tables in the rotation, one spare: one break apart, the last at 60; one table: nothing to stagger
    assert [(r.due_at - T0) // M for r in dealers.board(session, HouseSettings(rotation_tables="10,12"), T0 + M).tables] \
        == [40, 60]
    assert [(r.due_at - T0) // M for r in dealers.board(session, HouseSettings(rotation_tables="10"), T0 + M).tables] \
        == [60]


def test_a_stint_past_the_houses_maximum_is_flagged(session):
    """No spare dealer: nobody can relieve anybody; at 81 minutes every table is past the maximum of
    80 (and a stricter house of 45 flags them from 46 minutes)."""
    _open_together(session, spares=0)
    assert dealers.board(session, FOUR, T0 + 79 * M).over_max == []
    assert dealers.board(session, FOUR, T0 + 81 * M).over_max == [10, 12, 14, 15]
    strict = HouseSettings(rotation_tables="10,12,14,15", rotation_max_on_minutes=45)
    assert dealers.board(session, strict, T0 + 46 * M).over_max == [10, 12, 14, 15]
