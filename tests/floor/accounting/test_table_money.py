"""A table's chips through a shift on SQLite and PostgreSQL: counts verified by a second person,
fill and credit slips signed step by step, buy-ins and the drop, win, hold and the reconciliation."""
from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from floor import accounting, ledger
from floor.errors import BadInput, Conflict, InvalidState, NotAllowed, NotFound
from floor.models import Alert, AuditRecord, ChipSlip, Transfer
from tests.floor.accounting.helpers import People, Wheel
from tests.floor.rounds.helpers import HOUSE, T0, books_balance, fund, tid

OPENING = {"10000": 100, "2500": 40}          # 1,100,000 cents = 11,000.00


def day():
    return accounting.common.day_of(T0, HOUSE)


def verified_count(session, people, table, kind, chips, by=None, verifier=None):
    c = accounting.enter_count(session, by or people.dealer, table, kind, chips, house=HOUSE, at=T0)
    accounting.verify_count(session, verifier or people.pit, c.id, house=HOUSE, at=T0)
    session.commit()
    return c


def fill(session, people, table, chips, kind="fill"):
    slip = accounting.request_slip(session, people.dealer, table, kind, chips, house=HOUSE, at=T0)
    accounting.issue_slip(session, people.cashier, slip.serial, at=T0)
    accounting.receive_slip(session, people.manager, slip.serial, table_id=table, house=HOUSE, at=T0)
    session.commit()
    return slip


# --- counts -----------------------------------------------------------------------------------------

def test_a_count_is_a_count_once_a_second_person_verifies_it(session):
    people, table = People(session), tid(session, 12)
    c = accounting.enter_count(session, people.manager, table, "opening", OPENING, house=HOUSE, at=T0)
    assert c.total == 1_100_000 and not c.verified
    with pytest.raises(NotAllowed) as own:
        accounting.verify_count(session, people.manager, c.id, house=HOUSE)
    assert own.value.code == "own_count"
    with pytest.raises(NotAllowed) as dealer:
        accounting.verify_count(session, people.dealer2, c.id, house=HOUSE)
    assert dealer.value.code == "wrong_role"
    with pytest.raises(NotAllowed):
        accounting.verify_count(session, people.cashier, c.id, house=HOUSE)
    session.commit()
    assert accounting.shifts(session, table, day()) == []        # an unverified count opens nothing
    accounting.verify_count(session, people.pit, c.id, house=HOUSE)
    session.commit()
    assert c.verified_by_name == "Paul Pitboss"
    with pytest.raises(InvalidState):
        accounting.verify_count(session, people.pit2, c.id, house=HOUSE)
    session.rollback()
    assert [s.opening.id for s in accounting.shifts(session, table, day())] == [c.id]
    acts = session.execute(select(AuditRecord.action).where(AuditRecord.subject == f"table:{table}")).scalars().all()
    assert acts[-2:] == ["tray.count", "tray.verify"]


@pytest.mark.parametrize("chips", [
    {"10000": -1}, {"10000": 1.5}, {"10000": True}, {"2000": 1}, {"abc": 1}, {"10000": 10**9}, [1, 2], "5",
    {"١٠٠": 1},            # Arabic-Indic digits are not a denomination
])
def test_absurd_counts_are_refused_and_nothing_is_written(session, chips):
    people, table = People(session), tid(session, 12)
    with pytest.raises(BadInput):
        accounting.enter_count(session, people.dealer, table, "opening", chips, house=HOUSE)
    with pytest.raises(BadInput):
        accounting.request_slip(session, people.dealer, table, "fill", chips, house=HOUSE)
    session.rollback()
    assert session.execute(select(func.count(ChipSlip.id))).scalar_one() == 0


