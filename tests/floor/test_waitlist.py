"""Waiting lists: order, proposals derived from the seats, calls and their timers (controlled clock)."""
from __future__ import annotations

from datetime import timedelta

import pytest

from floor import jobs
from floor.actors import Actor
from floor.errors import BadInput, Conflict
from floor.games import waits
from floor.models import AuditRecord, ListCall
from floor.poker import conduct, queries, seating, waitlist
from floor.poker import jobs as _poker_jobs  # noqa: F401  (registers the poker room's jobs)
from floor.settings import HouseSettings
from tests.floor.poker_helpers import HOUSE, NLH, PLO, T0, fill, manager, table


def _full_main(session, leave_seats=()):
    main = table(session, 1)
    fill(session, main, range(1, 11), T0 - timedelta(hours=1))
    for s in leave_seats:
        seating.leave(session, Actor.system("dealer terminal"), HOUSE, queries.open_assignment(session, main.id, s),
                      "forfeit", 0, T0)
    return main


def test_order_is_time_added_and_a_move_needs_a_reason(session):
    m = manager(session)
    a, b, c = (waitlist.add(session, m, NLH, pid, T0 + timedelta(minutes=k)) for k, pid in enumerate((11, 12, 13)))
    assert [e.player_id for e in queries.open_entries(session, NLH)] == [11, 12, 13]
    assert (a.added_by_name, a.added_terminal) == ("Marc Manager", "tablet-manager")
    with pytest.raises(BadInput) as exc:
        waitlist.move(session, m, c.id, 1, "")
    assert exc.value.field == "reason"
    waitlist.move(session, m, c.id, 1, "was here before, list error")
    assert [e.player_id for e in queries.open_entries(session, NLH)] == [13, 11, 12]
    rec = session.query(AuditRecord).filter_by(action="waitlist.move").one()
    assert "list error" in rec.after and rec.actor == "Marc Manager"


def test_one_entry_per_list_several_lists_and_no_list_for_banned_or_seated(session):
    m = manager(session)
    waitlist.add(session, m, NLH, 11, T0)
    waitlist.add(session, m, PLO, 11, T0)           # several lists at once
    with pytest.raises(Conflict) as exc:
        waitlist.add(session, m, NLH, 11, T0)
    assert exc.value.code == "already_listed"
    conduct.ban(session, m, 12, "three warnings", T0 + timedelta(hours=3), now=T0)
    with pytest.raises(Conflict) as exc:
        waitlist.add(session, m, NLH, 12, T0)
    assert exc.value.code == "banned"
    _full_main(session)
    with pytest.raises(Conflict) as exc:
        waitlist.add(session, m, NLH, 1, T0)
    assert exc.value.code == "seated_in_game"
    with pytest.raises(BadInput):
        waitlist.add(session, m, 3, 13, T0)         # baccarat has no list


def test_a_seat_freed_by_anyone_proposes_the_first_eligible_player(session):
    m = manager(session)
    main = _full_main(session)
    e_banned = waitlist.add(session, m, NLH, 11, T0)
    e_plo_seated = waitlist.add(session, m, NLH, 12, T0)
    e_ok = waitlist.add(session, m, NLH, 13, T0)
    waitlist.add(session, m, NLH, 14, T0)
    assert waitlist.proposals(session, HOUSE, T0) == []              # no free seat
    conduct.ban(session, m, 11, "abuse", None, now=T0)
    seating.seat_player(session, m, HOUSE, table(session, 3), 1, 12, 50_000, T0)   # 12 is on PLO? no: a seat in another game
    # The dealer terminal frees seat 7 (third missed-blind ticket): a plain leave().
    seating.leave(session, Actor("Dan Dealer", "dealer", "table-1"), HOUSE, queries.open_assignment(session, main.id, 7),
                  "missed_blinds", 20_000, T0)
    props = waitlist.proposals(session, HOUSE, T0)
    # 11 is banned (skipped); 12 plays Omaha, not this game, so he is eligible and first.
    assert [(p.table, p.seat, p.player_id) for p in props] == [(1, 7, 12)]
    seating.leave(session, m, HOUSE, queries.open_assignment(session, main.id, 8), "left", 0, T0)
    assert [(p.seat, p.player_id) for p in waitlist.proposals(session, HOUSE, T0)] == [(7, 12), (8, 13)]
    assert e_banned.status == e_ok.status == e_plo_seated.status == "waiting"


