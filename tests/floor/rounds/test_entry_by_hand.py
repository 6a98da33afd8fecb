"""Playing on by hand when a table's device fails: the pit boss's switch, the result keyed at the
terminal, the second person's confirmation before anything settles, the device's readings kept
but not used, and the marks in the wheel's statistics and the ratings."""
from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import sessionmaker

from devices.dispatch import RoundsDispatch
from devices.wheel import WheelStatus
from floor import ledger, rounds
from floor.actors import Actor
from floor.errors import BadInput, Conflict, NotAllowed
from floor.models import Alert, AuditRecord, DeviceFrame, Round, RoundEvent, Settlement, Staff
from floor.pit import ratings, wheel_watch
from floor.rounds import bets, hand
from floor.settings import HouseSettings
from tests.floor.rounds.helpers import HOUSE, T0, at, bet_returns, books_balance, event, fund, tid


def person(session, username: str) -> Actor:
    s = session.execute(select(Staff).where(Staff.username == username)).scalar_one()
    return Actor(s.name, s.role, f"{username}-tablet", s.id)


def _settlements(session, rid: int) -> int:
    return session.execute(select(func.count(Settlement.id)).where(Settlement.round_id == rid)).scalar_one()


def _spin_keyed(session, table, number: int, dealer: Actor, start: float = 0, bet_on=17, player=1):
    r = rounds.open_betting(session, dealer, table, at(start), house=HOUSE)
    session.commit()
    b, _ = bets.place(session, dealer, table, spot="straight", numbers=[bet_on], amount=1_000, player_id=player,
                      at=at(start + 1), house=HOUSE)
    session.commit()
    rounds.close_betting(session, dealer, table, at(start + 2))
    session.commit()
    event(session, hand.key_number, dealer, table, number, at(start + 3))
    return r.id, b.id


def test_a_number_keyed_by_hand_settles_only_once_a_second_person_confirms(session):
    table = tid(session, 12)
    pit, dealer, manager = person(session, "pitboss"), person(session, "dealer"), person(session, "manager")
    fund(session, 1, 10_000)
    hand.switch(session, pit, table, True, "wheel lost mid-shift", at(-1))
    session.commit()
    rid, bid = _spin_keyed(session, table, 17, dealer)
    session.expire_all()
    r = session.get(Round, rid)
    assert r.status == "locked" and r.result is None and _settlements(session, rid) == 0
    assert r.device["keyed"]["result"]["number"] == 17
    assert ledger.player_balance(session, 1) == 9_000          # the stake is in play, nothing paid

    # the dealer who keyed it, or anybody not floor manager or pit boss, cannot confirm
    with pytest.raises(NotAllowed):
        hand.confirm(session, dealer, rid, at(4))
    session.rollback()
    out = hand.confirm(session, manager, rid, at(5))
    rounds.commit_then_settle(session, out, house=HOUSE)
    # a second tap settles nothing more
    again = hand.confirm(session, person(session, "pitboss2"), rid, at(6))
    assert again.settle is None
    rounds.commit_then_settle(session, again, house=HOUSE)
    session.expire_all()
    r = session.get(Round, rid)
    assert r.status == "settled" and r.result["number"] == 17 and r.result["by_hand"] is True
    assert r.result["hand_entry"] == {"keyed_by": ["Dan Dealer"], "confirmed_by": "Marc Manager"}
    assert _settlements(session, rid) == 1
    assert bet_returns(session, bid, ledger.player_account(session, 1)) == 36_000
    assert ledger.player_balance(session, 1) == 9_000 + 36_000
    kinds = session.execute(select(RoundEvent.kind).where(RoundEvent.round_id == rid).order_by(RoundEvent.id)).scalars().all()
    assert "keyed_by_hand" in kinds and "entered_by_hand" in kinds
    books_balance(session)


