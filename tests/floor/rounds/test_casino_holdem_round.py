"""Casino Hold'em end to end: ante and AA bonus, the deal, call or fold, turn and river, settlement;
a bet over the maximum is cut down to it (the Casino Hold'em rules)."""
from __future__ import annotations

from floor import ledger, rounds
from floor.models import Round
from floor.rounds import bets
from tests.floor.rounds.helpers import DEALER, HOUSE, at, bet_returns, books_balance, event, fund, tid


def _scan(session, table, *cards, start=10):
    for i, c in enumerate(cards):
        event(session, rounds.card, table, c, "scanner", None, at(start + i), house=HOUSE)


def test_call_fold_aa_bonus_and_the_cut_down_bet(session):
    table = tid(session, 15)
    fund(session, 11, 10_000)
    fund(session, 12, 100_000)
    r = rounds.open_betting(session, DEALER, table, at(0), house=HOUSE)
    ante1, _ = bets.place(session, DEALER, table, spot="ante", seat=1, amount=1_000, player_id=11, at=at(1), house=HOUSE)
    aa1, _ = bets.place(session, DEALER, table, spot="aa_bonus", seat=1, amount=1_000, player_id=11, at=at(1), house=HOUSE)
    ante2, _ = bets.place(session, DEALER, table, spot="ante", seat=2, amount=30_000, player_id=12, at=at(1), house=HOUSE)
    ante3, _ = bets.place(session, DEALER, table, spot="ante", seat=3, amount=1_000, source="dealer", at=at(1), house=HOUSE)
    session.commit()
    assert (ante2.requested, ante2.amount) == (30_000, 25_000)       # over the 250.00 maximum: cut down
    rounds.close_betting(session, DEALER, table, at(5))
    session.commit()
    # seats 1-3, dealer, seats 1-3, dealer, flop
    _scan(session, table, "AH", "KC", "2D", "4H", "AD", "QC", "7S", "4S", "AS", "9C", "3C")
    view = rounds.build_flow(session, rounds.active_round(session, table, lock=False), HOUSE).view()
    assert view["expecting"] == ["decision", [1, 2, 3]] and view["dealer"] == ["??", "??"]
    event(session, rounds.decide, DEALER, table, 3, "fold", at(30), house=HOUSE)
    event(session, rounds.decide, DEALER, table, 1, "call", at(31), house=HOUSE)
    event(session, rounds.decide, DEALER, table, 2, "call", at(32), house=HOUSE)
    _scan(session, table, "8D", "JC", start=40)                      # turn, river
    session.expire_all()
    assert session.get(Round, r.id).status == "settled"
    p11, p12 = ledger.player_account(session, 11), ledger.player_account(session, 12)
    # seat 1: three aces; dealer pair of 4s qualifies; ante 1:1, call 1:1, AA bonus 7:1
    assert bet_returns(session, ante1.id, p11) == 2_000
    assert bet_returns(session, aa1.id, p11) == 8_000
    assert ledger.player_balance(session, 11) == 10_000 - 4_000 + 2_000 + 4_000 + 8_000
    # seat 2: a club flush; ante 2:1 (75,000), call 1:1 (100,000)
    assert bet_returns(session, ante2.id, p12) == 75_000
    assert ledger.player_balance(session, 12) == 100_000 - 75_000 + 175_000
    assert bet_returns(session, ante3.id, ledger.table_account(session, table, "chips")) == 0
    books_balance(session)


def test_the_timer_folds_a_silent_seat(session):
    from floor.rounds import jobs
    table = tid(session, 15)
    fund(session, 13, 10_000)
    rounds.open_betting(session, DEALER, table, at(0), house=HOUSE)
    bets.place(session, DEALER, table, spot="ante", seat=4, amount=1_000, player_id=13, at=at(1), house=HOUSE)
    session.commit()
    rounds.close_betting(session, DEALER, table, at(5))
    session.commit()
    _scan(session, table, "2H", "5D", "7C", "9S", "JD", "QH", "KH")
    r = rounds.active_round(session, table, lock=False)
    jobs.decision_timeout_job(session, HOUSE, r.id, r.steps, now=at(60))
    session.commit()
    rounds.recover(session, at(60), house=HOUSE)
    session.commit()
    r = rounds.last_round(session, table)
    assert r.status == "settled" and r.result["seats"]["4"]["called"] is False
    assert ledger.player_balance(session, 13) == 9_000
    books_balance(session)