def test_a_count_shows_its_difference_from_what_the_ledger_says_the_tray_holds(session):
    people, table = People(session), tid(session, 12)
    verified_count(session, people, table, "opening", OPENING)
    fill(session, people, table, {"10000": 5})                                  # +50,000
    accounting.record_buy_in(session, people.dealer, table, 20_000, "cash", seat=2, house=HOUSE, at=T0)   # -20,000
    session.commit()
    right = accounting.enter_count(session, people.dealer, table, "interim", {"10000": 103, "2500": 40}, house=HOUSE)
    short = accounting.enter_count(session, people.dealer, table, "interim", {"10000": 103, "2500": 39}, house=HOUSE)
    session.commit()
    assert accounting.view(session, right).expected == 1_130_000 and accounting.view(session, right).difference == 0
    assert accounting.view(session, short).difference == -2_500


# --- fills and credits ------------------------------------------------------------------------------

def test_a_fill_moves_the_chips_only_when_received_and_each_step_has_its_own_signer(session):
    people, table = People(session), tid(session, 12)
    cage, tray = ledger.cage_account(session), ledger.table_account(session, table, "tray")
    before = ledger.balance(session, cage), ledger.balance(session, tray)
    slip = accounting.request_slip(session, people.dealer, table, "fill", {"10000": 5, "2500": 4}, house=HOUSE)
    assert (slip.total, slip.state, slip.chips) == (60_000, "requested", {"2500": 4, "10000": 5})
    with pytest.raises(NotAllowed):                      # a dealer does not issue from the cage
        accounting.issue_slip(session, people.dealer2, slip.serial)
    with pytest.raises(InvalidState) as early:
        accounting.receive_slip(session, people.dealer, slip.serial, house=HOUSE)
    assert early.value.code == "slip_not_issued"
    accounting.issue_slip(session, people.cashier, slip.serial)
    session.commit()
    assert (ledger.balance(session, cage), ledger.balance(session, tray)) == before       # not yet
    with pytest.raises(NotAllowed):                      # the cage does not sign the table's receipt
        accounting.receive_slip(session, people.cashier, slip.serial, house=HOUSE)
    with pytest.raises(NotFound):                        # another table's terminal cannot receive it
        accounting.receive_slip(session, people.dealer, slip.serial, table_id=tid(session, 10), house=HOUSE)
    accounting.receive_slip(session, people.dealer, slip.serial, table_id=table, house=HOUSE)
    session.commit()
    assert ledger.balance(session, tray) == before[1] + 60_000
    assert ledger.balance(session, cage) == before[0] - 60_000
    assert (slip.requested_by_name, slip.issued_by_name, slip.received_by_name) == ("Dan Dealer", "Cleo Cashier",
                                                                                    "Dan Dealer")
    t = session.get(Transfer, slip.transfer_id)
    assert (t.kind, t.amount, t.from_account_id, t.to_account_id) == ("fill", 60_000, cage, tray)
    books_balance(session)


def test_a_credit_goes_from_the_tray_to_the_cage(session):
    people, table = People(session), tid(session, 12)
    tray = ledger.table_account(session, table, "tray")
    before = ledger.balance(session, tray)
    fill(session, people, table, {"50000": 2}, kind="credit")
    assert ledger.balance(session, tray) == before - 100_000
    books_balance(session)


def test_double_tap_on_receive_moves_the_chips_once(session):
    people, table = People(session), tid(session, 12)
    slip = accounting.request_slip(session, people.dealer, table, "fill", {"10000": 1}, house=HOUSE)
    accounting.issue_slip(session, people.cashier, slip.serial)
    accounting.receive_slip(session, people.dealer, slip.serial, house=HOUSE)
    session.commit()
    with pytest.raises(InvalidState) as again:
        accounting.receive_slip(session, people.dealer, slip.serial, house=HOUSE)
    assert again.value.code == "slip_received"
    session.rollback()
    fills = session.execute(select(func.count(Transfer.id)).where(Transfer.kind == "fill")).scalar_one()
    assert fills == 1


