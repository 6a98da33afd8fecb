"""The rules a deployment configures ([rules.<game>], FLOOR_RULES_<GAME>_<NAME>) are the rules the
live rounds play and pay: a round dealt through the entry points the devices and the dealer use is
settled by them, and the deal itself (the dealer's draw) follows them."""
from __future__ import annotations

from config import load_config
from floor import ledger, rounds
from floor.models import Round
from floor.pit import showdown as disputes
from floor.rounds import bets
from floor.rounds.table_rules import configured, table_rules
from floor.settings import HouseSettings
from tests.floor.rounds.helpers import DEALER, at, bet_returns, books_balance, event, fund, tid


def _house(**rules) -> HouseSettings:
    """The house settings as the app makes them at start, from the environment a deployment sets."""
    environ = {"FLOOR_SECRET_KEY": "k", **{f"FLOOR_RULES_{k.upper()}": v for k, v in rules.items()}}
    cfg = load_config(environ=environ)
    return configured(HouseSettings.from_mapping(cfg["house"]), cfg["rules"])


def _scan(session, table, house, *cards, start=10):
    for i, c in enumerate(cards):
        event(session, rounds.card, table, c, "scanner", None, at(start + i), house=house)


def test_a_blackjack_configured_six_to_five_pays_six_to_five(session):
    house = _house(blackjack_blackjack_pays="6/5")
    table = tid(session, 14)
    fund(session, 6, 10_000)
    r = rounds.open_betting(session, DEALER, table, at(0), house=house)
    b, _ = bets.place(session, DEALER, table, spot="bet", seat=1, amount=1_000, player_id=6, at=at(1), house=house)
    session.commit()
    rounds.close_betting(session, DEALER, table, at(5))
    session.commit()
    _scan(session, table, house, "AS", "9S", "KD", "8C")       # seat 1 blackjack; the dealer 17 stands
    session.expire_all()
    assert session.get(Round, r.id).status == "settled"
    assert bet_returns(session, b.id, ledger.player_account(session, 6)) == 1_000 + 1_200    # 6:5, not 3:2 (1,500)
    assert ledger.player_balance(session, 6) == 10_000 + 1_200
    books_balance(session)


def test_a_dealer_configured_to_hit_soft_17_draws_on_it(session):
    house = _house(blackjack_dealer_hits_soft_17="true")
    table = tid(session, 14)
    fund(session, 6, 10_000)
    r = rounds.open_betting(session, DEALER, table, at(0), house=house)
    b, _ = bets.place(session, DEALER, table, spot="bet", seat=1, amount=1_000, player_id=6, at=at(1), house=house)
    session.commit()
    rounds.close_betting(session, DEALER, table, at(5))
    session.commit()
    _scan(session, table, house, "TH", "6D", "9C", "AH")       # seat 1: 19; the dealer 6 up, ace in the hole
    event(session, rounds.decide, DEALER, table, 1, "stand", at(20), house=house)
    r_now = rounds.active_round(session, table, lock=False)
    assert rounds.build_flow(session, r_now, house).expecting() == ("card", "dealer")   # soft 17: he draws
    assert rounds.build_flow(session, r_now, HouseSettings()).expecting()[0] == "done"   # the games' default stands
    _scan(session, table, house, "2C", start=21)               # 19: a push
    session.expire_all()
    assert session.get(Round, r.id).status == "settled"
    assert bet_returns(session, b.id, ledger.player_account(session, 6)) == 1_000
    books_balance(session)


