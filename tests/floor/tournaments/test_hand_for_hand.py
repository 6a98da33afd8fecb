"""Hand for hand at the bubble: entered at places paid + 1 with two tables in play, the clock stopped
between hands, every table told, busts of one hand placed together by their chips at its start; and
the house's rule closing late registration at the money."""
from __future__ import annotations

from datetime import timedelta

import pytest

from floor import ledger
from floor.errors import InvalidState
from floor.models import AuditRecord, TournamentElimination
from floor.notify import _KEY as OUTBOX
from floor.settings import HouseSettings
from floor.tournaments import clock, core, eliminations, registration
from tests.floor.tournaments.helpers import HOUSE, T0, manager, players, tables, tournament

CLOSED = T0 + timedelta(minutes=101)   # the turbo's late registration is over


def _to_the_bubble(session):
    """Eight entries pay three places; three seats a table: at four left, two tables of two."""
    m = manager(session)
    t = tournament(session, seats_per_table=3, final_table_size=3, table_numbers=tables(session))
    for p in players(session, 8):
        registration.register(session, m, HOUSE, t.id, p, "cash", T0)
    clock.start(session, m, t.id, T0)
    assert core.paid_places(session, t, 100) == 3
    now = CLOSED
    while len(core.entries(session, t, *core.IN_PLAY)) > 4:
        seated = core.entries(session, t, "seated")
        e = seated[0]
        w = next(x for x in seated if x.table_id == e.table_id and x.id != e.id)
        eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": e.id, "chips_at_start": 1_000}], [w.id], now=now)
        now += timedelta(minutes=1)
    return m, t, now


def _by_table(session, t):
    out = {}
    for e in core.entries(session, t, "seated"):
        out.setdefault(e.table.number, []).append(e)
    return out


def test_four_left_for_three_places_on_two_tables_plays_hand_for_hand(session):
    m, t, now = _to_the_bubble(session)
    state = clock.state(session, t, now, 100)
    assert state["hand_for_hand"] and not state["hand_in_play"]
    assert state["paused"] and state["pause_reason"] == eliminations.HAND_FOR_HAND
    assert len(state["tables_in_play"]) == 2
    sent = [(ev, p, rooms) for ev, p, rooms in session.info.get(OUTBOX, []) if ev == "tournament.hand_for_hand"]
    table_rooms = {f"table:{tt.table_id}" for tt in core.tables(session, t, in_play=True)}
    assert table_rooms <= {rooms for _, _, rooms in sent if isinstance(rooms, str)}   # each dealer terminal told
    with pytest.raises(InvalidState) as exc:          # the floor deals hands, it does not just resume
        clock.resume(session, m, t.id, now)
    assert exc.value.code == "hand_for_hand"

    # a hand nobody busts: the clock runs while it is played and stops once both tables are done
    eliminations.deal_hand(session, m, HOUSE, t.id, now)
    state = clock.state(session, t, now, 100)
    assert state["hand_in_play"] and not state["paused"] and state["hand_for_hand_hand"] == t.hands
    a, b = sorted(_by_table(session, t))
    eliminations.hand_done(session, m, HOUSE, t.id, a, now + timedelta(seconds=60))
    assert not clock.state(session, t, now + timedelta(seconds=60), 100)["paused"]   # table b still plays
    with pytest.raises(InvalidState):
        eliminations.deal_hand(session, m, HOUSE, t.id, now + timedelta(seconds=61))
    eliminations.hand_done(session, m, HOUSE, t.id, b, now + timedelta(seconds=90))
    state = clock.state(session, t, now + timedelta(seconds=120), 100)
    assert state["hand_for_hand"] and state["paused"] and not state["hand_in_play"]
    assert clock.elapsed(session, t, now + timedelta(seconds=120)) == clock.elapsed(session, t, now) + 90


def test_two_out_on_one_hand_at_two_tables_are_placed_together_by_their_chips(session):
    m, t, now = _to_the_bubble(session)
    eliminations.deal_hand(session, m, HOUSE, t.id, now)
    hand = t.hands
    tabs = _by_table(session, t)
    (ta, (short, wa)), (tb, (big, wb)) = sorted(tabs.items())
    # the short stack's table reports first; he gets no place until the other table has played the hand
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": short.id, "chips_at_start": 5_000}], [wa.id],
                      now=now + timedelta(seconds=30))
    assert short.status == "out" and short.place is None and short.prize == 0
    assert clock.state(session, t, now + timedelta(seconds=30), 100)["tables_done"] == [ta]
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": big.id, "chips_at_start": 9_000}], [wb.id],
                      now=now + timedelta(seconds=50))
    pays = core.payouts(session, t, 100)
    # four were in when the hand was dealt: the bigger stack at its start takes 3rd (paid), the other 4th
    assert (big.place, short.place) == (3, 4)
    assert (big.prize, short.prize) == (pays[2], 0)
    assert ledger.player_balance(session, big.player_id) == pays[2]
    # the bubble burst: hand for hand is over and the clock runs again
    state = clock.state(session, t, now + timedelta(seconds=60), 100)
    assert not state["hand_for_hand"] and not state["paused"] and state["players_left"] == 2
    assert session.query(AuditRecord).filter_by(action="tournament.hand_over").count() == 1
    assert {r.hand for r in session.query(TournamentElimination).filter_by(tournament_id=t.id)
            if r.entry_id in (big.id, short.id)} == {hand}
    assert ledger.check(session).ok


def test_close_registration_at_the_money_drops_the_guarantee(session):
    house = HouseSettings.from_mapping(HOUSE.as_dict() | {"tournament_bubble_policy": "close_registration"})
    m = manager(session)
    t = tournament(session, guarantee=200_000, table_numbers=tables(session, (41,)))
    for p in players(session, 4):
        registration.register(session, m, house, t.id, p, "cash", T0)
    clock.start(session, m, t.id, T0)
    a, b, c, d = core.entries(session, t, "seated")
    at = T0 + timedelta(minutes=30)      # late registration open; four entries pay two places
    eliminations.bust(session, m, house, t.id, [{"entry_id": a.id, "chips_at_start": 100}], [b.id], now=at)
    assert clock.state(session, t, at, 100)["late_registration_open"]     # the bubble: still open
    eliminations.bust(session, m, house, t.id, [{"entry_id": b.id, "chips_at_start": 100}], [c.id], now=at)
    state = clock.state(session, t, at, 100)
    assert not state["late_registration_open"] and state["registration_closed_early"]
    assert (a.place, b.place) == (4, 3)                 # placed at the close, first out last
    assert state["prize_pool"] == 4 * 10_000            # what was collected: the guarantee no longer applies
    with pytest.raises(InvalidState) as exc:
        registration.register(session, m, house, t.id, players(session, 5)[4], "cash", at)
    assert exc.value.code == "registration_closed"