def test_who_keyed_does_not_confirm_and_a_pit_boss_who_keyed_is_no_second_person(session):
    table = tid(session, 12)
    pit, pit2 = person(session, "pitboss"), person(session, "pitboss2")
    fund(session, 1, 10_000)
    hand.switch(session, pit, table, True, "wheel faulty", at(-1))
    session.commit()
    rid, _ = _spin_keyed(session, table, 5, pit)
    with pytest.raises(NotAllowed) as e:
        hand.confirm(session, pit, rid, at(5))
    assert e.value.code == "same_person"
    session.rollback()
    rounds.commit_then_settle(session, hand.confirm(session, pit2, rid, at(6)), house=HOUSE)
    assert session.get(Round, rid).status == "settled"


def test_only_a_pit_boss_switches_and_impossible_numbers_are_refused(session):
    table = tid(session, 12)
    pit, dealer, manager = person(session, "pitboss"), person(session, "dealer"), person(session, "manager")
    for who in (dealer, manager, person(session, "admin")):
        with pytest.raises(NotAllowed):
            hand.switch(session, who, table, True, "wheel lost", at(0))
    with pytest.raises(BadInput):
        hand.switch(session, pit, table, True, "  ", at(0))       # a reason to leave the wheel
    rounds.open_betting(session, dealer, table, at(0), house=HOUSE)
    rounds.close_betting(session, dealer, table, at(1))
    session.commit()
    with pytest.raises(Conflict) as e:                            # the wheel gives the numbers
        hand.key_number(session, dealer, table, 7, at(2))
    assert e.value.code == "not_by_hand"
    hand.switch(session, pit, table, True, "wheel lost", at(3))
    session.commit()
    for bad in (37, -1, True, "7", 3.0):
        with pytest.raises(BadInput):
            hand.key_number(session, dealer, table, bad, at(4))
    hand.key_number(session, dealer, table, 0, at(5))
    session.commit()
    with pytest.raises(Conflict) as e:                            # one number per spin
        hand.key_number(session, dealer, table, 1, at(6))
    assert e.value.code == "already_keyed"
    with pytest.raises(Conflict) as e:                            # not back while a result waits
        hand.switch(session, pit, table, False, "", at(7))
    assert e.value.code == "keyed_waiting"


def test_the_switch_is_audited_alerted_and_kept_as_a_message_key(session):
    table = tid(session, 12)
    pit = person(session, "pitboss")
    hand.switch(session, pit, table, True, "wheel lost", at(0))
    session.commit()
    assert rounds.table_state(session, table, HOUSE).entry_by_hand.reason == "wheel lost"
    with pytest.raises(Conflict):
        hand.switch(session, pit, table, True, "again", at(1))
    session.rollback()
    hand.switch(session, pit, table, False, "", at(2))
    session.commit()
    assert rounds.table_state(session, table, HOUSE).entry_by_hand is None
    actions = session.execute(select(AuditRecord.action).where(AuditRecord.subject == f"table:{table}",
                                                                AuditRecord.action.like("table.entry%"))
                              .order_by(AuditRecord.id)).scalars().all()
    assert actions == ["table.entry_by_hand", "table.entry_by_device"]
    alert = session.execute(select(Alert).where(Alert.kind == "entry_by_hand", Alert.table_id == table)
                            .order_by(Alert.id)).scalars().first()
    assert alert.data["msg"]["template"].startswith("Table {table}: entry by hand from now on")
    ev = session.execute(select(RoundEvent).where(RoundEvent.table_id == table, RoundEvent.kind == "entry_mode")
                         .order_by(RoundEvent.id)).scalars().first()
    assert ev.data["msg"]["params"]["reason"] == "wheel lost" and ev.actor == "Paul Pitboss"


