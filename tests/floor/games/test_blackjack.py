"""Blackjack: values, the dealer's published bust odds by exact recursion, and table-driven settlement."""
from fractions import Fraction

import pytest

from floor.games.base import GameInputError
from floor.games.blackjack import (
    DEFAULT,
    BlackjackSettings,
    PlayerHand,
    Seat,
    dealer_must_draw,
    hand_value,
    is_blackjack,
    settle,
)
from floor.games.cards import Card, parse_cards


@pytest.mark.parametrize("codes,total,soft", [
    ("AS KD", 21, True), ("AS AD", 12, True), ("AS AD 9C", 21, True), ("AS 6D", 17, True),
    ("AS 6D TC", 17, False), ("KS QD", 20, False), ("KS QD 5C", 25, False), ("2S 3D", 5, False),
    ("AS AD AC AH", 14, True), ("AS AD AC AH KS", 14, False), ("JS 5D AC", 16, False),
])
def test_hand_value(codes, total, soft):
    assert hand_value(parse_cards(codes)) == (total, soft)


def test_blackjack_and_dealer_rule():
    assert is_blackjack("AS KD") and is_blackjack("TH AC")
    assert not is_blackjack("AS 5D 5C") and not is_blackjack("KS QD")
    assert dealer_must_draw("TS 6D", DEFAULT) and not dealer_must_draw("TS 7D", DEFAULT)
    assert not dealer_must_draw("AS 6D", DEFAULT)                                    # stands on soft 17
    assert dealer_must_draw("AS 6D", BlackjackSettings(dealer_hits_soft_17=True))
    assert not dealer_must_draw("AS 6D TC 5H", DEFAULT)                              # busted: stops


# --- published dealer probabilities: one deck, only the up card removed, stands on soft 17 ----------

REP = {v: Card.parse(c) for v, c in
       {1: "AS", 2: "2S", 3: "3S", 4: "4S", 5: "5S", 6: "6S", 7: "7S", 8: "8S", 9: "9S", 10: "TS"}.items()}


def dealer_outcomes(up: int) -> dict[str, Fraction]:
    """Exact probabilities of the dealer's bust and blackjack, walking every draw from the deck."""
    counts = {v: 4 for v in range(1, 10)} | {10: 16}
    counts[up] -= 1
    out = {"bust": Fraction(0), "blackjack": Fraction(0)}

    def walk(hand, p):
        if is_blackjack(hand):
            out["blackjack"] += p
            return
        if len(hand) >= 2 and not dealer_must_draw(hand, DEFAULT):
            if hand_value(hand)[0] > 21:
                out["bust"] += p
            return
        left = sum(counts.values())
        for v, n in counts.items():
            if n:
                counts[v] -= 1
                walk(hand + [REP[v]], p * Fraction(n, left))
                counts[v] += 1

    walk([REP[up]], Fraction(1))
    return out


def test_dealer_bust_probabilities():
    by_up = {up: dealer_outcomes(up) for up in range(1, 11)}
    overall = sum(by_up[up]["bust"] * (16 if up == 10 else 4) for up in by_up) / 52
    assert round(float(overall), 6) == 0.283585
    assert round(float(by_up[6]["bust"]), 6) == 0.420823
    assert round(float(by_up[1]["bust"]), 5) == 0.11654
    # 16/51 = 0.3137254..., published as 0.313726 (rounded up at the seventh place)
    assert abs(float(by_up[1]["blackjack"]) - 0.313726) < 1e-6 and by_up[1]["blackjack"] == Fraction(16, 51)


# --- settlement ----------------------------------------------------------------------------------

def one(bet, hands, dealer, insurance=0, settings=BlackjackSettings()):
    """Settle a single seat; returns (total returned, per-hand returned, insurance returned)."""
    r = settle({1: Seat(bet, hands, insurance)}, dealer, settings)[1]
    return r.returned, [h.returned for h in r.hands], r.insurance


