"""Blackjack rounds from the scanner: cards in deal order, decisions, the timer, the dealer's draw."""
from __future__ import annotations

import pytest

from floor import ledger, rounds
from floor.errors import Conflict
from floor.models import Round, Settlement
from floor.rounds import bets
from floor.rounds.flows import NotExpected
from tests.floor.rounds.helpers import DEALER, HOUSE, at, bet_returns, books_balance, event, fund, tid


def _scan(session, table, *cards, start=10):
    for i, c in enumerate(cards):
        event(session, rounds.card, table, c, "scanner", None, at(start + i), raw=c.encode() + b"\r\n",
              device="scanner-14", house=HOUSE)


def _expecting(session, table):
    r = rounds.active_round(session, table, lock=False)
    return rounds.build_flow(session, r, HOUSE).expecting()


def test_split_double_blackjack_and_a_dealer_bust(session):
    table = tid(session, 14)
    fund(session, 6, 10_000)
    fund(session, 7, 10_000)
    r = rounds.open_betting(session, DEALER, table, at(0), house=HOUSE)
    b1, _ = bets.place(session, DEALER, table, spot="bet", seat=1, amount=1_000, player_id=6, at=at(1), house=HOUSE)
    b2, _ = bets.place(session, DEALER, table, spot="bet", seat=2, amount=2_000, source="dealer", at=at(1), house=HOUSE)
    b3, _ = bets.place(session, DEALER, table, spot="bet", seat=3, amount=1_000, player_id=7, at=at(1), house=HOUSE)
    session.commit()
    with pytest.raises(Conflict) as taken:
        bets.place(session, DEALER, table, spot="bet", seat=1, amount=1_000, player_id=7, at=at(2), house=HOUSE)
    assert taken.value.code == "seat_taken"
    session.rollback()
    rounds.close_betting(session, DEALER, table, at(5))
    session.commit()
    # seat 1, 2, 3, dealer up, seat 1, 2, 3, hole
    _scan(session, table, "8H", "TH", "5C", "9S", "8D", "AS", "6D", "7C")
    assert _expecting(session, table)[:3] == ("decision", 1, 1)
    event(session, rounds.decide, DEALER, table, 1, "split", at(20), house=HOUSE)
    _scan(session, table, "3C", start=21)                       # seat 1 hand 1: 8 3
    event(session, rounds.decide, DEALER, table, 1, "double", at(22), house=HOUSE)  # double after split
    session.commit()
    _scan(session, table, "9H", start=23)                       # 20, done
    assert _expecting(session, table) == ("card", "seat:1:2")
    _scan(session, table, "KS", start=24)                       # hand 2: 8 K = 18
    event(session, rounds.decide, DEALER, table, 1, "stand", at(25), house=HOUSE)
    # seat 2 has blackjack: the software moves on to seat 3
    assert _expecting(session, table)[:2] == ("decision", 3)
    with pytest.raises(NotExpected):
        event(session, rounds.decide, DEALER, table, 1, "hit", at(26), house=HOUSE)
    session.rollback()
    event(session, rounds.decide, DEALER, table, 3, "double", at(26), house=HOUSE)
    _scan(session, table, "9D", start=27)                       # seat 3: 20
    assert _expecting(session, table) == ("card", "dealer")     # dealer 16 draws
    _scan(session, table, "TC", start=28)                       # 26: bust
    session.expire_all()
    r = session.get(Round, r.id)
    assert r.status == "settled"
    p6, p7 = ledger.player_account(session, 6), ledger.player_account(session, 7)
    chips = ledger.table_account(session, table, "chips")
    assert bet_returns(session, b1.id, p6) == 2_000
    assert bet_returns(session, b2.id, chips) == 5_000           # 3:2
    assert bet_returns(session, b3.id, p7) == 2_000
    assert ledger.player_balance(session, 6) == 10_000 - 3_000 + 6_000
    assert ledger.player_balance(session, 7) == 10_000 - 2_000 + 4_000
    s = session.query(Settlement).filter_by(round_id=r.id).one()
    assert s.bets == 6 and s.staked == 1_000 * 5 + 2_000
    books_balance(session)


