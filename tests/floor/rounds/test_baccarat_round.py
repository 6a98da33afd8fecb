"""Baccarat coups end to end through the shoe entry points: tableau checks, the shoe's own result,
commission, the cut card and the new shoe."""
from __future__ import annotations

import pytest

from floor import ledger, rounds
from floor.errors import InvalidState
from floor.models import Alert, Round, RoundCard, Settlement
from floor.rounds import bets
from floor.settings import HouseSettings
from tests.floor.rounds.helpers import DEALER, HOUSE, at, bet_returns, books_balance, event, fund, tid

# Player 2H 3D + 8C = 3, Banker 7S KC = 7 (stands on 7): banker wins.
BANKER_WINS = [("player", "2H"), ("banker", "7S"), ("player", "3D"), ("banker", "KC"), ("player", "8C")]


def _coup(session, table, cards, start=10, source="shoe"):
    for i, (target, card) in enumerate(cards):
        event(session, rounds.card, table, card, source, target if source == "shoe" else None, at(start + i),
              raw=b"D" + card.encode(), device="shoe-10", house=HOUSE)


def _open(session, table, t=0):
    r = rounds.open_betting(session, DEALER, table, at(t), house=HOUSE)
    session.commit()
    return r


def test_a_coup_pays_each_spot_and_takes_the_commission(session):
    table = tid(session, 10)
    rounds.new_shoe(session, DEALER, table, at(0), house=HOUSE)
    session.commit()
    fund(session, 5, 20_000)
    r = _open(session, table)
    stakes = {"player": 1_000, "banker": 2_000, "tie": 1_000, "player_pair": 1_000, "banker_pair": 1_000}
    ids = {spot: bets.place(session, DEALER, table, spot=spot, amount=amt, player_id=5, at=at(1), house=HOUSE)[0].id
           for spot, amt in stakes.items()}
    session.commit()
    event(session, rounds.coup_start, table, at(5))
    assert session.get(Round, r.id).status == "dealing"
    _coup(session, table, BANKER_WINS)
    assert rounds.active_round(session, table, lock=False).status == "dealing"   # waits for the shoe's G
    out = event(session, rounds.shoe_result, table, "banker", False, False, at(20), raw=b"G", device="shoe-10")
    assert out.settle == r.id
    event(session, rounds.shoe_result, table, "banker", False, False, at(20.2))   # repeated G: one result
    session.expire_all()
    r = session.get(Round, r.id)
    assert r.status == "settled" and r.result["winner"] == "banker"
    acct = ledger.player_account(session, 5)
    assert {s: bet_returns(session, i, acct) for s, i in ids.items()} == {
        "player": 0, "banker": 3_900, "tie": 0, "player_pair": 0, "banker_pair": 0}
    assert ledger.balance(session, ledger.table_account(session, table, "commission")) == 100
    assert ledger.player_balance(session, 5) == 20_000 - 6_000 + 3_900
    assert session.query(Settlement).filter_by(round_id=r.id).one().commission == 100
    books_balance(session)


def test_a_tie_pushes_player_and_banker(session):
    table = tid(session, 10)
    rounds.new_shoe(session, DEALER, table, at(0), house=HOUSE)
    fund(session, 6, 10_000)
    _open(session, table)
    for spot in ("player", "banker", "tie"):
        bets.place(session, DEALER, table, spot=spot, amount=1_000, player_id=6, at=at(1), house=HOUSE)
    session.commit()
    rounds.close_betting(session, DEALER, table, at(5))
    session.commit()
    # Player 9S KD = 9, Banker 9H QC = 9: naturals, a tie. Scanner cards: targets from the tableau.
    _coup(session, table, [(None, "9S"), (None, "9H"), (None, "KD"), (None, "QC")], source="scanner")
    assert ledger.player_balance(session, 6) == 10_000 - 3_000 + 1_000 + 1_000 + 9_000
    books_balance(session)


@pytest.mark.parametrize("trouble", ["misdeal", "shoe_disagrees", "early_result", "quit"])
def test_disagreements_hold_the_coup(session, trouble):
    table = tid(session, 10)
    rounds.new_shoe(session, DEALER, table, at(0), house=HOUSE)
    fund(session, 7, 10_000)
    r = _open(session, table)
    bets.place(session, DEALER, table, spot="player", amount=1_000, player_id=7, at=at(1), house=HOUSE)
    session.commit()
    event(session, rounds.coup_start, table, at(5))
    if trouble == "misdeal":
        _coup(session, table, [("player", "2H"), ("player", "7S")])
    elif trouble == "early_result":
        _coup(session, table, BANKER_WINS[:3])
        event(session, rounds.shoe_result, table, "banker", False, False, at(20))
    else:
        _coup(session, table, BANKER_WINS)
        event(session, rounds.shoe_result, table, "player" if trouble == "shoe_disagrees" else "quit",
              False, False, at(20))
    r = session.get(Round, r.id)
    session.refresh(r)
    assert r.status == "held"
    assert session.query(Settlement).filter_by(round_id=r.id).count() == 0
    # the pit boss settles it from the cards laid out again
    rounds.settle_held(session, DEALER, r.id, {"cards": [c for _, c in BANKER_WINS]}, at(60), house=HOUSE)
    session.commit()
    assert ledger.player_balance(session, 7) == 9_000
    books_balance(session)


def test_cut_card_makes_the_last_coup_then_a_new_shoe_must_be_confirmed(session):
    table = tid(session, 10)
    rounds.new_shoe(session, DEALER, table, at(0), house=HOUSE)
    session.commit()
    _open(session, table)
    event(session, rounds.coup_start, table, at(5))
    event(session, rounds.cut_card, table, at(6))
    _coup(session, table, BANKER_WINS)
    event(session, rounds.shoe_result, table, "banker", False, False, at(20))
    assert rounds.current_shoe(session, table).status == "finished"
    with pytest.raises(InvalidState) as refused:
        rounds.open_betting(session, DEALER, table, at(30), house=HOUSE)
    assert refused.value.code == "new_shoe_needed"
    session.rollback()
    # a card now belongs to nothing: recorded and alerted
    event(session, rounds.card, table, "4D", "shoe", "player", at(31), house=HOUSE)
    assert session.query(Alert).filter_by(kind="card_no_round").count() == 1
    assert session.query(RoundCard).filter_by(card="4D", accepted=False).count() == 1
    shoe = rounds.new_shoe(session, DEALER, table, at(40), house=HOUSE)
    session.commit()
    assert shoe.number == 2
    r = _open(session, table, 41)
    assert r.coup == 1


def test_a_card_beyond_the_shoes_decks_is_refused_and_holds(session):
    table = tid(session, 10)
    rounds.new_shoe(session, DEALER, table, at(0), house=HouseSettings(baccarat_decks=1))
    session.commit()
    _open(session, table)
    event(session, rounds.coup_start, table, at(5))
    event(session, rounds.card, table, "2H", "shoe", "player", at(6), house=HOUSE)
    event(session, rounds.card, table, "2H", "shoe", "banker", at(7), house=HOUSE)
    r = rounds.last_round(session, table)
    assert r.status == "held"
    assert session.query(Alert).filter_by(kind="impossible_card").count() == 1


def test_a_result_with_no_coup_is_recorded_never_settled(session):
    table = tid(session, 10)
    rounds.new_shoe(session, DEALER, table, at(0), house=HOUSE)
    session.commit()
    event(session, rounds.shoe_result, table, "player", False, False, at(3))
    assert session.query(Alert).filter_by(kind="result_without_no_more_bets").count() == 1
    assert session.query(Settlement).count() == 0
