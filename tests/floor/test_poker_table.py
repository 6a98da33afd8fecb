"""The poker table services on a real database: hands recorded as planned, tickets and the forfeit of a
seat, corrections, sit-outs, seat changes and rebuys, straddles; warnings, bans and lifting them."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import select

from floor.actors import Actor
from floor.errors import BadInput, Conflict, InvalidState
from floor.models import Alert, AuditRecord, PokerHand, SeatAssignment, Staff, Table
from floor.poker import conduct, queries, seating, waitlist
from floor.poker import table as svc
from floor.settings import HouseSettings

HOUSE = HouseSettings()
T0 = datetime(2026, 3, 14, 18, 0, tzinfo=timezone.utc)   # 19:00 in Zurich, mid gaming day


@pytest.fixture
def dealer(session):
    staff = session.execute(select(Staff).where(Staff.username == "dealer")).scalar_one()
    return Actor(staff.name, "dealer", "table-1", staff.id)


@pytest.fixture
def manager(session):
    staff = session.execute(select(Staff).where(Staff.username == "manager")).scalar_one()
    return Actor(staff.name, "floor_manager", "tablet", staff.id)


@pytest.fixture
def table(session):
    return session.execute(select(Table).where(Table.number == 1)).scalar_one()


class Clock:
    def __init__(self):
        self.t = T0

    def __call__(self, minutes: float = 1) -> datetime:
        self.t += timedelta(minutes=minutes)
        return self.t


def seat_players(session, actor, table, seats: dict[int, int], clock, arrival="new"):
    for seat, player in seats.items():
        seating.sit(session, actor, HOUSE, table, seat, player, 50_000, clock(), arrival=arrival)


def hand(session, actor, table, clock, house=HOUSE, **kw) -> PokerHand:
    return svc.new_hand(session, actor, table, house, clock(), **kw)


def postings(h: PokerHand) -> str:
    return "; ".join(f"{p.seat_number} {p.kind} {p.amount}" for p in sorted(h.postings, key=lambda p: (p.seat_number, p.id)))


def test_hands_move_the_button_and_record_who_posted(session, dealer, table):
    clock = Clock()
    seat_players(session, dealer, table, {1: 1, 3: 2, 5: 3, 8: 4}, clock)
    svc.place_button(session, dealer, table, 3, now=clock())
    h1 = hand(session, dealer, table, clock)
    assert (h1.number, h1.button_seat, h1.small_seat, h1.big_seat, h1.new_game) == (1, 3, 5, 8, True)
    assert postings(h1) == "5 small_blind 200; 8 big_blind 500"
    h2 = hand(session, dealer, table, clock)
    assert (h2.number, h2.button_seat, h2.small_seat, h2.big_seat, h2.new_game) == (2, 5, 8, 1, False)
    assert [s.status for s in h2.seats] == ["dealt"] * 4
    assert session.execute(select(AuditRecord).where(AuditRecord.action == "poker.hand")).scalars().all()[-1].after


def test_a_new_player_posts_or_waits_and_nobody_posts_for_an_away_player(session, dealer, table):
    clock = Clock()
    seat_players(session, dealer, table, {1: 1, 2: 2, 3: 3, 4: 4}, clock)
    svc.place_button(session, dealer, table, 1, now=clock())
    hand(session, dealer, table, clock)                      # button 1, SB 2, BB 3
    seating.sit(session, dealer, HOUSE, table, 6, 6, 50_000, clock())
    svc.choose_entry(session, dealer, table, 6, wait_for_bb=True, now=clock())
    svc.mark_away(session, dealer, table, 4, HOUSE, now=clock())
    h = hand(session, dealer, table, clock)                  # button 2, SB 3, BB 6 (4 away, skipped)
    assert (h.button_seat, h.small_seat, h.big_seat) == (2, 3, 6)
    assert postings(h) == "3 small_blind 200; 6 big_blind 500"
    assert {s.seat_number: s.status for s in h.seats} == {1: "dealt", 2: "dealt", 3: "dealt", 4: "away", 6: "dealt"}
    state = svc.terminal(session, table, HOUSE, clock())
    seat4 = next(s for s in state["seats"] if s["number"] == 4)
    assert seat4["away"] and seat4["tickets"] == 1 and seat4["missed"] == ["big"]
    assert seat4["owes"].live == 500


def test_the_third_ticket_forfeits_the_seat_and_alerts_the_floor(session, dealer, table):
    clock = Clock()
    seat_players(session, dealer, table, {1: 1, 2: 2, 3: 3, 4: 4, 5: 5}, clock)
    svc.place_button(session, dealer, table, 1, now=clock())
    hand(session, dealer, table, clock)                      # B1 S2 B3
    svc.mark_away(session, dealer, table, 5, HOUSE, now=clock())
    hand(session, dealer, table, clock)                      # B2 S3 B4
    hand(session, dealer, table, clock)                      # B3 S4 B1: big passes 5 -> ticket 1
    hand(session, dealer, table, clock)                      # B4 S1 B2: small passes 5 -> ticket 2
    a5 = queries.open_assignment(session, table.id, 5)
    assert a5 is not None
    assert svc.terminal(session, table, HOUSE, clock())["seats"][4]["tickets"] == 2
    for _ in range(2):
        hand(session, dealer, table, clock)                  # B1 S2 B3, B2 S3 B4
    assert queries.open_assignment(session, table.id, 5) is not None
    hand(session, dealer, table, clock)                      # B3 S4 B1: big passes 5 -> ticket 3
    assert queries.open_assignment(session, table.id, 5) is None
    left = session.get(SeatAssignment, a5.id)
    assert left.reason_left == "forfeit_missed_blinds"
    alert = session.execute(select(Alert).where(Alert.kind == "seat_forfeited")).scalar_one()
    assert alert.table_id == table.id and alert.data["seat"] == 5 and alert.data["tickets"] == 3
    assert "Elena Rossi" in alert.message
    actions = [r.action for r in session.execute(select(AuditRecord).order_by(AuditRecord.id)).scalars()]
    assert "poker.forfeit" in actions and "seat.leave" in actions


def test_a_corrected_ticket_no_longer_counts_and_the_correction_is_a_new_row(session, dealer, table):
    clock = Clock()
    seat_players(session, dealer, table, {1: 1, 2: 2, 3: 3, 4: 4}, clock)
    svc.place_button(session, dealer, table, 1, now=clock())
    hand(session, dealer, table, clock)
    svc.mark_away(session, dealer, table, 4, HOUSE, now=clock())
    hand(session, dealer, table, clock)                      # B2 S3 B1: big passes 4
    tickets = svc.tickets(session, table)
    assert [(t.row.seat_number, t.row.blind, t.row.kind) for t in tickets] == [(4, "big", "miss")]
    with pytest.raises(BadInput):
        svc.void_ticket(session, dealer, table, tickets[0].row.id, "  ")
    v = svc.void_ticket(session, dealer, table, tickets[0].row.id, "he was at the table", now=clock())
    assert v.kind == "void" and v.voids_id == tickets[0].row.id
    with pytest.raises(Conflict):
        svc.void_ticket(session, dealer, table, tickets[0].row.id, "again", now=clock())
    state = svc.terminal(session, table, HOUSE, clock())
    seat4 = state["seats"][3]
    assert seat4["tickets"] == 0 and seat4["missed"] == []
    # A ticket by hand counts, with a reason.
    svc.issue_ticket(session, dealer, table, 4, "missed blind while at the cage", HOUSE, now=clock())
    assert svc.terminal(session, table, HOUSE, clock())["seats"][3]["tickets"] == 1
    audit = [r.action for r in session.execute(select(AuditRecord)).scalars()]
    assert "poker.ticket_void" in audit and "poker.ticket" in audit


@pytest.mark.parametrize("policy,expected", [
    ("bern", "1 small_blind 200; 2 big_blind 500; 4 entry 500; 4 dead_small 200"),
    ("online_network", "1 small_blind 200; 2 big_blind 500; 4 entry 500; 4 dead_small 200"),
    ("swiss_online", "1 small_blind 200; 2 big_blind 500; 4 entry 500; 4 dead_small 200"),
])
def test_a_returning_player_who_missed_both_blinds_posts_them_on_new_hand(session, dealer, table, policy, expected):
    house = replace(HOUSE, missed_blind_policy=policy)
    clock = Clock()
    seat_players(session, dealer, table, {1: 1, 2: 2, 3: 3, 4: 4, 5: 5}, clock)
    svc.place_button(session, dealer, table, 1, now=clock())
    hand(session, dealer, table, clock, house)               # B1 S2 B3
    svc.mark_away(session, dealer, table, 4, house, now=clock())
    hand(session, dealer, table, clock, house)               # B2 S3 B5 (4 misses big)
    hand(session, dealer, table, clock, house)               # B3 S5 B1 (4 misses small)
    svc.mark_back(session, dealer, table, 4, house, now=clock())
    state = svc.terminal(session, table, house, clock())
    seat4 = state["seats"][3]
    assert seat4["owes"].live == 500 and seat4["owes"].dead_small == 200
    assert seat4["next"]["status"] == "dealt" and seat4["next"]["total"] == 700
    h = hand(session, dealer, table, clock, house)           # B5 S1 B2, 4 posts
    assert postings(h) == expected
    h = hand(session, dealer, table, clock, house)           # owes nothing any more
    assert all(p.seat_number != 4 or p.kind in ("small_blind", "big_blind") for p in h.postings)


def test_a_seat_change_far_from_the_button_owes_both_blinds(session, dealer, table):
    clock = Clock()
    seat_players(session, dealer, table, {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6}, clock)
    svc.place_button(session, dealer, table, 1, now=clock())
    hand(session, dealer, table, clock)                      # B1 S2 B3
    a = queries.open_assignment(session, table.id, 2)
    seating.leave(session, dealer, HOUSE, a, "seat_change", None, clock())
    seating.sit(session, dealer, HOUSE, table, 9, 2, 50_000, clock(), arrival="seat_change")
    # From button 1: 3, 4, 5, 6 are active, then seat 9 -> 5th place > 3: big live, small dead.
    h = hand(session, dealer, table, clock)
    assert postings(h) == "4 small_blind 200; 5 big_blind 500; 9 entry 500; 9 dead_small 200"   # B3 S4 B5
    a = queries.open_assignment(session, table.id, 3)
    seating.leave(session, dealer, HOUSE, a, "seat_change", None, clock())
    seating.sit(session, dealer, HOUSE, table, 7, 3, 50_000, clock(), arrival="seat_change")
    # From button 3 (his old seat, not counted): 4, 5, 6 active, then 7 -> 4th place > 3: owes too.
    h = hand(session, dealer, table, clock)
    assert "7 entry 500; 7 dead_small 200" in postings(h)


def test_a_rebuy_after_an_all_in_is_dealt_in_at_once_unless_he_missed_a_blind(session, dealer, table):
    clock = Clock()
    seat_players(session, dealer, table, {1: 1, 2: 2, 3: 3, 4: 4, 5: 5}, clock)
    svc.place_button(session, dealer, table, 1, now=clock())
    hand(session, dealer, table, clock)                      # B1 S2 B3
    a = queries.open_assignment(session, table.id, 5)
    seating.leave(session, dealer, HOUSE, a, "busted", 0, clock())
    seating.sit(session, dealer, HOUSE, table, 5, 5, 20_000, clock(), arrival="rebuy")
    h = hand(session, dealer, table, clock)                  # B2 S3 B4; 5 plays at once
    assert {s.seat_number: s.status for s in h.seats}[5] == "dealt"
    assert postings(h) == "3 small_blind 200; 4 big_blind 500"
    # Busts again at seat 1 and the big blind passes his seat before he is back.
    a = queries.open_assignment(session, table.id, 1)
    seating.leave(session, dealer, HOUSE, a, "busted", 0, clock())
    hand(session, dealer, table, clock)                      # B3 S4 B5
    hand(session, dealer, table, clock)                      # B4 S5 B2: big passed seat 1
    seating.sit(session, dealer, HOUSE, table, 1, 1, 20_000, clock(), arrival="rebuy")
    state = svc.terminal(session, table, HOUSE, clock())
    assert state["seats"][0]["missed"] == ["big"]
    assert state["seats"][0]["owes"].live == 500


def test_a_straddle_is_two_big_blinds_from_the_seat_after_the_big_blind_who_acts_last(session, dealer, table):
    clock = Clock()
    seat_players(session, dealer, table, {1: 1, 2: 2, 3: 3, 4: 4, 5: 5}, clock)
    svc.place_button(session, dealer, table, 1, now=clock())
    h = hand(session, dealer, table, clock)
    assert h.first_to_act == 4
    p = svc.record_straddle(session, dealer, table, h.id, HOUSE, now=clock())
    assert (p.seat_number, p.amount, p.live) == (4, 1000, True)
    assert (h.straddle_seat, h.first_to_act) == (4, 5)
    with pytest.raises(Conflict):
        svc.record_straddle(session, dealer, table, h.id, HOUSE, now=clock())
    h2 = hand(session, dealer, table, clock)
    with pytest.raises(InvalidState):
        svc.record_straddle(session, dealer, table, h.id, HOUSE, now=clock())
    assert h2.straddle_seat is None


def test_fewer_than_two_players_cannot_start_a_hand(session, dealer, table):
    clock = Clock()
    seat_players(session, dealer, table, {1: 1}, clock)
    with pytest.raises(InvalidState):
        hand(session, dealer, table, clock)


def test_moving_the_button_mid_game_needs_a_reason(session, dealer, table):
    clock = Clock()
    seat_players(session, dealer, table, {1: 1, 2: 2, 3: 3}, clock)
    hand(session, dealer, table, clock)
    with pytest.raises(BadInput):
        svc.place_button(session, dealer, table, 3, now=clock())
    svc.place_button(session, dealer, table, 3, reason="button was misplaced", now=clock())
    h = hand(session, dealer, table, clock)
    assert h.button_seat == 3 and not h.new_game


# --- warnings and bans -------------------------------------------------------------------------------

def test_the_third_warning_bans_until_the_end_of_the_gaming_day_and_frees_the_seat(session, dealer, manager, table):
    clock = Clock()
    seat_players(session, dealer, table, {1: 1, 2: 2, 3: 3}, clock)
    omaha = session.execute(select(Table).where(Table.number == 3)).scalar_one()
    seating.sit(session, dealer, HOUSE, omaha, 4, 2, 50_000, clock())
    r1 = conduct.give_warning(session, dealer, 2, "cards_shown_early", HOUSE, table_id=table.id, now=clock())
    r2 = conduct.give_warning(session, manager, 2, "electronic_device", HOUSE, now=clock())
    assert (r1.count, r2.count, r2.ban) == (1, 2, None)
    with pytest.raises(BadInput):
        conduct.give_warning(session, dealer, 2, "other", HOUSE, now=clock())
    r3 = conduct.give_warning(session, dealer, 2, "left_without_word", HOUSE, table_id=table.id, now=clock())
    assert r3.count == 3 and r3.ban is not None
    # 19:xx Zurich on 14 March: the gaming day ends at 06:00 on the 15th (05:00 UTC).
    assert r3.ban.expires_at == datetime(2026, 3, 15, 5, 0, tzinfo=timezone.utc)
    assert sorted((s["table_number"], s["seat"]) for s in r3.freed_seats) == [(1, 2), (3, 4)]
    assert queries.open_assignment(session, table.id, 2) is None
    assert queries.active_ban(session, 2, clock()) is not None
    with pytest.raises(Conflict) as exc:
        conduct.assert_not_banned(session, 2, clock())
    assert exc.value.code == "player_banned"
    conduct.assert_not_banned(session, 1, clock())
    alert = session.execute(select(Alert).where(Alert.kind == "player_banned")).scalar_one()
    assert alert.severity == "critical" and "Bruno Keller" in alert.message
    bans = conduct.active_bans(session, clock())
    assert [(b["player"], b["decided_by_name"]) for b in bans] == [("Bruno Keller", "Dan Dealer")]
    # The ban runs out with the gaming day.
    assert queries.active_ban(session, 2, datetime(2026, 3, 15, 5, 1, tzinfo=timezone.utc)) is None


@pytest.mark.parametrize("how", ["third_warning", "floor_decision"])
def test_a_ban_takes_the_player_off_every_waiting_list(session, dealer, manager, table, how):
    """A banned player must leave the poker area: the lists he waits on close with him, whichever path
    banned him, so nobody calls a banned player to a seat."""
    clock = Clock()
    games = sorted({t.game_id for t in session.execute(select(Table).where(Table.kind == "poker")).scalars()})[:2]
    entries = [waitlist.add(session, manager, g, 5, clock()) for g in games]
    other = waitlist.add(session, manager, games[0], 6, clock())
    if how == "third_warning":
        for reason in ("cards_shown_early", "electronic_device", "left_without_word"):
            result = conduct.give_warning(session, dealer, 5, reason, HOUSE, now=clock())
        assert result.ban is not None
    else:
        now = clock()
        conduct.ban_player(session, manager, HOUSE, 5, "abusive to the dealer", now + timedelta(hours=3), now)
    session.flush()
    for e in entries:
        session.refresh(e)
        assert (e.status, e.closed_reason) == ("removed", "banned") and e.closed_at is not None
    session.refresh(other)
    assert other.closed_at is None
    assert [e.player_id for e in queries.open_entries(session, games[0])] == [6]


def test_lifting_a_warning_and_a_ban_needs_a_reason_and_is_audited(session, dealer, manager):
    clock = Clock()
    for reason in ("cards_shown_early", "electronic_device", "left_without_word"):
        r = conduct.give_warning(session, dealer, 7, reason, HOUSE, now=clock())
    with pytest.raises(BadInput):
        conduct.lift_ban(session, manager, r.ban.id, "")
    conduct.lift_ban(session, manager, r.ban.id, "shift manager's decision", now=clock())
    assert queries.active_ban(session, 7, clock()) is None
    with pytest.raises(Conflict):
        conduct.lift_ban(session, manager, r.ban.id, "again", now=clock())
    w = conduct.lift_warning(session, manager, r.warning.id, "the device was his watch", now=clock())
    assert w.lifted_by == manager.staff_id
    assert conduct.warning_count(session, 7, HOUSE, clock()) == 2
    recs = {r.action: r for r in session.execute(select(AuditRecord)).scalars()}
    assert recs["ban.lift"].actor == "Marc Manager" and "shift manager" in recs["ban.lift"].after
    assert recs["warning.lift"].before and "his watch" in recs["warning.lift"].after


def test_warnings_count_only_inside_the_window(session, dealer):
    # Two warnings yesterday evening and one now: a new gaming day started at 06:00.
    yesterday = T0 - timedelta(hours=20)
    conduct.give_warning(session, dealer, 8, "cards_shown_early", HOUSE, now=yesterday)
    conduct.give_warning(session, dealer, 8, "cards_shown_early", HOUSE, now=yesterday + timedelta(minutes=5))
    r = conduct.give_warning(session, dealer, 8, "cards_shown_early", HOUSE, now=T0)
    assert r.count == 1 and r.ban is None
    hours = replace(HOUSE, warning_window="hours:24")
    assert conduct.warning_count(session, 8, hours, T0) == 3
    with pytest.raises(BadInput):
        conduct.window_start(T0, replace(HOUSE, warning_window="week"))