CASES = [
    # name, bet, hands, dealer, insurance, total returned
    ("blackjack pays 3:2", 1000, ["AS KD"], "9C 8D", 0, 2500),
    ("blackjack 3:2 rounds down", 1005, ["AS KD"], "9C 8D", 0, 2512),
    ("blackjack vs dealer 21 in three", 1000, ["AS KD"], "5C 6D TH", 0, 2500),
    ("both blackjack push", 1000, ["AS KD"], "AC QD", 0, 1000),
    ("win 1:1", 1000, ["TS 9D"], "TC 8D", 0, 2000),
    ("lose", 1000, ["TS 7D"], "TC 8D", 0, 0),
    ("push on equal totals", 1000, ["TS 8D"], "9C 9D", 0, 1000),
    ("dealer busts", 1000, ["TS 2D"], "TC 6D 8H", 0, 2000),
    ("player bust loses though dealer busts", 1000, ["TS 6D 9H"], "TC 6D 8H", 0, 0),
    ("player bust, dealer need not draw", 1000, ["TS 6D 9H"], "TC 6D", 0, 0),
    ("dealer blackjack beats 21", 1000, ["7S 7D 7H"], "KC AD", 0, 0),
    ("dealer blackjack (ace up, peeked) beats 20", 1000, ["TS QD"], "AC KD", 0, 0),
    ("double wins twice the doubled stake", 1000, [PlayerHand("5S 6D TH", doubled=1000)], "TC 8D", 0, 4000),
    ("double for less", 1000, [PlayerHand("5S 6D TH", doubled=400)], "TC 8D", 0, 2800),
    ("double loses both", 1000, [PlayerHand("5S 6D 2H", doubled=1000)], "TC 8D", 0, 0),
    ("double pushes", 1000, [PlayerHand("5S 6D 7H", doubled=1000)], "TC 8D", 0, 2000),
    ("split: win one, lose one", 1000, ["8S 9D", "8H 2C 9S"], "TC 8D", 0, 2000),
    ("split: 21 is not blackjack, pays 1:1", 1000, ["KS AD", "KH 9C"], "TC 9D", 0, 3000),
    ("split aces one card each", 1000, ["AS KD", "AH 5C"], "TC 7D", 0, 2000),
    ("split and double", 1000, [PlayerHand("5S 6D TH", doubled=1000), "5H 9C"], "TC 7D", 0, 4000),
    ("split 21 vs dealer 21 push", 1000, ["KS AD", "KH 9C"], "TC 5D 6H", 0, 1000),
    ("insurance pays 2:1, hand loses", 1000, ["TS 9D"], "AC KD", 500, 1500),
    ("insurance and blackjack push: even money", 1000, ["AS KD"], "AC QD", 500, 2500),
    ("insurance lost, hand wins", 1000, ["TS 9D"], "AC 7D", 500, 2000),
    # dealer blackjack found after play (ten up): only the original bet is lost by default
    ("late blackjack: double keeps its extra stake", 1000, [PlayerHand("5S 6D 7H", doubled=1000)], "TC AD", 0, 1000),
    ("late blackjack: split loses one bet", 1000, ["8S TD", "8H 2C 9S"], "TC AD", 0, 1000),
    ("late blackjack: split and double", 1000, [PlayerHand("5S 6D TH", doubled=1000), "5H 9C"], "KC AD", 0, 2000),
    ("late blackjack: a busted split hand already lost the bet", 1000, ["8S TD 5C", "8H 2C 9S"], "TC AD", 0, 1000),
    ("late blackjack: unsplit hand loses its bet", 1000, ["8S TD"], "TC AD", 0, 0),
    ("late blackjack vs blackjack push", 1000, ["AS KD"], "TC AD", 0, 1000),
]


@pytest.mark.parametrize("name,bet,hands,dealer,insurance,expected", CASES, ids=[c[0] for c in CASES])
def test_settlement(name, bet, hands, dealer, insurance, expected):
    assert one(bet, hands, dealer, insurance)[0] == expected


