"""Seating rules: buy-ins per structure, anti-ratholing, one seat per game, seat and table changes,
players away and chip pickup, busting twice, opening and closing tables."""
from __future__ import annotations

from datetime import timedelta

import pytest

from floor import alerts, jobs
from floor.errors import BadInput, Conflict
from floor.models import Alert
from floor.poker import jobs as _poker_jobs  # noqa: F401  (registers the poker room's jobs)
from floor.poker import mustmove, queries, seating, waitlist
from floor.settings import HouseSettings
from tests.floor.poker_helpers import HOUSE, NLH, T0, fill, manager, table


@pytest.mark.parametrize("structure, bb, expected", [
    ("no_limit", 500, (10_000, 50_000)),          # 20-100 big blinds
    ("pot_limit", 500, (10_000, 50_000)),         # 20 big blinds to 100 big bets (big bet = big blind)
    ("fixed_limit", 1_000, (20_000, None)),       # at least 10 big bets (big bet = 2 big blinds)
    (None, 0, (0, None)),
])
def test_structure_limits(structure, bb, expected):
    assert seating.structure_limits(structure, bb, HOUSE) == expected


def test_structure_limits_follow_the_house_settings():
    house = HouseSettings(nl_min_buyin_bb=40, nl_max_buyin_bb=250)
    assert seating.structure_limits("no_limit", 500, house) == (20_000, 125_000)


@pytest.mark.parametrize("chips_out, minutes_ago, expected", [
    (80_000, 30, 80_000),      # left with more than the minimum, back within 2 h: at least that
    (80_000, 119, 80_000),
    (80_000, 120, None),       # window over
    (10_000, 30, None),        # left with no more than the minimum: nothing asked
    (None, 30, None),
])
def test_rathole_minimum_pure(chips_out, minutes_ago, expected):
    assert seating.rathole_minimum(chips_out, T0 - timedelta(minutes=minutes_ago), T0, 10_000, 120) == expected


def test_buy_in_limits_and_anti_ratholing_at_the_same_table(session):
    m = manager(session)
    main = table(session, 1)
    for bad in (9_999, 50_001, 0):
        with pytest.raises(BadInput) as exc:
            seating.seat_player(session, m, HOUSE, main, 1, 11, bad, T0)
        assert exc.value.field == "buy_in"
    a = seating.seat_player(session, m, HOUSE, main, 1, 11, 50_000, T0)
    seating.leave(session, m, HOUSE, a, "left", 120_000, T0 + timedelta(hours=1))
    limits = seating.buy_in_limits(session, HOUSE, main, 11, T0 + timedelta(hours=2))
    assert (limits.minimum, limits.maximum, limits.rathole_minimum) == (120_000, 120_000, 120_000)
    with pytest.raises(BadInput) as exc:
        seating.seat_player(session, m, HOUSE, main, 2, 11, 50_000, T0 + timedelta(hours=2))
    assert "at least 1200.00" in exc.value.message
    # Another table of the game is not "the same table"; after 2 hours the table is free of it too.
    assert seating.buy_in_limits(session, HOUSE, main, 11, T0 + timedelta(hours=3)).minimum == 10_000
    seating.seat_player(session, m, HOUSE, main, 2, 11, 120_000, T0 + timedelta(hours=2))


def test_one_seat_per_game_but_other_games_are_fine(session):
    m = manager(session)
    main = table(session, 1)
    mustmove.open_table(session, m, HOUSE, table(session, 2), must_move=False, now=T0)
    seating.seat_player(session, m, HOUSE, main, 1, 11, 50_000, T0)
    with pytest.raises(Conflict) as exc:
        seating.seat_player(session, m, HOUSE, table(session, 2), 1, 11, 50_000, T0)
    assert exc.value.code == "seated_in_game" and "one seat per game" in exc.value.message
    seating.seat_player(session, m, HOUSE, table(session, 3), 1, 11, 50_000, T0)   # Omaha