def test_call_holds_the_seat_and_seating_takes_him_off_that_list_keeping_others(session):
    m = manager(session)
    main = _full_main(session, leave_seats=[3])
    e = waitlist.add(session, m, NLH, 11, T0)
    other = waitlist.add(session, m, PLO, 11, T0)
    c = waitlist.call(session, m, HOUSE, e.id, main, now=T0)
    assert (c.seat_number, c.expires_at, c.expiry_action) == (3, T0 + timedelta(minutes=5), "end_of_list")
    assert waitlist.proposals(session, HOUSE, T0) == []              # the seat is held
    with pytest.raises(Conflict) as exc:
        seating.seat_player(session, m, HOUSE, main, 3, 20, 50_000, T0)
    assert exc.value.code == "seat_held"
    with pytest.raises(BadInput) as exc:
        waitlist.seat(session, m, HOUSE, e.id, 5_000, now=T0)        # under 20 big blinds
    assert exc.value.field == "buy_in"
    done = waitlist.seat(session, m, HOUSE, e.id, 10_000, now=T0 + timedelta(minutes=2))
    assert (done.assignment.seat.number, done.assignment.arrival, done.assignment.buy_in) == (3, "new", 10_000)
    assert e.status == "seated" and c.outcome == "seated"
    assert [x.id for x in done.other_entries] == [other.id]         # offered: keep or drop
    assert queries.open_entries(session, PLO)[0].id == other.id


def test_seating_can_drop_his_other_lists(session):
    m = manager(session)
    main = _full_main(session, leave_seats=[3])
    e = waitlist.add(session, m, NLH, 11, T0)
    waitlist.add(session, m, PLO, 11, T0)
    waitlist.call(session, m, HOUSE, e.id, main, now=T0)
    done = waitlist.seat(session, m, HOUSE, e.id, 10_000, now=T0, drop_other_lists=True)
    assert done.other_entries == [] and [d.closed_reason for d in done.dropped] == ["seated elsewhere"]
    assert queries.open_entries(session, PLO) == []


def test_calling_out_of_turn_needs_a_reason(session):
    m = manager(session)
    main = _full_main(session, leave_seats=[3])
    waitlist.add(session, m, NLH, 11, T0)
    second = waitlist.add(session, m, NLH, 12, T0)
    with pytest.raises(Conflict) as exc:
        waitlist.call(session, m, HOUSE, second.id, main, now=T0)
    assert exc.value.code == "not_first" and "comes first" in exc.value.message
    c = waitlist.call(session, m, HOUSE, second.id, main, now=T0, reason="11 is at dinner, asked to skip")
    assert c.seat_number == 3


def test_call_timer_first_expiry_to_the_end_second_off_the_list(session):
    m = manager(session)
    main = _full_main(session, leave_seats=[3])
    e = waitlist.add(session, m, NLH, 11, T0)
    waitlist.add(session, m, NLH, 12, T0)
    waitlist.add(session, m, NLH, 13, T0)
    c1 = waitlist.call(session, m, HOUSE, e.id, main, now=T0)
    # Before the time: the job does nothing.
    jobs.JOBS["waitlist.call_expired"](session, HOUSE, c1.id, T0 + timedelta(minutes=4, seconds=59))
    assert c1.closed_at is None and e.status == "called"
    jobs.JOBS["waitlist.call_expired"](session, HOUSE, c1.id, T0 + timedelta(minutes=5))
    assert (c1.outcome, e.status, e.expiries) == ("expired", "waiting", 1)
    assert [x.player_id for x in queries.open_entries(session, NLH)] == [12, 13, 11]
    # 12 and 13 are seated elsewhere (gone from the list); 11 is first again and called again.
    for other in queries.open_entries(session, NLH)[:2]:
        waitlist.remove(session, m, other.id, "went home", T0)
    c2 = waitlist.call(session, m, HOUSE, e.id, main, now=T0 + timedelta(minutes=6))
    assert c2.expiry_action == "remove"
    jobs.JOBS["waitlist.call_expired"](session, HOUSE, c2.id, T0 + timedelta(minutes=11))
    assert (e.status, e.closed_reason, e.expiries) == ("removed", "no_response", 2)
    # Running the job again (a restarted scheduler catching up) changes nothing.
    assert waitlist.expire_call(session, c2.id, T0 + timedelta(minutes=20)) is None