def test_a_slip_is_cancelled_with_a_reason_until_received_never_after(session):
    people, table = People(session), tid(session, 12)
    a = accounting.request_slip(session, people.dealer, table, "fill", {"10000": 1}, house=HOUSE)
    with pytest.raises(BadInput):
        accounting.cancel_slip(session, people.dealer, a.serial, "   ")
    accounting.issue_slip(session, people.cashier, a.serial)
    accounting.cancel_slip(session, people.cashier, a.serial, "wrong table")
    session.commit()
    assert (a.state, a.cancel_reason, a.cancelled_by_name) == ("cancelled", "wrong table", "Cleo Cashier")
    with pytest.raises(InvalidState):
        accounting.receive_slip(session, people.dealer, a.serial, house=HOUSE)
    session.rollback()
    b = fill(session, people, table, {"10000": 1})
    with pytest.raises(InvalidState) as late:
        accounting.cancel_slip(session, people.pit, b.serial, "changed my mind")
    assert late.value.code == "slip_received"
    session.rollback()
    assert session.execute(select(func.count(Transfer.id)).where(Transfer.kind == "fill")).scalar_one() == 1


def test_serials_never_repeat_and_never_skip(session):
    people, table = People(session), tid(session, 12)
    first = accounting.request_slip(session, people.dealer, table, "fill", {"100": 1}, house=HOUSE).serial
    session.commit()
    accounting.request_slip(session, people.dealer, table, "fill", {"100": 1}, house=HOUSE)
    session.rollback()                                   # a request that did not happen uses no serial
    for _ in range(3):
        s = accounting.request_slip(session, people.dealer, table, "credit", {"100": 1}, house=HOUSE)
        accounting.cancel_slip(session, people.dealer, s.serial, "test")
        session.commit()
    serials = session.execute(select(ChipSlip.serial).order_by(ChipSlip.serial)).scalars().all()
    assert serials == list(range(first, first + 4))


def test_the_cage_issues_what_another_account_requested(session):
    people, table = People(session), tid(session, 12)
    slip = accounting.request_slip(session, people.pit, table, "fill", {"100": 1}, house=HOUSE)
    assert [s.serial for s in accounting.cage_queue(session)] == [slip.serial]
    with pytest.raises(NotAllowed):
        accounting.request_slip(session, people.cashier, table, "fill", {"100": 1}, house=HOUSE)


# --- the drop ---------------------------------------------------------------------------------------

def test_a_buy_in_moves_chips_from_the_tray_and_refuses_nonsense(session):
    people, table = People(session), tid(session, 12)
    tray, chips = ledger.table_account(session, table, "tray"), ledger.table_account(session, table, "chips")
    b0 = ledger.balance(session, tray), ledger.balance(session, chips)
    accounting.record_buy_in(session, people.dealer, table, 50_000, "marker", seat=3, player_id=1, house=HOUSE)
    session.commit()
    assert (ledger.balance(session, tray), ledger.balance(session, chips)) == (b0[0] - 50_000, b0[1] + 50_000)
    for amount, method, seat in [(-100, "cash", 1), (0, "cash", 1), (10.5, "cash", 1), (True, "cash", 1),
                                 (10**12, "cash", 1), (100, "cheque", 1), (100, "cash", 99), (100, "cash", 0)]:
        with pytest.raises(BadInput):
            accounting.record_buy_in(session, people.dealer, table, amount, method, seat=seat, house=HOUSE)
        session.rollback()
    with pytest.raises(NotFound):
        accounting.record_buy_in(session, people.dealer, tid(session, 1), 100, house=HOUSE)   # a poker table