def test_insurance_pays_when_the_ace_hides_a_blackjack(session):
    table = tid(session, 14)
    fund(session, 8, 10_000)
    rounds.open_betting(session, DEALER, table, at(0), house=HOUSE)
    b, _ = bets.place(session, DEALER, table, spot="bet", seat=4, amount=2_000, player_id=8, at=at(1), house=HOUSE)
    session.commit()
    rounds.close_betting(session, DEALER, table, at(5))
    session.commit()
    _scan(session, table, "TH", "AS", "9D", "KC")               # seat 19 against ace up, ten in the hole
    assert _expecting(session, table) == ("insurance", 4)
    event(session, rounds.decide, DEALER, table, 4, "insurance", at(20), house=HOUSE)   # half the bet: 1,000
    session.commit()
    r = rounds.last_round(session, table)
    assert r.status == "settled"
    # main bet lost (2,000), insurance 1,000 pays 2:1 (3,000 back)
    assert ledger.player_balance(session, 8) == 10_000 - 3_000 + 3_000
    books_balance(session)


def test_a_silent_player_stands_when_the_timer_runs_out(session):
    table = tid(session, 14)
    fund(session, 9, 10_000)
    rounds.open_betting(session, DEALER, table, at(0), house=HOUSE)
    bets.place(session, DEALER, table, spot="bet", seat=2, amount=1_000, player_id=9, at=at(1), house=HOUSE)
    session.commit()
    # the betting timer closes betting by itself
    from floor.rounds import jobs
    r = rounds.active_round(session, table, lock=False)
    jobs.close_betting_job(session, HOUSE, r.id, now=at(31))
    session.commit()
    _scan(session, table, "TH", "9S", "8D", "8C")               # seat 18 vs dealer 9 up, 17
    r = rounds.active_round(session, table, lock=False)
    assert r.device["decision_step"] == 4
    jobs.decision_timeout_job(session, HOUSE, r.id, 3, now=at(60))     # a stale timer does nothing
    session.commit()
    assert _expecting(session, table)[:2] == ("decision", 2)
    jobs.decision_timeout_job(session, HOUSE, r.id, 4, now=at(60))
    session.commit()
    rounds.recover(session, at(60), house=HOUSE)      # what the stored "rounds.settle" timer does
    session.commit()
    r = rounds.last_round(session, table)
    assert r.status == "settled"                                # stood on 18; dealer 17 stands
    assert ledger.player_balance(session, 9) == 11_000
    books_balance(session)


def test_a_card_that_does_not_fit_holds_the_round(session):
    table = tid(session, 14)
    fund(session, 10, 10_000)
    rounds.open_betting(session, DEALER, table, at(0), house=HOUSE)
    bets.place(session, DEALER, table, spot="bet", seat=1, amount=1_000, player_id=10, at=at(1), house=HOUSE)
    session.commit()
    rounds.close_betting(session, DEALER, table, at(5))
    session.commit()
    _scan(session, table, "TH", "9S", "8D", "8C", "2C")         # a card while seat 1 must decide
    r = rounds.last_round(session, table)
    assert r.status == "held"
    rounds.void_round(session, DEALER, r.id, "misdealt card", at(40), house=HOUSE)
    session.commit()
    assert ledger.player_balance(session, 10) == 10_000
    books_balance(session)


def test_a_card_with_no_round_dealing_is_recorded_never_settled(session):
    from floor.models import Alert, RoundCard
    table = tid(session, 14)
    _scan(session, table, "AH")
    assert session.query(RoundCard).filter_by(card="AH", accepted=False).count() == 1
    assert session.query(Alert).filter_by(kind="card_no_round").count() == 1
