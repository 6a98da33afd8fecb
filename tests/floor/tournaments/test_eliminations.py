"""Places on one hand with equal chips, each bounty kind, the guarantee's overlay, the winner, cancellation."""
from __future__ import annotations

from datetime import timedelta

import pytest

from floor import ledger
from floor.errors import BadInput, InvalidState
from floor.games import tournament as rules
from floor.models import TournamentDraw
from floor.tournaments import cancellation, clock, core, deals, eliminations, registration
from floor.settings import HouseSettings
from tests.floor.tournaments.helpers import HOUSE, T0, manager, players, tables, tournament, cancelled, approve_deal
from tests.money import cash_in

CLOSED = T0 + timedelta(minutes=101)   # the turbo's late registration is over


def _running(session, count, **values):
    m = manager(session)
    t = tournament(session, **values)
    for p in players(session, count):
        registration.register(session, m, HOUSE, t.id, p, "cash", T0)
    clock.start(session, m, t.id, T0)
    return m, t


def test_equal_chips_on_one_hand_go_by_seat_order_from_the_button(session):
    m, t = _running(session, 6, table_numbers=tables(session, (41,)))
    tt = core.tables(session, t)[0]
    seated = sorted(core.entries(session, t, "seated"), key=lambda e: e.seat)
    button = seated[0].seat
    a, b, w = seated[1], seated[2], seated[3]     # a sits nearer the button's left than b
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": b.id, "chips_at_start": 5_000},
                                                {"entry_id": a.id, "chips_at_start": 5_000}], [w.id],
                      button_seat=button, now=CLOSED)
    assert (a.place, b.place) == (5, 6)
    assert tt.button_seat is not None


def test_progressive_bounty_half_in_cash_half_onto_the_winners_head(session):
    m, t = _running(session, 4, table_numbers=tables(session, (41,)), bounty_kind="progressive", bounty=2_001)
    a, b, c, d = core.entries(session, t, "seated")
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": a.id, "chips_at_start": 100}], [b.id], now=CLOSED)
    assert (b.bounties_won, b.bounty) == (1_001, 3_001)      # the odd cent paid now
    assert ledger.player_balance(session, b.player_id) == 1_001
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": b.id, "chips_at_start": 100}], [c.id, d.id], now=CLOSED)
    awards = rules.progressive_awards(3_001, [c.id, d.id], cash_percent=50)
    assert [c.bounties_won, d.bounties_won] == [x.cash for x in awards]
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": c.id, "chips_at_start": 100}], [d.id], now=CLOSED)
    assert t.status == "finished" and d.place == 1
    assert ledger.balance(session, core.account(session, t, "bounties")) == 0
    assert sum(e.bounties_won for e in (a, b, c, d)) == 4 * 2_001
    assert ledger.check(session).ok


def test_mystery_envelopes_are_drawn_in_the_money_from_a_recorded_seed(session):
    m, t = _running(session, 4, table_numbers=tables(session, (41,)), bounty_kind="mystery", bounty=1_000,
                    mystery_envelopes=[2_000, 1_000, 500, 500])
    a, b, c, d = core.entries(session, t, "seated")
    # 4 entries pay two places: the first knock-out (4th place) wins nothing
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": a.id, "chips_at_start": 100}], [b.id], now=CLOSED)
    assert b.bounties_won == 0
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": c.id, "chips_at_start": 100}], [b.id], now=CLOSED)
    drawn = session.query(TournamentDraw).filter_by(tournament_id=t.id, kind="mystery").one()
    again = rules.draw_mystery_bounty(rules.Draw(drawn.seed_hex, drawn.label), [2_000, 1_000, 500, 500], [b.id])
    assert b.bounties_won == again.amount == drawn.result["amount"]
    assert t.mystery_envelopes == list(again.envelopes_left)


def test_the_house_covers_the_guarantee_before_the_first_prize(session):
    m, t = _running(session, 3, table_numbers=tables(session, (41,)), guarantee=100_000)
    a, b, c = core.entries(session, t, "seated")
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": a.id, "chips_at_start": 100}], [b.id], now=CLOSED)
    assert a.prize == 0   # three entries pay two places
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": b.id, "chips_at_start": 100}], [c.id], now=CLOSED)
    assert (c.prize, b.prize) == rules.payouts(100_000, 3, rules.STANDARD_PAYOUTS, unit=100)   # first, second
    assert ledger.balance(session, core.account(session, t, "overlay")) == -(100_000 - 30_000)
    assert ledger.balance(session, core.account(session, t, "prize_pool")) == 0
    assert ledger.check(session).ok