def test_the_drop_is_counted_by_two_people_once_per_table_and_day(session):
    people, table = People(session), tid(session, 12)
    accounting.record_buy_in(session, people.dealer, table, 30_000, house=HOUSE, at=T0)
    d = accounting.enter_drop_count(session, people.cashier, table, day(), 29_000, house=HOUSE)
    with pytest.raises(NotAllowed):
        accounting.verify_drop_count(session, people.cashier, d.id)
    with pytest.raises(NotAllowed):
        accounting.enter_drop_count(session, people.dealer, table, day(), 1, house=HOUSE)
    session.commit()
    figures = accounting.sheet.table_day(session, accounting.common.live_table(session, table), day())
    assert figures.counted_drop is None                  # not verified: not a count
    accounting.verify_drop_count(session, people.pit, d.id)
    session.commit()
    with pytest.raises(Conflict):
        accounting.enter_drop_count(session, people.pit, table, day(), 29_000, house=HOUSE)
    session.rollback()
    figures = accounting.sheet.table_day(session, accounting.common.live_table(session, table), day())
    assert (figures.recorded_drop, figures.counted_drop, figures.drop_difference) == (30_000, 29_000, -1_000)


# --- win, hold and the reconciliation with the rounds -------------------------------------------------

def play_shift(session, people, short_pay: int = 0, closing_short: int = 0):
    """Open, buy in, two fills, a credit, spins with seat bets (and a remote player's balance bets),
    and close with the tray as the chips say it is."""
    table = tid(session, 12)
    fund(session, 1, 100_000)
    tray = ledger.table_account(session, table, "tray")
    verified_count(session, people, table, "opening", OPENING)
    physical = 1_100_000
    accounting.record_buy_in(session, people.dealer, table, 40_000, "cash", seat=1, house=HOUSE, at=T0)
    accounting.record_buy_in(session, people.dealer, table, 10_000, "marker", seat=2, house=HOUSE, at=T0)
    session.commit()
    physical -= 50_000
    fill(session, people, table, {"10000": 10})
    fill(session, people, table, {"2500": 8})
    fill(session, people, table, {"50000": 1}, kind="credit")
    physical += 100_000 + 20_000 - 50_000
    wheel = Wheel(session, table)
    rounds_win = 0
    for number, seat_bets in [(17, [(1, "straight", [17], 1_000), (2, "red", None, 5_000)]),
                              (20, [(1, "black", None, 10_000), (2, "dozen", list(range(1, 13)), 2_500)]),
                              (4, [(1, "black", None, 5_000)])]:
        before = ledger.balance(session, tray)
        wheel.spin(number, seat_bets, player_bets=[(1, "red", None, 1_000)], dealer=people.dealer)
        # what the tray account moved, less the remote player's bet (no chip): the seat bets' result
        remote = 1_000                                     # 17, 20 and 4 are black: red loses
        rounds_win += ledger.balance(session, tray) - before - remote
    physical += rounds_win + short_pay
    closing = physical - closing_short
    assert closing % 100 == 0
    verified_count(session, people, table, "closing", {"100": closing // 100})
    return table, rounds_win


def test_a_shift_played_through_the_floor_reconciles_to_zero(session):
    people = People(session)
    table, rounds_win = play_shift(session, people)
    [shift] = accounting.shifts(session, table, day())
    rec = shift.reconciliation
    assert rounds_win == 1_000 * -35 + 5_000 - 10_000 + 2_500 - 5_000 == -42_500
    assert (rec.drop, rec.fills, rec.credits) == (50_000, 120_000, 50_000)
    assert rec.rounds_win == rounds_win and rec.inventory_win == rounds_win and rec.difference == 0
    assert len(shift.moves.round_ids) == 3
    fig = accounting.sheet.table_day(session, accounting.common.live_table(session, table), day())
    assert (fig.win, fig.difference, fig.hold_bp) == (-42_500, 0, -8_500)          # -85.00 %
    assert session.execute(select(func.count(Alert.id)).where(Alert.kind == "table_reconciliation")).scalar_one() == 0
    books_balance(session)


def test_a_payout_25_short_shows_25_and_alerts_the_pit_with_the_rounds_and_counts(session):
    people = People(session)
    table, _ = play_shift(session, people, short_pay=2_500)
    [shift] = accounting.shifts(session, table, day())
    assert shift.reconciliation.difference == 2_500
    alert = session.execute(select(Alert).where(Alert.kind == "table_reconciliation")).scalar_one()
    assert alert.table_id == table and alert.data["difference"] == 2_500
    assert alert.data["counts"] == [shift.opening.id, shift.closing.id]
    assert sorted(alert.data["rounds"]) == sorted(shift.moves.round_ids)
    assert "differ by 25.00" in alert.message


def test_a_closing_count_25_short_shows_minus_25(session):
    people = People(session)
    table, _ = play_shift(session, people, closing_short=2_500)
    [shift] = accounting.shifts(session, table, day())
    assert shift.reconciliation.difference == -2_500
    assert session.execute(select(func.count(Alert.id)).where(Alert.kind == "table_reconciliation")).scalar_one() == 1


def test_a_difference_within_the_house_threshold_raises_no_alert(session):
    from dataclasses import replace
    people = People(session)
    table = tid(session, 12)
    verified_count(session, people, table, "opening", OPENING)
    c = accounting.enter_count(session, people.dealer, table, "closing", {"10000": 100, "2500": 40, "500": 2},
                               house=HOUSE, at=T0 + timedelta(hours=1))
    accounting.verify_count(session, people.pit, c.id, house=replace(HOUSE, table_reconciliation_alert_cents=1_000))
    session.commit()
    [shift] = accounting.shifts(session, table, day())
    assert shift.reconciliation.difference == 1_000
    assert session.execute(select(func.count(Alert.id)).where(Alert.kind == "table_reconciliation")).scalar_one() == 0


def test_a_slip_is_approved_by_a_second_person_never_the_one_who_asked(session):
    people, table = People(session), tid(session, 12)
    slip = accounting.request_slip(session, people.pit, table, "fill", {"100000": 20}, house=HOUSE)
    with pytest.raises(NotAllowed) as own:
        accounting.approve_slip(session, people.pit, slip.serial)
    assert own.value.code == "own_request"
    with pytest.raises(NotAllowed):
        accounting.approve_slip(session, people.dealer, slip.serial)          # a dealer is no second person
    with pytest.raises(NotAllowed):
        accounting.approve_slip(session, people.cashier, slip.serial)
    accounting.approve_slip(session, people.pit2, slip.serial)
    session.commit()
    assert slip.approved_by_name == "Petra Pitboss"
    with pytest.raises(InvalidState) as twice:
        accounting.approve_slip(session, people.manager, slip.serial)
    assert twice.value.code == "already_approved"
    session.rollback()
    accounting.issue_slip(session, people.cashier, slip.serial)
    accounting.receive_slip(session, people.dealer, slip.serial, house=HOUSE)
    session.commit()
    done = fill(session, people, table, {"100": 1})
    with pytest.raises(InvalidState) as late:               # received: nothing left to approve
        accounting.approve_slip(session, people.manager, done.serial)
    assert late.value.code == "slip_received"


# --- the two-person rule, from the ledger's one check ---------------------------------------------------

def test_a_slip_above_the_threshold_moves_nothing_without_its_second_person(session):
    from dataclasses import replace
    house = replace(HOUSE, slip_two_person_cents=100_000)
    people, table = People(session), tid(session, 12)
    tray = ledger.table_account(session, table, "tray")
    before = ledger.balance(session, tray)
    slip = accounting.request_slip(session, people.dealer, table, "fill", {"100000": 2}, house=house)
    accounting.issue_slip(session, people.cashier, slip.serial)
    session.commit()
    with pytest.raises(Conflict) as alone:
        accounting.receive_slip(session, people.dealer, slip.serial, house=house)
    assert alone.value.code == "two_person_rule"
    session.rollback()
    assert ledger.balance(session, tray) == before and slip.state == "issued"
    accounting.approve_slip(session, people.pit, slip.serial)
    session.commit()
    with pytest.raises(NotAllowed) as same:                 # the approver cannot be the one receiving it
        accounting.receive_slip(session, people.pit, slip.serial, house=house)
    assert same.value.code == "own_request"
    session.rollback()
    accounting.receive_slip(session, people.dealer, slip.serial, house=house)
    session.commit()
    assert ledger.balance(session, tray) == before + 200_000
    small = accounting.request_slip(session, people.dealer, table, "credit", {"100000": 1}, house=house)
    accounting.issue_slip(session, people.cashier, small.serial)
    accounting.receive_slip(session, people.dealer, small.serial, house=house)     # at the threshold: alone
    session.commit()
    books_balance(session)


def test_small_slips_add_up_per_person_and_day_to_the_same_rule(session):
    from dataclasses import replace
    house = replace(HOUSE, slip_two_person_cents=1_000_000, actor_day_two_person_cents=250_000)
    people, table = People(session), tid(session, 12)
    for _ in range(2):
        fill_slip = accounting.request_slip(session, people.dealer, table, "fill", {"100000": 1}, house=house)
        accounting.issue_slip(session, people.cashier, fill_slip.serial)
        accounting.receive_slip(session, people.manager, fill_slip.serial, house=house)
        session.commit()
    third = accounting.request_slip(session, people.dealer, table, "fill", {"100000": 1}, house=house)
    accounting.issue_slip(session, people.cashier, third.serial)
    session.commit()
    with pytest.raises(Conflict) as over:                   # 300,000 by one person in the day
        accounting.receive_slip(session, people.manager, third.serial, house=house)
    assert over.value.code == "two_person_rule"
    session.rollback()
    accounting.receive_slip(session, people.dealer2, third.serial, house=house)    # another person: his own count
    session.commit()


# --- a count at each dealer change (the house's count_at_dealer_change) ------------------------------

def test_a_new_dealer_owes_a_count_of_the_tray_until_one_is_entered(session):
    from dataclasses import replace

    from floor import dealers
    counting = replace(HOUSE, count_at_dealer_change=True)
    people, table = People(session), tid(session, 12)
    dealers.take_table(session, people.manager, people.dealer.staff_id, table, T0 - timedelta(minutes=30))
    session.commit()
    assert accounting.count_due(session, table, counting) is None          # no shift open yet
    accounting.enter_count(session, people.dealer, table, "opening", OPENING, house=counting, at=T0)
    session.commit()
    assert accounting.count_due(session, table, counting) is None          # the opening count is his

    dealers.take_table(session, people.manager, people.dealer2.staff_id, table, T0 + timedelta(minutes=20))
    session.commit()
    due = accounting.count_due(session, table, counting)
    assert due is not None and due.dealer_name == "Dora Dealer" and due.since == T0 + timedelta(minutes=20)
    assert accounting.count_due(session, table, HOUSE) is None               # a house that does not count at a change
    sheet = accounting.table_sheet(session, table, day(), counting)
    assert sheet.count_due == due
    assert accounting.table_sheet(session, table, day()).count_due is None   # a past day's view says nothing of now

    accounting.enter_count(session, people.dealer2, table, "interim", OPENING, house=counting,
                           at=T0 + timedelta(minutes=21))
    session.commit()
    assert accounting.count_due(session, table, counting) is None          # counted (the verification may follow)

    dealers.take_table(session, people.manager, people.dealer.staff_id, table, T0 + timedelta(minutes=50))
    session.commit()
    assert accounting.count_due(session, table, counting).dealer_name == "Dan Dealer"
    accounting.enter_count(session, people.dealer, table, "closing", OPENING, house=counting,
                           at=T0 + timedelta(minutes=55))
    session.commit()
    c = accounting.count_due(session, table, counting)
    assert c is None, c                                                       # counted at the closing
