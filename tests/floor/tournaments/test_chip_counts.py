"""Chip counts per table: kept on the players, shown, the clock's average from the chips in play, a
count that does not add up flagged, a table's count that leaves a player out refused."""
from __future__ import annotations

from datetime import timedelta

import pytest

from floor.errors import BadInput
from floor.tournaments import clock, core, eliminations, registration
from tests.floor.tournaments.helpers import HOUSE, T0, manager, players, tournament

AT = T0 + timedelta(minutes=30)


def _running(session, count):
    m = manager(session)
    t = tournament(session)
    for p in players(session, count):
        registration.register(session, m, HOUSE, t.id, p, "cash", T0)
    clock.start(session, m, t.id, T0)
    return m, t


def test_the_average_is_the_chips_in_play_over_the_players_left_whatever_was_counted(session):
    m, t = _running(session, 30)
    stack = core.structure(t).starting_stack
    while len(core.entries(session, t, "seated")) > 7:
        seated = core.entries(session, t, "seated")
        out = seated[-1]
        winner = next(e for e in seated if e.table_id == out.table_id and e.id != out.id)
        eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": out.id, "chips_at_start": stack}], [winner.id], now=AT)
    s = clock.state(session, t, AT, 100)
    assert s["players_left"] == 7
    assert s["chips_in_play"] == 30 * stack
    assert s["average_stack"] == 30 * stack // 7          # 600,000 / 7 = 85,714 with the turbo's 20,000
    # the chips of each player out went to the pot's winner on record: the counts still add up
    assert s["counts_add_up"] is True and s["chips_counted"] == 30 * stack


def test_a_table_counted_is_kept_and_the_counts_adding_up_clear_the_flag(session):
    m, t = _running(session, 12)
    stack = core.structure(t).starting_stack
    seated = core.entries(session, t, "seated")
    out = seated[0]
    table = out.table.number
    mates = [e for e in seated if e.table_id == out.table_id and e.id != out.id]
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": out.id, "chips_at_start": stack}], [mates[0].id], now=AT)
    assert mates[0].chips == 2 * stack and clock.state(session, t, AT, 100)["counts_add_up"] is True
    # a count of that table naming only some of its players is refused and keeps nothing
    with pytest.raises(BadInput) as exc:
        eliminations.record_chips(session, m, t.id, {mates[0].id: 2 * stack}, table_number=table)
    assert exc.value.field == "stacks"
    assert mates[0].chips == 2 * stack
    # the whole table: the winner has the chips of the player out; one count off by 500 is flagged
    counts = {e.id: stack for e in mates} | {mates[0].id: 2 * stack - 500}
    eliminations.record_chips(session, m, t.id, counts, table_number=table)
    s = clock.state(session, t, AT, 100)
    assert mates[0].chips == 2 * stack - 500
    assert (s["counts_add_up"], s["chips_in_play"] - s["chips_counted"]) == (False, 500)
    eliminations.record_chips(session, m, t.id, {mates[0].id: 2 * stack}, table_number=None)
    s = clock.state(session, t, AT, 100)
    assert s["counts_add_up"] is True and s["chips_counted"] == 12 * stack
    # the counts stay on the players: the tablet and a deal read them back
    assert [e.chips for e in core.entries(session, t, "seated") if e.id == mates[0].id] == [2 * stack]