def test_a_wheel_that_comes_back_is_kept_but_not_used_until_switched_back(session, db_url):
    from tests.conftest import make_engine
    table = tid(session, 12)
    pit, dealer, manager = person(session, "pitboss"), person(session, "dealer"), person(session, "manager")
    fund(session, 1, 10_000)
    hand.switch(session, pit, table, True, "wheel lost", at(0))
    session.commit()
    engine = make_engine(db_url)
    factory = sessionmaker(bind=engine, expire_on_commit=False)
    dispatch = RoundsDispatch(factory, HOUSE)

    def wheel(state, spin, win=None, t=0.0):
        session.commit()   # the test's own session lets the bridge's write (SQLite: one writer)
        with factory() as s:
            dispatch.chunk("wheel-12", f"*X;{state};{spin};{win or ''};0;250;0\r\n".encode())
            follow = dispatch.event(s, table, "wheel-12", "wheel",
                                    WheelStatus(state, spin, win, 0, 25.0, 0), at(t))
            s.commit()
            if follow:
                follow()
    wheel(2, 40, t=1)                                            # "place your bets": no round opens
    assert rounds.active_round(session, table, lock=False) is None
    rid, _ = _spin_keyed(session, table, 9, dealer, start=2)
    wheel(4, 40, t=6)
    wheel(5, 40, 22, t=7)                                        # the wheel says 22: not used
    session.expire_all()
    r = session.get(Round, rid)
    assert r.status == "locked" and r.device["keyed"]["result"]["number"] == 9
    frames = session.execute(select(DeviceFrame.summary).where(DeviceFrame.table_id == table)).scalars().all()
    assert len(frames) == 3 and all("entry by hand" in f for f in frames)
    rounds.commit_then_settle(session, hand.confirm(session, manager, rid, at(8)), house=HOUSE)
    session.expire_all()
    assert session.get(Round, rid).result["number"] == 9
    hand.switch(session, pit, table, False, "", at(9))
    session.commit()
    wheel(2, 41, t=10)                                           # switched back: the wheel opens rounds again
    assert rounds.active_round(session, table, lock=False).status == "betting"
    engine.dispose()


BANKER_WINS = ["2H", "7S", "3D", "KC", "8C"]   # player 2 3 8 = 3, banker 7 K = 7


def test_baccarat_cards_keyed_by_hand_wait_for_the_second_person(session):
    table = tid(session, 10)
    pit, dealer, dealer2, manager = (person(session, u) for u in ("pitboss", "dealer", "dealer2", "manager2"))
    fund(session, 5, 20_000)
    hand.switch(session, pit, table, True, "shoe refused: bad checksums", at(0))
    rounds.new_shoe(session, dealer, table, at(0), house=HOUSE)
    session.commit()
    r = rounds.open_betting(session, dealer, table, at(1), house=HOUSE)
    session.commit()
    b, _ = bets.place(session, dealer, table, spot="banker", amount=2_000, player_id=5, at=at(2), house=HOUSE)
    session.commit()
    rounds.close_betting(session, dealer, table, at(3))
    session.commit()
    for i, c in enumerate(BANKER_WINS):      # a relief dealer types the last card
        event(session, rounds.card, table, c, "dealer", None, at(4 + i), actor=dealer if i < 4 else dealer2, house=HOUSE)
    session.expire_all()
    r = session.get(Round, r.id)
    assert r.status == "dealing" and _settlements(session, r.id) == 0
    assert r.device["keyed"]["result"]["winner"] == "banker"
    for who in (dealer, dealer2):
        with pytest.raises(NotAllowed):
            hand.confirm(session, who, r.id, at(10))
        session.rollback()
    rounds.commit_then_settle(session, hand.confirm(session, manager, r.id, at(11)), house=HOUSE)
    session.expire_all()
    r = session.get(Round, r.id)
    assert r.status == "settled" and r.result["winner"] == "banker"
    assert r.result["hand_entry"]["keyed_by"] == ["Dan Dealer", "Dora Dealer"]
    assert bet_returns(session, b.id, ledger.player_account(session, 5)) == 3_900
    books_balance(session)


