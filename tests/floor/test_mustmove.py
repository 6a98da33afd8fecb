"""Must-move (the Bern room's rules), case by case, on the demo room: table 1 is main, table 2 its must-move table."""
from __future__ import annotations

from datetime import timedelta

import pytest

from floor.errors import Conflict
from floor.gaming_day import end_of_gaming_day
from floor.models import SeatAssignment
from floor.poker import mustmove, queries, seating, waitlist
from tests.floor.poker_helpers import HOUSE, NLH, T0, add_table, fill, manager, open_mm, table


@pytest.mark.parametrize("fed, seats, feeding, expected", [
    (9, 10, 9, 1),     # MM1 above 8: main kept full
    (8, 10, 10, 2),    # MM1 at 10: two seats open at main, both filled
    (7, 10, 8, 1),     # MM1 at 8, main at 7: one move (then main at 8)
    (8, 10, 8, 0),     # MM1 at 8, main at 8: nobody moves
    (9, 10, 8, 0),
    (5, 10, 8, 3),     # main short: moves until main reaches 8
    (10, 10, 10, 0),   # main full
    (3, 10, 0, 0),
])
def test_moves_due_pure(fed, seats, feeding, expected):
    assert mustmove.moves_due(fed, seats, feeding, 8, 8) == expected


def _room(session, main_players=10, mm_players=9, leave_main_seat=None):
    """Main (table 1) with players 1..main_players, MM1 (table 2) with the next ones, one minute apart."""
    main, mm = table(session, 1), table(session, 2)
    fill(session, main, range(1, main_players + 1), T0 - timedelta(hours=2))
    open_mm(session)
    mm_rows = fill(session, mm, range(11, 11 + mm_players), T0)
    return main, mm, mm_rows


def test_mm1_at_9_and_a_seat_opening_at_main_moves_the_first_in_mm1_order(session):
    main, mm, mm_rows = _room(session, 10, 9)
    assert mustmove.due_moves(session, HOUSE) == []            # main is full: nobody moves
    leaver = queries.open_assignment(session, main.id, 4)
    seating.leave(session, manager(session), HOUSE, leaver, "left", 80_000, T0 + timedelta(minutes=30))
    due = mustmove.due_moves(session, HOUSE)
    assert [(d.player_id, d.from_table, d.to_table, d.order) for d in due] == [(11, 2, 1, 1)]
    # Someone else than the first in order may not go.
    with pytest.raises(Conflict) as exc:
        mustmove.move(session, manager(session), HOUSE, mm, 12, now=T0 + timedelta(minutes=31))
    assert exc.value.code == "not_due" and "first" in exc.value.message
    new = mustmove.move(session, manager(session), HOUSE, mm, 11, now=T0 + timedelta(minutes=31))
    assert (new.table_id, new.seat.number, new.arrival, new.buy_in) == (main.id, 4, "must_move", 0)
    assert mustmove.due_moves(session, HOUSE) == []
    old = session.get(SeatAssignment, mm_rows[0].id)
    assert old.reason_left == "must_move"
    # The order at MM1 is the order they sat there: 12 is now first.
    assert [a.player_id for a in queries.must_move_order(session, mm.id)][:2] == [12, 13]


def test_mm1_at_8_and_main_at_7_moves_one(session):
    main, mm, _ = _room(session, 10, 8)
    actor = manager(session)
    for seat in (2, 5, 7):
        seating.leave(session, actor, HOUSE, queries.open_assignment(session, main.id, seat), "left", 0, T0 + timedelta(minutes=20))
    due = mustmove.due_moves(session, HOUSE)
    assert [d.player_id for d in due] == [11]   # main 7 -> 8 then MM1 7, main 8: stop
    mustmove.move(session, actor, HOUSE, mm, 11, seat_number=5, now=T0 + timedelta(minutes=21))
    assert mustmove.due_moves(session, HOUSE) == []


def test_mm1_at_8_and_main_at_8_nobody_moves(session):
    main, mm, _ = _room(session, 10, 8)
    actor = manager(session)
    for seat in (2, 5):
        seating.leave(session, actor, HOUSE, queries.open_assignment(session, main.id, seat), "left", 0, T0 + timedelta(minutes=20))
    assert mustmove.due_moves(session, HOUSE) == []
    with pytest.raises(Conflict) as exc:
        mustmove.move(session, actor, HOUSE, mm, 11, now=T0 + timedelta(minutes=21))
    assert exc.value.code == "not_due"


def test_a_refusal_bans_him_for_the_gaming_day_and_the_next_in_order_is_due(session):
    main, mm, _ = _room(session, 10, 10)   # after his refusal MM1 still has 9: main is kept full
    actor = manager(session)
    now = T0 + timedelta(minutes=40)
    waitlist.add(session, actor, 2, 11, now)   # also on the Omaha list
    seating.leave(session, actor, HOUSE, queries.open_assignment(session, main.id, 1), "left", 0, now)
    ban = mustmove.refuse(session, actor, HOUSE, mm, 11, "wants to stay", now)
    assert ban.expires_at == end_of_gaming_day(now, HOUSE.timezone, HOUSE.gaming_day_rollover)
    assert ban.decided_by == actor.staff_id and "refused to move" in ban.reason
    assert queries.active_ban(session, 11, now + timedelta(hours=5)) is not None
    assert queries.active_ban(session, 11, ban.expires_at + timedelta(seconds=1)) is None
    assert queries.seats_in_game(session, 11, NLH) == []
    assert queries.open_entries(session, 2) == []
    # Skipped: the next in MM1's order is due now.
    assert [d.player_id for d in mustmove.due_moves(session, HOUSE)] == [12]
    # And he may not come back today.
    with pytest.raises(Conflict) as exc:
        waitlist.add(session, actor, NLH, 11, now + timedelta(hours=1))
    assert exc.value.code == "banned"