def test_expiry_actions_come_from_the_house_settings(session):
    m = manager(session)
    main = _full_main(session, leave_seats=[3])
    e = waitlist.add(session, m, NLH, 11, T0)
    strict = HouseSettings(call_response_minutes=2, call_expiry_first="remove")
    c = waitlist.call(session, m, strict, e.id, main, now=T0)
    assert (c.expires_at, c.expiry_action) == (T0 + timedelta(minutes=2), "remove")
    waitlist.expire_call(session, c.id, T0 + timedelta(minutes=2))
    assert e.status == "removed"


def test_cancelled_call_keeps_his_place_and_frees_the_seat(session):
    m = manager(session)
    main = _full_main(session, leave_seats=[3])
    e = waitlist.add(session, m, NLH, 11, T0)
    c = waitlist.call(session, m, HOUSE, e.id, main, now=T0)
    waitlist.cancel_call(session, m, c.id, T0)
    assert e.status == "waiting" and c.outcome == "cancelled"
    assert [(p.seat, p.player_id) for p in waitlist.proposals(session, HOUSE, T0)] == [(3, 11)]
    with pytest.raises(Conflict) as exc:
        waitlist.cancel_call(session, m, c.id, T0)
    assert exc.value.code == "call_closed"
    assert session.query(ListCall).count() == 1


def test_a_walk_up_does_not_jump_the_list(session):
    m = manager(session)
    main = _full_main(session, leave_seats=[3])
    waitlist.add(session, m, NLH, 11, T0)
    with pytest.raises(Conflict) as exc:
        waitlist.walk_up(session, m, HOUSE, main, 3, 20, 50_000, T0)
    assert exc.value.code == "list_waiting"


def test_estimated_wait_counts_only_seats_opened_for_the_list_in_the_window(session):
    m = manager(session)
    main = _full_main(session)
    now = T0 + timedelta(hours=1)
    # Three players left in the last 3 hours, one left 4 hours ago (outside), one changed seat (no opening).
    for seat, at in ((1, now - timedelta(minutes=30)), (2, now - timedelta(minutes=90)), (4, now - timedelta(minutes=170))):
        a = queries.open_assignment(session, main.id, seat)
        seating.leave(session, m, HOUSE, a, "left", 0, at)
        seating.sit(session, m, HOUSE, main, seat, 20 + seat, 50_000, at)
    waitlist.add(session, m, NLH, 11, now)
    waitlist.add(session, m, NLH, 12, now)
    lst = next(x for x in waitlist.lists(session, HOUSE, now) if x.game.id == NLH)
    assert lst.seat_openings == 3
    # what the model makes of the same figures: 3 departures over the window's seat-minutes, the
    # table full now (floor.games.waits has its own tests; this checks the floor measures its inputs),
    # measured at the last seat change 30 minutes ago (a quiet spell shorter than twice the usual gap)
    seated = len(main.seats)
    last = now - timedelta(minutes=30)
    minutes = waitlist.seat_minutes(session, NLH, last - timedelta(hours=HOUSE.board_wait_window_hours), last)
    expected = waits.estimate(2, 0, seated, 3, minutes)
    assert [r.estimated_wait_minutes for r in lst.entries] == [w.minutes for w in expected]
    assert [r.estimated_wait_range for r in lst.entries] == [[w.low, w.high] for w in expected]
    assert 0 < expected[0].minutes < expected[1].minutes