def test_bad_busts_are_refused_and_change_nothing(session):
    m, t = _running(session, 4, table_numbers=tables(session, (41,)), bounty_kind="knockout", bounty=1_000)
    a, b, c, d = core.entries(session, t, "seated")
    for busts, winners, field in (
        ([], [b.id], "busts"),
        ([{"entry_id": a.id, "chips_at_start": 0}], [b.id], "chips_at_start"),
        ([{"entry_id": a.id, "chips_at_start": 10}, {"entry_id": a.id, "chips_at_start": 10}], [b.id], "busts"),
        ([{"entry_id": a.id, "chips_at_start": 10}], [a.id], "winners"),
        ([{"entry_id": a.id, "chips_at_start": 10}], [], "winners"),
    ):
        with pytest.raises(BadInput) as exc:
            eliminations.bust(session, m, HOUSE, t.id, busts, winners, now=CLOSED)
        assert exc.value.field == field
    assert all(e.status == "seated" for e in (a, b, c, d))


def test_a_deal_before_the_money_is_refused_and_a_save_leaves_play_going(session):
    m, t = _running(session, 4, table_numbers=tables(session, (41,)))
    a, b, c, d = core.entries(session, t, "seated")
    with pytest.raises(InvalidState) as exc:
        deals.offer(session, m, HOUSE, t.id, "icm", {e.id: 1_000 for e in (a, b, c, d)}, now=CLOSED)
    assert exc.value.code == "deal_before_money"
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": a.id, "chips_at_start": 100}], [b.id], now=CLOSED)
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": b.id, "chips_at_start": 100}], [c.id], now=CLOSED)
    pays = core.payouts(session, t, 100)
    d_ = deals.offer(session, m, HOUSE, t.id, "chip_chop", {c.id: 30_000, d.id: 50_000}, save=1_000, now=CLOSED)
    assert d_.amounts == list(rules.deal([30_000, 50_000], list(pays), method="chip_chop", save=1_000).amounts)
    for e in (c, d):
        deals.agree(session, m, HOUSE, t.id, d_.id, e.id, now=CLOSED)
    approve_deal(session, t, d_, now=CLOSED)
    assert t.status == "running"
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": c.id, "chips_at_start": 100}], [d.id], now=CLOSED)
    assert t.status == "finished" and d.prize == d_.amounts[1] + 1_000 and c.prize == d_.amounts[0]
    assert ledger.balance(session, core.account(session, t, "prize_pool")) == 0


def test_cancelled_before_the_start_everyone_gets_everything_back(session):
    m = manager(session)
    t = tournament(session, bounty_kind="knockout", bounty=1_000)
    ids = players(session, 3)
    cash_in(session, ids[0], 50_000, house=HOUSE)
    registration.register(session, m, HOUSE, t.id, ids[0], "balance", T0)
    registration.register(session, m, HOUSE, t.id, ids[1], "cash", T0)
    out = cancelled(session, m, HOUSE, t.id, "not enough players", now=T0)
    assert out["rule"] == "refund" and len(out["refunded"]) == 2
    assert ledger.player_balance(session, ids[0]) == 50_000
    for kind in ("prize_pool", "fees", "bounties"):
        assert ledger.balance(session, core.account(session, t, kind)) == 0
    assert t.status == "cancelled"


def test_cancelled_while_running_the_players_left_share_by_the_house_rule(session):
    m, t = _running(session, 5, table_numbers=tables(session, (41,)), bounty_kind="knockout", bounty=1_000)
    a, b, c, d, e = core.entries(session, t, "seated")
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": a.id, "chips_at_start": 100}], [b.id], now=CLOSED)
    stacks = {b.id: 40_000, c.id: 30_000, d.id: 20_000, e.id: 10_000}
    expected = cancellation.plan(session, HOUSE, t, stacks)
    out = cancelled(session, m, HOUSE, t.id, "fire alarm", stacks, now=CLOSED)
    assert out["rule"] == "fees_and_bounty_back"
    assert [s["total"] for s in out["shares"]] == [s.total for s in expected.shares]
    assert ledger.balance(session, core.account(session, t, "prize_pool")) == 0
    assert ledger.balance(session, core.account(session, t, "bounties")) == 0
    assert ledger.balance(session, core.account(session, t, "fees")) == 5 * 1_500 - 4 * 1_500
    assert a.prize == 0 and t.status == "cancelled"
    assert ledger.check(session).ok


@pytest.mark.parametrize("policy, paused", [("pause", True), ("none", False)])
def test_on_the_bubble_with_late_registration_open_the_house_may_stop_the_clock(session, policy, paused):
    house = HouseSettings.from_mapping(HOUSE.as_dict() | {"tournament_bubble_policy": policy})
    m, t = _running(session, 4, table_numbers=tables(session, (41,)))
    a, b, c, d = core.entries(session, t, "seated")
    at = T0 + timedelta(minutes=30)      # late registration open; four entries pay two places
    eliminations.bust(session, m, house, t.id, [{"entry_id": a.id, "chips_at_start": 100}], [b.id], now=at)
    state = clock.state(session, t, at, 100)
    assert state["paused"] is paused
    if paused:
        assert state["pause_reason"] == eliminations.BUBBLE_PAUSE
        clock.resume(session, m, t.id, at + timedelta(minutes=2))