def test_late_blackjack_taking_all_bets_is_a_house_setting():
    all_bets = BlackjackSettings(late_blackjack_takes="all_bets")
    assert one(1000, [PlayerHand("5S 6D 7H", doubled=1000)], "TC AD", settings=all_bets)[0] == 0
    assert one(1000, ["8S TD", "8H 2C 9S"], "TC AD", settings=all_bets)[0] == 0
    assert one(1000, ["AS KD"], "TC AD", settings=all_bets)[0] == 1000


def test_other_house_settings():
    six_five = BlackjackSettings(blackjack_pays=Fraction(6, 5))
    assert one(1000, ["AS KD"], "9C 8D", settings=six_five)[0] == 2200
    assert one(1005, ["AS KD"], "9C 8D", settings=BlackjackSettings(payout_rounding="up"))[0] == 2513
    h17 = BlackjackSettings(dealer_hits_soft_17=True)
    assert one(1000, ["TS 8D"], "AC 6D 2H", settings=h17)[0] == 0          # hits soft 17, makes 19
    with pytest.raises(GameInputError, match="standing on 17"):
        one(1000, ["TS 8D"], "AC 6D 2H")                                    # S17: no card on soft 17


def test_per_hand_detail_and_several_seats():
    seats = {
        1: Seat(1000, ("AS KD",)),
        3: Seat(2000, (PlayerHand("8S 3D KC", doubled=2000),)),
        5: Seat(500, ("9S 9D", "9H 7C TS")),
        7: Seat(100, ("TS 6D",)),
    }
    r = settle(seats, "TC 7D", DEFAULT)
    assert r[1].returned == 2500 and r[1].hands[0].outcome == "blackjack"
    assert r[3].returned == 8000 and r[3].hands[0].outcome == "win"
    assert [h.outcome for h in r[5].hands] == ["win", "bust"] and r[5].returned == 1000
    assert r[7].returned == 0 and r[7].hands[0].total == 16


@pytest.mark.parametrize("seat,dealer,match", [
    (Seat(1000, ("TS",)), "TC 8D", "at least two"),
    (Seat(1000, ("TS 8D",)), "TC", "at least 2"),
    (Seat(-5, ("TS 8D",)), "TC 8D", "negative"),
    (Seat(0, ("TS 8D",)), "TC 8D", "with a bet"),
    (Seat(1000, ("TS 8D", "9H 9C")), "TC 8D", "pair"),
    (Seat(1000, ("8S TD", "8H 2C", "8C 9D")), "TC 8D", "hands"),
    (Seat(1000, ("AS KD 5C",)), "TC 8D", "drew 5C on 21"),
    (Seat(1000, ("TS 5D 9C 2H",)), "TC 8D", "drew 2H on 24"),
    (Seat(1000, ("AS 5D", "AH 3C 7D")), "TC 8D", "split aces"),
    (Seat(1000, (PlayerHand("5S 6D", doubled=1000),)), "TC 8D", "exactly one card"),
    (Seat(1000, (PlayerHand("5S 6D 2C", doubled=1500),)), "TC 8D", "more than the bet"),
    (Seat(1000, ("TS 8D",), insurance=500), "TC 8D", "ace"),
    (Seat(1000, ("TS 8D",), insurance=501), "AC 8D", "half"),
    (Seat(1000, ("TS 8D",)), "TC 5D", "stopped on 15"),
    (Seat(1000, ("TS 8D",)), "TC 8D 2H", "standing on 18"),
    (Seat(1000, ("TS 8D",)), "AC KD 2H", "blackjack draws no card"),
    (Seat(1000, ("TS 2D 5C",)), "AC KD", "peeked"),
])
def test_impossible_rounds_refused(seat, dealer, match):
    with pytest.raises(GameInputError, match=match):
        settle({1: seat}, dealer, DEFAULT)


def test_no_double_after_split_when_the_house_says_so():
    with pytest.raises(GameInputError, match="after a split"):
        one(1000, [PlayerHand("5S 6D TH", doubled=1000), "5H 9C"], "TC 7D",
            settings=BlackjackSettings(double_after_split=False))