def test_no_change_from_main_to_a_must_move_table_nor_into_main_from_the_list(session):
    main, mm, _ = _room(session, 10, 5)
    actor = manager(session)
    with pytest.raises(Conflict) as exc:
        seating.request_table_change(session, actor, HOUSE, 1, mm, T0)
    assert exc.value.code == "main_to_mustmove"
    seating.leave(session, actor, HOUSE, queries.open_assignment(session, main.id, 9), "left", 0, T0)
    # Main's free seat is not offered to the list: MM1's players fill it by the must-move rule.
    e = waitlist.add(session, actor, NLH, 20, T0)
    props = waitlist.proposals(session, HOUSE, T0)
    assert all(p.table != 1 for p in props) and props[0].table == 2 and props[0].entry_id == e.id
    with pytest.raises(Conflict) as exc:
        waitlist.call(session, actor, HOUSE, e.id, main, 9, now=T0)
    assert exc.value.code == "mustmove_fed"


def test_leaving_main_means_60_minutes_before_an_annex_table(session):
    main, mm, _ = _room(session, 10, 5)
    actor = manager(session)
    left = T0 + timedelta(minutes=10)
    seating.leave(session, actor, HOUSE, queries.open_assignment(session, main.id, 3), "left", 30_000, left)
    e = waitlist.add(session, actor, NLH, 3, left)
    # Not proposed for the must-move table, and cannot be called or seated there...
    assert all(p.player_id != 3 for p in waitlist.proposals(session, HOUSE, left + timedelta(minutes=59)))
    with pytest.raises(Conflict) as exc:
        waitlist.call(session, actor, HOUSE, e.id, mm, now=left + timedelta(minutes=59))
    assert exc.value.code == "cooling_off" and "before" in exc.value.message
    # ...until the 60 minutes are over.
    later = left + timedelta(minutes=60)
    assert [p.player_id for p in waitlist.proposals(session, HOUSE, later)][:1] == [3]
    c = waitlist.call(session, actor, HOUSE, e.id, mm, now=later)
    seated = waitlist.seat(session, actor, HOUSE, e.id, 10_000, now=later + timedelta(minutes=1))
    assert seated.assignment.table_id == mm.id and seated.assignment.seat.number == c.seat_number


def test_a_chain_main_mm1_mm2_list_players_go_to_the_last_table(session):
    main, mm, _ = _room(session, 10, 10)
    t4 = add_table(session, 4)
    link = mustmove.open_table(session, manager(session), HOUSE, t4, now=T0)   # chains behind table 2
    assert link.feeds_table_id == mm.id
    chain = queries.chain_of(session, t4.id)
    assert [chain.number(t) for t in chain.tables] == [1, 2, 4]
    e = waitlist.add(session, manager(session), NLH, 21, T0)
    assert [(p.table, p.entry_id) for p in waitlist.proposals(session, HOUSE, T0)] == [(4, e.id)]
    fill(session, t4, [22, 23, 24], T0 + timedelta(minutes=5), seats=[1, 2, 3])
    # A seat opens at MM1 (10 -> 9 of 10): MM2 has 3, MM1 9 >= 8: nobody moves; main full.
    seating.leave(session, manager(session), HOUSE, queries.open_assignment(session, mm.id, 1), "left", 0, T0 + timedelta(minutes=9))
    assert mustmove.due_moves(session, HOUSE) == []


def test_the_floor_is_prompted_to_break_when_both_fit_and_the_break_moves_in_order(session):
    main, mm, _ = _room(session, 10, 4)
    actor = manager(session)
    chain = queries.chain_of(session, mm.id)
    assert mustmove.break_prompts(session, chain) == []
    for seat in range(1, 7):
        seating.leave(session, actor, HOUSE, queries.open_assignment(session, main.id, seat), "left", 0, T0 + timedelta(minutes=10))
    # Main at 4, MM1 at 4: 4 moves are due (main < 8) and both fit at main: break prompt.
    assert len(mustmove.due_moves(session, HOUSE)) == 4
    assert [p["table"] for p in mustmove.break_prompts(session, chain)] == [2]
    moved = mustmove.break_table(session, actor, HOUSE, mm, T0 + timedelta(minutes=11))
    assert [(m.player_id, m.seat.number, m.arrival) for m in moved] == [
        (11, 1, "must_move"), (12, 2, "must_move"), (13, 3, "must_move"), (14, 4, "must_move")]
    assert mm.status == "closed" and queries.chains(session) == []


def test_must_move_due_is_published_to_the_chain_terminals_on_commit(session):
    from floor import notify
    sent = []
    notify.set_emitter(lambda ev, payload, room: sent.append((ev, payload, room)))
    try:
        main, mm, _ = _room(session, 10, 9)
        session.commit()
        sent.clear()
        # Whoever frees the seat (here: a plain leave, as the dealer terminal does).
        seating.leave(session, manager(session), HOUSE, queries.open_assignment(session, main.id, 6), "forfeit", 0, T0)
        session.commit()
    finally:
        notify.set_emitter(None)
    due = [(room, p["moves"][0]["player_id"], p["moves"][0]["to_table"]) for ev, p, rooms in sent if ev == "mustmove.due"
           for room in ([rooms] if isinstance(rooms, str) else rooms)]
    assert sorted(due) == [("floor", 11, 1), (f"table:{main.id}", 11, 1), (f"table:{mm.id}", 11, 1)]