def test_the_dealer_terminal_posts_the_clock_level_and_heads_up_the_button_posts_the_small_blind(session):
    from floor.tournaments import results
    m, t = _running(session, 3, table_numbers=tables(session, (41,)))
    tt = core.tables(session, t)[0]
    a, b, c = sorted(core.entries(session, t, "seated"), key=lambda e: e.seat)
    tt.button_seat = a.seat
    view = results.at_table(session, HOUSE, t, tt.table, now=T0 + timedelta(minutes=5))     # level 1: 100/200
    assert not view.hand.heads_up
    assert [(p.seat, p.what, p.amount) for p in view.hand.postings] == [
        (b.seat, "small_blind", 100), (c.seat, "big_blind", 200)]
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": c.id, "chips_at_start": 100}], [b.id], now=CLOSED)
    a.chips, b.chips = 30_000, 30_000
    at = T0 + timedelta(minutes=101 + 2)                   # level 7 on the clock: 500/1000, big-blind ante 1000
    state = clock.state(session, t, at, 100)
    view = results.at_table(session, HOUSE, t, tt.table, now=at)
    h = view.hand
    assert h.heads_up and h.button == h.small_blind_seat == h.first_preflop == a.seat
    assert h.big_blind_seat == h.first_postflop == b.seat
    assert [(p.seat, p.what, p.amount) for p in h.postings] == [
        (a.seat, "small_blind", state["small_blind"]), (b.seat, "big_blind", state["big_blind"]),
        (b.seat, "ante", state["ante"])]
    assert (state["small_blind"], state["big_blind"], state["ante"]) == (500, 1_000, 1_000)


def test_each_mystery_envelope_is_drawn_at_its_knock_out_and_every_draw_can_be_redone(session):
    envelopes = [5_000, 2_000, 1_000, 500, 500]
    m, t = _running(session, 5, table_numbers=tables(session, (41,)), bounty_kind="mystery", bounty=1_000,
                    mystery_envelopes=envelopes)
    a, b, c, d, e = core.entries(session, t, "seated")
    # five entries pay two places: envelopes are won from the knock-out that leaves two (the money) on,
    # one draw per knock-out from the envelopes still in
    for out, winner in ((a, e), (b, e), (c, e), (d, e)):
        eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": out.id, "chips_at_start": 100}], [winner.id], now=CLOSED)
    draws = session.query(TournamentDraw).filter_by(tournament_id=t.id, kind="mystery").order_by(TournamentDraw.id).all()
    assert [d_.result["entry_id"] for d_ in draws] == [c.id, d.id]
    assert draws[0].result["envelopes"] == envelopes
    left = envelopes
    for d_ in draws:      # a dispute: redo each draw from its seed, label and the envelopes it was drawn from
        again = rules.draw_mystery_bounty(rules.Draw(d_.seed_hex, d_.label), d_.result["envelopes"], d_.result["winners"])
        assert d_.result["envelopes"] == left and again.amount == d_.result["amount"]
        left = list(again.envelopes_left)
    assert t.mystery_envelopes == left and len(left) == 3
    assert e.bounties_won == sum(d_.result["amount"] for d_ in draws)
    assert ledger.check(session).ok


def test_the_bubble_pause_is_short_it_resumes_by_itself_unless_the_floor_did(session):
    from floor.jobs import JOBS
    from floor.models import Timer
    house = HouseSettings.from_mapping(HOUSE.as_dict() | {"tournament_bubble_policy": "pause",
                                                          "tournament_bubble_pause_minutes": 3})
    m, t = _running(session, 4, table_numbers=tables(session, (41,)))
    a, b, c, d = core.entries(session, t, "seated")
    at = T0 + timedelta(minutes=30)
    eliminations.bust(session, m, house, t.id, [{"entry_id": a.id, "chips_at_start": 100}], [b.id], now=at)
    timer = session.query(Timer).filter_by(key=f"tournament:{t.id}:bubble", status="pending").one()
    assert timer.job == eliminations.BUBBLE_RESUME_JOB and timer.due_at == at + timedelta(minutes=3)
    JOBS[timer.job](session, house, *timer.args, now=timer.due_at)      # what the scheduler runs
    state = clock.state(session, t, at + timedelta(minutes=4), 100)
    assert not state["paused"]
    assert clock.elapsed(session, t, at + timedelta(minutes=4)) == 30 * 60 + 60     # three minutes stood still
    # a floor pause for another reason is not ended by a late bubble timer
    clock.pause(session, m, t.id, "dealer change", at + timedelta(minutes=5))
    assert not eliminations.bubble_resume(session, t.id, at + timedelta(minutes=6))
    assert clock.state(session, t, at + timedelta(minutes=6), 100)["paused"]