def test_seat_change_keeps_his_must_move_place(session):
    m = manager(session)
    main = table(session, 1)
    fill(session, main, range(1, 11), T0 - timedelta(hours=1))
    mustmove.open_table(session, m, HOUSE, table(session, 2), now=T0)
    mm = table(session, 2)
    fill(session, mm, [11, 12, 13], T0)
    seating.change_seat(session, m, HOUSE, mm, 1, 9, T0 + timedelta(minutes=30))
    new = queries.open_assignment(session, mm.id, 9)
    assert (new.player_id, new.arrival, new.sat_at) == (11, "seat_change", T0)
    assert [a.player_id for a in queries.must_move_order(session, mm.id)] == [11, 12, 13]


def test_table_change_requests_are_queued_and_honoured_in_order(session):
    m = manager(session)
    mustmove.open_table(session, m, HOUSE, table(session, 2), must_move=False, now=T0)
    t1, t2 = table(session, 1), table(session, 2)
    fill(session, t1, range(1, 11), T0)
    fill(session, t2, [11, 12, 13], T0)
    r1 = seating.request_table_change(session, m, HOUSE, 11, t1, T0)
    r2 = seating.request_table_change(session, m, HOUSE, 12, t1, T0 + timedelta(minutes=1))
    with pytest.raises(Conflict) as exc:
        seating.request_table_change(session, m, HOUSE, 11, t1, T0)
    assert exc.value.code == "already_requested"
    waitlist.add(session, m, NLH, 20, T0)
    seating.leave(session, m, HOUSE, queries.open_assignment(session, t1.id, 5), "left", 0, T0 + timedelta(minutes=5))
    props = waitlist.proposals(session, HOUSE, T0 + timedelta(minutes=5))
    # Table changes come before the list; 20 gets the seat 11 frees at table 2.
    assert [(p.table, p.kind, p.player_id) for p in props][:2] == [(1, "table_change", 11), (2, "list", 20)]
    with pytest.raises(Conflict) as exc:
        seating.honour_table_change(session, m, HOUSE, r2.id, now=T0 + timedelta(minutes=6))
    assert exc.value.code == "not_first"
    moved = seating.honour_table_change(session, m, HOUSE, r1.id, now=T0 + timedelta(minutes=6))
    assert (moved.table_id, moved.seat.number, moved.arrival, moved.buy_in) == (t1.id, 5, "table_change", 0)
    assert r1.outcome == "done" and r2.closed_at is None
    assert queries.seats_in_game(session, 11, NLH) == [moved]


def test_chip_pickup_flag_alert_and_confirmation(session):
    m = manager(session)
    main = table(session, 1)
    fill(session, main, range(1, 11), T0)
    away = seating.mark_away(session, m, HOUSE, main, 4, T0)
    assert seating.pickup_due(session, HOUSE, T0 + timedelta(minutes=25)) == []      # nobody waits
    waitlist.add(session, m, NLH, 11, T0)
    assert seating.pickup_due(session, HOUSE, T0 + timedelta(minutes=19)) == []
    due = seating.pickup_due(session, HOUSE, T0 + timedelta(minutes=20))
    assert [(d["table"], d["seat"], d["player"]["id"]) for d in due] == [(1, 4, 4)]
    jobs.JOBS["seating.pickup_due"](session, HOUSE, away.id, T0 + timedelta(minutes=20))
    alert = session.query(Alert).filter_by(kind="chip_pickup").one()
    assert "seat 4" in alert.message and alert.table_id == main.id
    with pytest.raises(Conflict):
        seating.confirm_pickup(session, m, HOUSE, main, 5, 0, T0 + timedelta(minutes=20))
    seating.confirm_pickup(session, m, HOUSE, main, 4, 31_500, T0 + timedelta(minutes=21))
    assert queries.open_assignment(session, main.id, 4) is None
    # The freed seat goes to the list.
    assert [(p.seat, p.player_id) for p in waitlist.proposals(session, HOUSE, T0 + timedelta(minutes=21))] == [(4, 11)]
    assert alerts.open_alerts(session)