def test_seat_minutes_count_only_the_part_of_each_stay_inside_the_window(session):
    m = manager(session)
    main = _full_main(session)
    since, now = T0 + timedelta(minutes=30), T0 + timedelta(minutes=90)
    before = waitlist.seat_minutes(session, NLH, since, now)
    a = queries.open_assignment(session, main.id, 1)
    seating.leave(session, m, HOUSE, a, "left", 0, T0 + timedelta(minutes=60))
    # seat 1's player now stops at minute 60: the window loses his last 30 minutes
    assert waitlist.seat_minutes(session, NLH, since, now) == pytest.approx(before - 30)


def test_a_free_seat_on_a_list_table_means_the_first_waits_nothing(session):
    m = manager(session)
    main = _full_main(session, leave_seats=[3])
    now = T0 + timedelta(hours=1)
    a = queries.open_assignment(session, main.id, 1)
    seating.leave(session, m, HOUSE, a, "left", 0, now - timedelta(minutes=20))
    seating.sit(session, m, HOUSE, main, 1, 21, 50_000, now - timedelta(minutes=20))
    waitlist.add(session, m, NLH, 11, now)
    waitlist.add(session, m, NLH, 12, now)
    lst = next(x for x in waitlist.lists(session, HOUSE, now) if x.game.id == NLH)
    first, second = lst.entries
    assert first.estimated_wait_minutes == 0 and first.estimated_wait_range == [0, 0]
    assert second.estimated_wait_minutes > 0


@pytest.mark.parametrize("fmt, expected", [
    ("first_initial", "Chloé F."), ("full", "Chloé Favre"), ("initials", "C. F."), ("card_tail", "…0003")])
def test_board_name_formats(fmt, expected):
    assert waitlist.format_name("Chloé Favre", "70000003", fmt) == expected


def test_board_view_has_no_full_names(session):
    m = manager(session)
    main = _full_main(session, leave_seats=[3])
    e = waitlist.add(session, m, NLH, 11, T0)
    waitlist.add(session, m, NLH, 12, T0)
    waitlist.call(session, m, HOUSE, e.id, main, now=T0)
    board = waitlist.board(session, HOUSE, T0)
    nlh = board.lists[0]
    assert [(r.name, r.called, r.table) for r in nlh.entries] == [("Karin H.", True, 1), ("Luca B.", False, None)]
    assert "Huber" not in str(board) and "Alice Martin" not in str(board)


def test_an_estimate_holds_still_while_nothing_moves(session):
    """A young floor (players seated 20 minutes, three left): ten quiet minutes later the waits shown
    are the same, not longer; a departure then moves them."""
    m = manager(session)
    main = _full_main(session)
    start = T0 + timedelta(hours=2)
    for seat, minutes in ((1, 25), (2, 22), (4, 20)):
        at = start - timedelta(hours=2) + timedelta(minutes=100 + minutes - 20)
        seating.leave(session, m, HOUSE, queries.open_assignment(session, main.id, seat), "left", 0, at)
        seating.sit(session, m, HOUSE, main, seat, 20 + seat, 50_000, at)
    for pid in (11, 12, 13):
        waitlist.add(session, m, NLH, pid, start)

    def shown(now):
        lst = next(x for x in waitlist.lists(session, HOUSE, now) if x.game.id == NLH)
        return [(r.estimated_wait_minutes, r.estimated_wait_range) for r in lst.entries]

    first = shown(start)
    assert all(w and w > 0 for w, _ in first)
    assert [shown(start + timedelta(minutes=k)) for k in (4, 7, 10)] == [first] * 3
    seating.leave(session, m, HOUSE, queries.open_assignment(session, main.id, 5), "left", 0,
                  start + timedelta(minutes=11))
    assert shown(start + timedelta(minutes=11))[0] == (0, [0, 0])     # a seat free for the first now
