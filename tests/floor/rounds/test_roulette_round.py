"""A roulette spin end to end through the wheel entry points, with every kind of bet in the ledger."""
from __future__ import annotations

import pytest

from floor import ledger, rounds
from floor.errors import Conflict
from floor.models import DeviceFrame, Round, Settlement
from floor.rounds import bets
from tests.floor.rounds.helpers import DEALER, HOUSE, at, bet_returns, books_balance, event, fund, tid

# kind, numbers, stake, what comes back when the ball lands on 17 (stake + odds, by the house rules)
BETS = [
    ("straight", [17], 1_000, 36_000),
    ("straight", [18], 1_000, 0),
    ("split", [17, 20], 1_000, 18_000),
    ("street", [16, 17, 18], 1_000, 12_000),
    ("corner", [13, 14, 16, 17], 1_000, 9_000),
    ("six_line", [13, 14, 15, 16, 17, 18], 1_000, 6_000),
    ("column", [n for n in range(1, 37) if n % 3 == 2], 1_000, 3_000),
    ("dozen", list(range(13, 25)), 1_000, 3_000),
    ("black", None, 1_000, 2_000),
    ("red", None, 1_000, 0),
    ("odd", None, 1_000, 2_000),
    ("even", None, 1_000, 0),
    ("low", None, 1_000, 2_000),
    ("high", None, 1_000, 0),
    ("first_four", None, 1_000, 0),
    ("trio", [0, 1, 2], 1_000, 0),
]


def test_a_spin_settles_every_bet_kind_once(session):
    table = tid(session, 12)
    fund(session, 1, 50_000)
    event(session, rounds.wheel_status, table, 2, 11, (), at(0), winning=None, raw=b"*X;2;011;  ;0;165;1\r\n",
          device="wheel-12", house=HOUSE)
    r = rounds.active_round(session, table, lock=False)
    assert r.status == "betting"
    placed = []
    for kind, numbers, stake, _ in BETS:
        b, created = bets.place(session, DEALER, table, spot=kind, numbers=numbers, amount=stake, player_id=1, at=at(1), house=HOUSE)
        assert created
        placed.append(b.id)
    seat_bet, _ = bets.place(session, DEALER, table, spot="straight", numbers=[17], amount=500, seat=3, source="dealer",
                             at=at(1), house=HOUSE)
    session.commit()
    assert ledger.player_balance(session, 1) == 50_000 - 16_000

    event(session, rounds.wheel_status, table, 3, 11, (), at(5), house=HOUSE)
    event(session, rounds.wheel_status, table, 4, 11, (), at(9), house=HOUSE)
    with pytest.raises(Conflict) as late:
        bets.place(session, DEALER, table, spot="red", amount=1_000, player_id=1, at=at(10), house=HOUSE)
    assert late.value.code == "betting_closed"
    session.rollback()

    event(session, rounds.wheel_number, table, 11, 17, at(14), raw=b"17\r\n", device="wheel-12")
    out = event(session, rounds.wheel_status, table, 5, 11, (), at(14.2), winning=17, raw=b"*X;5;011;17;0;165;1\r\n",
                device="wheel-12", house=HOUSE)
    assert out.settle == r.id
    # the state-5 line again, twice: still one result, one settlement
    event(session, rounds.wheel_status, table, 5, 11, (), at(14.7), winning=17, house=HOUSE)
    event(session, rounds.wheel_status, table, 5, 11, (), at(15.2), winning=17, house=HOUSE)
    assert rounds.settle(session, r.id, house=HOUSE) is None

    session.expire_all()
    r = session.get(Round, r.id)
    assert r.status == "settled" and r.result["number"] == 17
    acct = ledger.player_account(session, 1)
    for bid, (kind, _, _, back) in zip(placed, BETS):
        assert bet_returns(session, bid, acct) == back, kind
    won = sum(b[3] for b in BETS)
    assert ledger.player_balance(session, 1) == 50_000 - 16_000 + won
    chips = ledger.table_account(session, table, "chips")
    assert bet_returns(session, seat_bet.id, chips) == 18_000
    tray = ledger.balance(session, ledger.table_account(session, table, "tray"))
    assert tray == (16_000 + 500) - (won + 18_000)
    assert ledger.balance(session, ledger.table_account(session, table, "in_play")) == 0
    s = session.query(Settlement).filter_by(round_id=r.id).one()
    assert (s.bets, s.staked, s.returned) == (len(BETS) + 1, 16_500, won + 18_000)
    frames = session.query(DeviceFrame).filter_by(round_id=r.id).count()
    assert frames >= 3
    books_balance(session)