def test_back_in_time_means_no_pickup(session):
    m = manager(session)
    main = table(session, 1)
    fill(session, main, [1, 2], T0)
    away = seating.mark_away(session, m, HOUSE, main, 2, T0)
    waitlist.add(session, m, NLH, 11, T0)
    seating.mark_back(session, m, main, 2, T0 + timedelta(minutes=10))
    assert seating.pickup_due(session, HOUSE, T0 + timedelta(minutes=30)) == []
    assert seating.pickup_alert(session, away.id, T0 + timedelta(minutes=20)) is None


def test_bust_once_rebuy_under_the_minimum_then_bust_again_to_the_end_of_the_list(session):
    m = manager(session)
    main = table(session, 1)
    fill(session, main, range(1, 11), T0)
    waitlist.add(session, m, NLH, 11, T0)
    first = waitlist.record_bust(session, m, HOUSE, main, 3, T0 + timedelta(minutes=10), rebuy=4_000)  # < 20 bb
    assert (first.busts, first.outcome) == (1, "rebought")
    with pytest.raises(Conflict) as exc:
        waitlist.record_bust(session, m, HOUSE, main, 3, T0 + timedelta(minutes=20), rebuy=4_000)
    assert exc.value.code == "second_bust"
    second = waitlist.record_bust(session, m, HOUSE, main, 3, T0 + timedelta(minutes=20), play_on=True)
    assert (second.busts, second.outcome) == (2, "listed")
    assert [(e.player_id, e.note) for e in queries.open_entries(session, NLH)] == [(11, None), (3, "busted twice")]
    assert queries.open_assignment(session, main.id, 3) is None


def test_bust_twice_without_a_list_sits_again_with_a_full_buy_in(session):
    m = manager(session)
    main = table(session, 1)
    fill(session, main, [1, 2, 3], T0)
    waitlist.record_bust(session, m, HOUSE, main, 3, T0)
    with pytest.raises(BadInput) as exc:
        waitlist.record_bust(session, m, HOUSE, main, 3, T0 + timedelta(minutes=5), play_on=True, buy_in=4_000)
    assert exc.value.field == "buy_in"
    session.rollback()
    fill(session, main, [1, 2, 3], T0)
    waitlist.record_bust(session, m, HOUSE, main, 3, T0)
    again = waitlist.record_bust(session, m, HOUSE, main, 3, T0 + timedelta(minutes=5), play_on=True, buy_in=10_000)
    assert again.outcome == "sat_again" and again.assignment.buy_in == 10_000 and again.assignment.seat.number == 3


def test_open_and_close_tables(session):
    m = manager(session)
    t2 = table(session, 2)
    link = mustmove.open_table(session, m, HOUSE, t2, now=T0)      # beside table 1: a must-move table
    assert link.feeds_table_id == table(session, 1).id and t2.status == "open"
    with pytest.raises(Conflict):
        mustmove.open_table(session, m, HOUSE, t2, now=T0)
    fill(session, t2, [11], T0)
    with pytest.raises(Conflict) as exc:
        mustmove.close_table(session, m, HOUSE, t2, T0)
    assert exc.value.code == "table_not_empty"
    seating.leave(session, m, HOUSE, queries.open_assignment(session, t2.id, 1), "left", 0, T0)
    mustmove.close_table(session, m, HOUSE, t2, T0)
    assert t2.status == "closed" and queries.chains(session) == []
    # A live-game table simply opens and closes.
    mustmove.close_table(session, m, HOUSE, table(session, 10), T0)
    assert mustmove.open_table(session, m, HOUSE, table(session, 10), now=T0) is None
    assert table(session, 10).status == "open"
