"""A round whose device went away mid-deal: held with an alert after the house's wait (the timer
is in the database, so it fires whichever process is left), and it goes on, once, when the rest of
the cards arrives."""
from __future__ import annotations

from sqlalchemy import select

from floor import ledger, rounds
from floor.models import Alert, Round, RoundCard, Settlement, Timer
from floor.rounds import bets, jobs
from tests.floor.rounds.helpers import DEALER, HOUSE, at, books_balance, event, fund, tid


def _scan(session, table, *cards, start=10):
    for i, c in enumerate(cards):
        event(session, rounds.card, table, c, "scanner", None, at(start + i), raw=c.encode() + b"\r\n",
              device="scanner-14", house=HOUSE)


def _device_timer(session, round_id):
    return session.execute(select(Timer).where(Timer.key == f"round:{round_id}:device", Timer.status == "pending")
                           ).scalar_one_or_none()


def test_a_silent_scanner_mid_deal_holds_the_round_and_the_rest_of_the_cards_carries_it_on(session):
    table = tid(session, 14)
    fund(session, 9, 10_000)
    r = rounds.open_betting(session, DEALER, table, at(0), house=HOUSE)
    bets.place(session, DEALER, table, spot="bet", seat=2, amount=1_000, player_id=9, at=at(1), house=HOUSE)
    session.commit()
    rounds.close_betting(session, DEALER, table, at(5))
    session.commit()
    _scan(session, table, "TH", "9S")                   # seat 2, the dealer's up card; then the scanner is gone
    timer = _device_timer(session, r.id)
    assert timer is not None and timer.due_at == at(11 + HOUSE.device_wait_seconds)
    jobs.device_silent_job(session, HOUSE, *timer.args, now=timer.due_at)
    session.commit()
    session.expire_all()
    assert session.get(Round, r.id).status == "held"
    [alert] = session.query(Alert).filter_by(table_id=table, kind="round_held").all()
    assert "no card from the table's device for 30 s mid-deal" in alert.message
    jobs.device_silent_job(session, HOUSE, *timer.args, now=timer.due_at)   # fired twice: once held
    session.commit()
    assert session.query(Alert).filter_by(table_id=table, kind="round_held").count() == 1

    # the scanner is back (the device process restarted): the rest of the deal arrives
    _scan(session, table, "8D", "8C", start=80)          # seat 2: 18, the dealer's hole card: 17
    session.expire_all()
    r = session.get(Round, r.id)
    assert r.status == "dealing" and r.held_reason is None
    assert rounds.build_flow(session, r, HOUSE).expecting()[:2] == ("decision", 2)
    event(session, rounds.decide, DEALER, table, 2, "stand", at(85), house=HOUSE)
    session.expire_all()
    assert session.get(Round, r.id).status == "settled"
    assert session.query(Settlement).filter_by(round_id=r.id).count() == 1
    assert ledger.player_balance(session, 9) == 11_000
    books_balance(session)


def test_a_card_in_time_keeps_the_round_going(session):
    table = tid(session, 14)
    fund(session, 9, 10_000)
    r = rounds.open_betting(session, DEALER, table, at(0), house=HOUSE)
    bets.place(session, DEALER, table, spot="bet", seat=2, amount=1_000, player_id=9, at=at(1), house=HOUSE)
    session.commit()
    rounds.close_betting(session, DEALER, table, at(5))
    session.commit()
    _scan(session, table, "TH")
    stale = _device_timer(session, r.id).args
    _scan(session, table, "9S", start=20)
    jobs.device_silent_job(session, HOUSE, *stale, now=at(45))   # the first card's timer: a card came since
    session.commit()
    session.expire_all()
    assert session.get(Round, r.id).status == "dealing"
    assert session.query(Alert).filter_by(table_id=table, kind="round_held").count() == 0


def test_a_card_keyed_by_hand_is_not_the_device_back_only_the_device_itself_is(session):
    table = tid(session, 14)
    fund(session, 9, 10_000)
    r = rounds.open_betting(session, DEALER, table, at(0), house=HOUSE)
    bets.place(session, DEALER, table, spot="bet", seat=2, amount=1_000, player_id=9, at=at(1), house=HOUSE)
    session.commit()
    rounds.close_betting(session, DEALER, table, at(5))
    session.commit()
    _scan(session, table, "TH", "9S")                   # then the scanner goes quiet: held
    jobs.device_silent_job(session, HOUSE, *_device_timer(session, r.id).args, now=at(11 + HOUSE.device_wait_seconds))
    session.commit()
    session.expire_all()
    held = session.get(Round, r.id)
    assert held.status == "held" and held.device["away"] is True
    reason = held.held_reason

    # the dealer types the next card at his terminal: the device is still quiet, the round stays held
    event(session, rounds.card, table, "8D", "dealer", None, at(60), house=HOUSE, actor=DEALER)
    session.expire_all()
    held = session.get(Round, r.id)
    assert (held.status, held.held_reason, held.device["away"]) == ("held", reason, True)
    assert [c.card for c in session.query(RoundCard).filter_by(round_id=r.id, accepted=True)] == ["TH", "9S"]

    # the scanner itself reads the card: it is back, the deal goes on where it stopped
    _scan(session, table, "8D", start=80)
    session.expire_all()
    back = session.get(Round, r.id)
    assert (back.status, back.held_reason, back.device["away"]) == ("dealing", None, False)
    assert [c.card for c in session.query(RoundCard).filter_by(round_id=r.id, accepted=True)] == ["TH", "9S", "8D"]