def test_a_roulette_straight_configured_at_36_pays_36(session):
    house = _house(roulette_straight="36")
    table = tid(session, 12)
    fund(session, 1, 10_000)
    event(session, rounds.wheel_status, table, 2, 11, (), at(0), winning=None, house=house)
    r = rounds.active_round(session, table, lock=False)
    b, _ = bets.place(session, DEALER, table, spot="straight", numbers=[17], amount=1_000, player_id=1, at=at(1), house=house)
    split, _ = bets.place(session, DEALER, table, spot="split", numbers=[17, 20], amount=1_000, player_id=1, at=at(1),
                          house=house)
    session.commit()
    event(session, rounds.wheel_status, table, 3, 11, (), at(5), house=house)
    event(session, rounds.wheel_status, table, 4, 11, (), at(9), house=house)
    event(session, rounds.wheel_number, table, 11, 17, at(14))
    out = event(session, rounds.wheel_status, table, 5, 11, (), at(14.2), winning=17, house=house)
    assert out.settle == r.id
    session.expire_all()
    acct = ledger.player_account(session, 1)
    assert bet_returns(session, b.id, acct) == 37_000                # 36 to 1
    assert bet_returns(session, split.id, acct) == 18_000            # the split keeps its 17 to 1
    books_balance(session)


def test_a_baccarat_tie_configured_at_9_pays_9(session):
    house = _house(baccarat_tie_pays="9")
    table = tid(session, 10)
    rounds.new_shoe(session, DEALER, table, at(0), house=house)
    fund(session, 6, 10_000)
    rounds.open_betting(session, DEALER, table, at(0), house=house)
    tie, _ = bets.place(session, DEALER, table, spot="tie", amount=1_000, player_id=6, at=at(1), house=house)
    session.commit()
    rounds.close_betting(session, DEALER, table, at(5))
    session.commit()
    _scan(session, table, house, "9S", "9H", "KD", "QC")       # naturals: 9 and 9, a tie
    assert bet_returns(session, tie.id, ledger.player_account(session, 6)) == 10_000     # 9 to 1, not 8 to 1
    books_balance(session)


def test_a_casino_holdem_flush_configured_at_3_pays_3(session):
    house = _house(casino_holdem_flush="3")
    table = tid(session, 15)
    fund(session, 11, 10_000)
    r = rounds.open_betting(session, DEALER, table, at(0), house=house)
    ante, _ = bets.place(session, DEALER, table, spot="ante", seat=1, amount=1_000, player_id=11, at=at(1), house=house)
    session.commit()
    rounds.close_betting(session, DEALER, table, at(5))
    session.commit()
    _scan(session, table, house, "KC", "4H", "QC", "4S", "AS", "9C", "3C")     # seat, dealer, seat, dealer, flop
    event(session, rounds.decide, DEALER, table, 1, "call", at(30), house=house)
    _scan(session, table, house, "8D", "JC", start=40)          # a club flush against the dealer's fours
    session.expire_all()
    assert session.get(Round, r.id).status == "settled"
    assert bet_returns(session, ante.id, ledger.player_account(session, 11)) == 1_000 + 3_000     # 3 to 1, not 2 to 1
    assert ledger.player_balance(session, 11) == 10_000 - 3_000 + 4_000 + 4_000
    books_balance(session)


def test_the_showdown_ruling_takes_the_configured_rake_unless_the_dealer_says_what_he_took():
    rules = table_rules(_house(poker_percent="1/20", poker_cap="300")).poker
    seats = [disputes.SeatHand(1, "AH AD", 20_000), disputes.SeatHand(2, "KS KC", 20_000)]
    by_rule = disputes.evaluate("holdem", seats, ["2C 7D 9S JH 3C"], None, rules)
    assert by_rule["rake"] == 300 and by_rule["won"] == {"1": 40_000 - 300, "2": 0}     # 5 %, capped at 3.00
    assert disputes.evaluate("holdem", seats, ["2C 7D 9S JH 3C"], 0, rules)["rake"] == 0
    assert disputes.evaluate("holdem", seats, ["2C 7D 9S JH 3C"], None, table_rules(HouseSettings()).poker)["rake"] == 0


def test_the_pits_house_edges_follow_the_configured_rules():
    from fractions import Fraction

    from floor.pit.ratings import bet_edge
    assert bet_edge("roulette", "straight", HouseSettings()) == Fraction(1, 37)
    assert bet_edge("roulette", "straight", _house(roulette_straight="36")) == 0          # 36 to 1 on 37 pockets
    assert bet_edge("blackjack", "bet", _house(blackjack_blackjack_pays="6/5")) > bet_edge("blackjack", "bet", HouseSettings())