def test_refused_cards_hold_the_round_and_a_refused_number_is_keyed_again(session):
    pit, dealer, manager = person(session, "pitboss"), person(session, "dealer"), person(session, "manager")
    table = tid(session, 12)
    fund(session, 1, 10_000)
    hand.switch(session, pit, table, True, "wheel lost", at(0))
    session.commit()
    rid, _ = _spin_keyed(session, table, 8, dealer)
    hand.refuse(session, manager, rid, "the ball is in 3", at(5))
    session.commit()
    assert session.get(Round, rid).status == "locked"
    event(session, hand.key_number, dealer, table, 3, at(6))
    rounds.commit_then_settle(session, hand.confirm(session, manager, rid, at(7)), house=HOUSE)
    assert session.get(Round, rid).result["number"] == 3

    bac = tid(session, 10)
    hand.switch(session, pit, bac, True, "shoe lost", at(10))
    rounds.new_shoe(session, dealer, bac, at(10), house=HOUSE)
    session.commit()
    r = rounds.open_betting(session, dealer, bac, at(11), house=HOUSE)
    rounds.close_betting(session, dealer, bac, at(12))
    session.commit()
    for i, c in enumerate(BANKER_WINS):
        event(session, rounds.card, bac, c, "dealer", None, at(13 + i), actor=dealer, house=HOUSE)
    hand.refuse(session, manager, r.id, "the 8C was an 8D", at(20))
    session.commit()
    assert session.get(Round, r.id).status == "held"


def test_spins_entered_by_hand_are_kept_out_of_the_bias_tests_and_counted_in_ratings(session):
    table = tid(session, 12)
    pit, dealer, manager = person(session, "pitboss"), person(session, "dealer"), person(session, "manager")
    fund(session, 1, 100_000)
    hand.switch(session, pit, table, True, "wheel lost", at(-1))
    session.commit()
    for i in range(4):
        rid, _ = _spin_keyed(session, table, 17, dealer, start=10 * i)
        rounds.commit_then_settle(session, hand.confirm(session, manager, rid, at(10 * i + 5)), house=HOUSE)
    small = HouseSettings(wheel_window_spins=2)
    assert wheel_watch.spins(session, table) == []                     # the wheel's own: none
    shown = wheel_watch.spins(session, table, wheel_only=False)
    assert [s["number"] for s in shown] == [17] * 4 and all(s["by_hand"] for s in shown)
    w = wheel_watch.wheel(session, table, small, T0 + timedelta(minutes=1))
    assert w["spins"] == 0 and w["hand_spins"] == 2 and w["hand_counts"][17] == 2 and w["window"] == 0
    assert all(s["by_hand"] for s in w["last"])
    assert wheel_watch.check(session, small, T0 + timedelta(minutes=1)) == []   # no window of the wheel's to test
    day = ratings.visits(session, T0 - timedelta(hours=1), T0 + timedelta(hours=1), HOUSE)
    mine = [v for v in day if v.player_id == 1]
    assert sum(v.round_count for v in mine) == 4 and sum(v.hand_round_count for v in mine) == 4


def test_a_blackjack_round_keyed_by_hand_settles_after_the_confirmation(session):
    table = tid(session, 14)
    pit, dealer, manager = person(session, "pitboss"), person(session, "dealer"), person(session, "manager")
    hand.switch(session, pit, table, True, "card scanner faulty", at(0))
    r = rounds.open_betting(session, dealer, table, at(1), house=HOUSE)
    bets.place(session, dealer, table, spot="bet", seat=2, amount=2_000, source="dealer", at=at(2), house=HOUSE)
    session.commit()
    rounds.close_betting(session, dealer, table, at(3))
    session.commit()
    for i, c in enumerate(("TH", "6S", "KD", "TC")):             # seat 2, dealer up, seat 2, hole
        event(session, rounds.card, table, c, "dealer", None, at(4 + i), actor=dealer, house=HOUSE)
    event(session, rounds.decide, dealer, table, 2, "stand", at(9), house=HOUSE)
    event(session, rounds.card, table, "9H", "dealer", None, at(10), actor=dealer, house=HOUSE)   # 25: bust
    session.expire_all()
    r = session.get(Round, r.id)
    assert r.status == "dealing" and r.device["keyed"] and _settlements(session, r.id) == 0
    rounds.commit_then_settle(session, hand.confirm(session, manager, r.id, at(11)), house=HOUSE)
    session.expire_all()
    r = session.get(Round, r.id)
    assert r.status == "settled" and r.result["hand_entry"]["confirmed_by"] == "Marc Manager"
    assert session.execute(select(Settlement.returned).where(Settlement.round_id == r.id)).scalar_one() == 4_000
    books_balance(session)