def test_misspin_keeps_bets_locked_and_the_respin_settles(session):
    table = tid(session, 12)
    fund(session, 2, 10_000)
    event(session, rounds.wheel_status, table, 2, 20, (), at(0), house=HOUSE)
    bets.place(session, DEALER, table, spot="red", amount=2_000, player_id=2, at=at(1), house=HOUSE)
    session.commit()
    event(session, rounds.wheel_status, table, 3, 20, (), at(3), house=HOUSE)
    out = event(session, rounds.wheel_status, table, 3, 20, {"misspin"}, at(4), house=HOUSE)   # ball turning the rotor's way
    assert out.command == "*R"
    r = rounds.active_round(session, table, lock=False)
    assert r.status == "locked"
    with pytest.raises(Conflict):
        bets.place(session, DEALER, table, spot="black", amount=1_000, player_id=2, at=at(5), house=HOUSE)
    session.rollback()
    event(session, rounds.wheel_status, table, 1, 20, (), at(6), house=HOUSE)
    event(session, rounds.wheel_status, table, 2, 21, (), at(7), house=HOUSE)    # the wheel asks for bets: they stay locked
    assert rounds.active_round(session, table, lock=False).status == "locked"
    event(session, rounds.wheel_status, table, 3, 21, (), at(8), house=HOUSE)
    event(session, rounds.wheel_status, table, 4, 21, (), at(10), house=HOUSE)
    event(session, rounds.wheel_number, table, 21, 1, at(14))
    event(session, rounds.wheel_status, table, 5, 21, (), at(14.1), winning=1, house=HOUSE)
    session.expire_all()
    r = session.get(Round, r.id)
    assert r.status == "settled" and r.spin == 21
    assert ledger.player_balance(session, 2) == 12_000
    books_balance(session)


def test_no_ball_for_five_seconds_voids_and_returns_every_bet(session):
    table = tid(session, 12)
    fund(session, 3, 10_000)
    event(session, rounds.wheel_status, table, 2, 30, (), at(0), house=HOUSE)
    bets.place(session, DEALER, table, spot="straight", numbers=[5], amount=1_000, player_id=3, at=at(1), house=HOUSE)
    session.commit()
    event(session, rounds.wheel_status, table, 4, 30, (), at(5), house=HOUSE)
    event(session, rounds.wheel_status, table, 4, 30, {"no_ball"}, at(6), house=HOUSE)
    event(session, rounds.wheel_status, table, 4, 30, {"no_ball"}, at(9), house=HOUSE)
    assert rounds.active_round(session, table, lock=False).status == "locked"
    event(session, rounds.wheel_status, table, 4, 30, {"no_ball"}, at(11.1), house=HOUSE)
    assert rounds.active_round(session, table, lock=False) is None
    assert rounds.last_round(session, table).status == "voided"
    assert ledger.player_balance(session, 3) == 10_000
    books_balance(session)


@pytest.mark.parametrize("trouble", ["fault", "closed", "mismatch", "no_nmb", "lost"])
def test_trouble_holds_the_round_and_settles_nothing(session, trouble):
    table = tid(session, 12)
    fund(session, 4, 10_000)
    event(session, rounds.wheel_status, table, 2, 40, (), at(0), house=HOUSE)
    bets.place(session, DEALER, table, spot="red", amount=1_000, player_id=4, at=at(1), house=HOUSE)
    session.commit()
    if trouble == "no_nmb":
        event(session, rounds.wheel_status, table, 5, 40, (), at(9), winning=3, house=HOUSE)
    else:
        event(session, rounds.wheel_status, table, 4, 40, (), at(5), house=HOUSE)
        if trouble == "fault":
            event(session, rounds.wheel_status, table, 4, 40, {"fault"}, at(6), house=HOUSE)
        elif trouble == "closed":
            event(session, rounds.wheel_status, table, 6, 40, (), at(6), house=HOUSE)
        elif trouble == "lost":
            event(session, rounds.device_fault, table, "no status line for 2 s", at(8))
        else:
            event(session, rounds.wheel_number, table, 40, 3, at(9))
            event(session, rounds.wheel_status, table, 5, 40, (), at(9.1), winning=30, house=HOUSE)
    r = rounds.last_round(session, table)
    assert r.status == "held"
    assert session.query(Settlement).filter_by(round_id=r.id).count() == 0
    assert ledger.player_balance(session, 4) == 9_000
    books_balance(session)


def test_a_result_with_no_round_is_recorded_and_alerted(session):
    from floor.models import Alert
    table = tid(session, 12)
    event(session, rounds.wheel_status, table, 5, 50, (), at(0), winning=7, house=HOUSE)
    assert rounds.active_round(session, table, lock=False) is None
    assert session.query(Alert).filter_by(kind="result_without_no_more_bets").count() == 1