def test_a_casino_holdem_round_keyed_by_hand_settles_to_the_cent_after_the_confirmation(session):
    """The scanner of table 15 is faulty: the dealer keys every card and each call or fold; nothing is
    paid until a second person confirms, then ante, call and AA bonus pay by the Casino Hold'em rules."""
    table = tid(session, 15)
    pit, dealer, manager = person(session, "pitboss"), person(session, "dealer"), person(session, "manager")
    fund(session, 11, 10_000)
    fund(session, 12, 10_000)
    hand.switch(session, pit, table, True, "card scanner faulty", at(0))
    session.commit()
    r = rounds.open_betting(session, dealer, table, at(1), house=HOUSE)
    ante1, _ = bets.place(session, dealer, table, spot="ante", seat=1, amount=1_000, player_id=11, at=at(2), house=HOUSE)
    aa1, _ = bets.place(session, dealer, table, spot="aa_bonus", seat=1, amount=1_000, player_id=11, at=at(2), house=HOUSE)
    ante2, _ = bets.place(session, dealer, table, spot="ante", seat=2, amount=2_000, player_id=12, at=at(2), house=HOUSE)
    session.commit()
    rounds.close_betting(session, dealer, table, at(3))
    session.commit()
    # seats 1-2, dealer, seats 1-2, dealer, flop: seat 1 three aces on the flop, the dealer a pair of 4s
    for i, c in enumerate(("AH", "2D", "4H", "AD", "7S", "4S", "AS", "9C", "3C")):
        event(session, rounds.card, table, c, "dealer", None, at(4 + i), actor=dealer, house=HOUSE)
    event(session, rounds.decide, dealer, table, 1, "call", at(20), house=HOUSE)
    event(session, rounds.decide, dealer, table, 2, "fold", at(21), house=HOUSE)
    for i, c in enumerate(("8D", "JC")):                                  # turn, river
        event(session, rounds.card, table, c, "dealer", None, at(22 + i), actor=dealer, house=HOUSE)
    session.expire_all()
    r = session.get(Round, r.id)
    assert r.status == "dealing" and r.device["keyed"] and _settlements(session, r.id) == 0
    assert ledger.player_balance(session, 11) == 10_000 - 2_000 - 2_000     # ante, bonus and the call staked
    with pytest.raises(NotAllowed):
        hand.confirm(session, dealer, r.id, at(30))                       # who keyed is no second person
    session.rollback()
    rounds.commit_then_settle(session, hand.confirm(session, manager, r.id, at(31)), house=HOUSE)
    session.expire_all()
    r = session.get(Round, r.id)
    assert r.status == "settled" and r.result["hand_entry"] == {"keyed_by": ["Dan Dealer"],
                                                                 "confirmed_by": "Marc Manager"}
    p11, p12 = ledger.player_account(session, 11), ledger.player_account(session, 12)
    # three aces against a qualifying pair of 4s: ante 1:1, call 1:1, AA bonus 7:1
    assert bet_returns(session, ante1.id, p11) == 2_000
    assert bet_returns(session, aa1.id, p11) == 8_000
    assert ledger.player_balance(session, 11) == 10_000 - 4_000 + 2_000 + 4_000 + 8_000
    assert bet_returns(session, ante2.id, p12) == 0                      # folded: the ante is lost
    assert ledger.player_balance(session, 12) == 8_000
    assert _settlements(session, r.id) == 1
    books_balance(session)
