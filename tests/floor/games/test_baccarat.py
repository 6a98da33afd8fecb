"""Baccarat: the tableau on hand-picked coups, then the published 8-deck figures by full enumeration."""
from fractions import Fraction

import pytest

from floor.games.baccarat import BaccaratSettings, next_target, play, returned
from floor.games.base import GameInputError
from floor.games.cards import Card, parse_cards


def coup(codes):
    return play(parse_cards(codes))


@pytest.mark.parametrize("codes,player,banker,winner,used", [
    # naturals: both stand after four cards
    ("9S 5H KD 2C", 9, 7, "player", 4),
    ("4S 8H 4D KC", 8, 8, "tie", 4),
    ("2S 9H 3D KC", 5, 9, "banker", 4),
    # player stands on 6/7, banker draws on 0-5 with one card
    ("6S 3H KD 2C 4D", 6, 9, "banker", 5),
    ("7S 6H KD KC", 7, 6, "player", 4),
    # player draws; banker 3 draws unless the player's third card is an 8
    ("2S 3H 2D KC 8D", 2, 3, "banker", 5),
    ("2S 3H 2D KC 7D 5C", 1, 8, "banker", 6),
    # banker 4 draws on 2-7, not on 1 or 8
    ("AS 4H 2D KC AD", 4, 4, "tie", 5),
    ("AS 4H 2D KC 2D 3C", 5, 7, "banker", 6),
    # banker 5 draws on 4-7
    ("AS 5H 2D KC 3D", 6, 5, "player", 5),
    ("AS 5H 2D KC 4D 4C", 7, 9, "banker", 6),
    # banker 6 draws on 6-7 only
    ("AS 6H 2D KC 5D", 8, 6, "player", 5),
    ("AS 6H 2D KC 6D 3C", 9, 9, "tie", 6),
    # banker 7 always stands; banker 0-2 always draws
    ("AS 7H 2D KC 6D", 9, 7, "player", 5),
    ("AS KH 2D KC 8D 9C", 1, 9, "banker", 6),
])
def test_tableau(codes, player, banker, winner, used):
    c = coup(codes)
    assert (c.player_total, c.banker_total, c.winner, c.cards_used) == (player, banker, winner, used)
    assert len(c.player) + len(c.banker) == used


def test_next_target_follows_deal_order():
    cards = parse_cards("2S 3H 2D KC 7D 5C")
    targets = [next_target(cards[:n]) for n in range(7)]
    assert targets == ["player", "banker", "player", "banker", "player", "banker", None]
    assert next_target(parse_cards("9S 5H KD 2C")) is None


def test_extra_cards_are_ignored_and_too_few_refused():
    assert coup("9S 5H KD 2C 3D 4D").cards_used == 4
    with pytest.raises(GameInputError, match="needs another"):
        coup("2S 3H 2D KC")
    with pytest.raises(ValueError):
        coup("2S 3H")


def test_pairs_and_natural_flags():
    c = coup("8S 4H 8D 4C")
    assert c.player_pair and c.banker_pair and c.natural
    assert returned("player_pair", 100, c) == 1200
    assert returned("banker_pair", 100, coup("8S 4H 9D 5C")) == 0


@pytest.mark.parametrize("spot,stake,codes,expected", [
    ("player", 1000, "9S 5H KD 2C", 2000),
    ("banker", 1000, "9S 5H KD 2C", 0),
    ("tie", 1000, "9S 5H KD 2C", 0),
    ("banker", 1000, "2S 9H 3D KC", 1950),    # 1:1 less 5 % commission
    ("banker", 1010, "2S 9H 3D KC", 1970),    # commission 50.5 c rounded down to 50 c
    ("banker", 1, "2S 9H 3D KC", 2),          # 0.05 c commission rounds down to nothing
    ("player", 1000, "4S 8H 4D KC", 1000),    # tie: player and banker push
    ("banker", 1000, "4S 8H 4D KC", 1000),
    ("tie", 1000, "4S 8H 4D KC", 9000),       # 8:1
    ("banker", 0, "2S 9H 3D KC", 0),
])
def test_returned(spot, stake, codes, expected):
    assert returned(spot, stake, coup(codes)) == expected


def test_commission_rounding_is_a_house_setting():
    c = coup("2S 9H 3D KC")
    assert returned("banker", 1010, c, BaccaratSettings(commission_rounding="up")) == 1969
    assert returned("banker", 1000, c, BaccaratSettings(banker_commission=Fraction(4, 100))) == 1960
    assert returned("tie", 100, coup("4S 8H 4D KC"), BaccaratSettings(tie_pays=9)) == 1000


@pytest.mark.parametrize("spot,stake", [("banker", -1), ("banker", 1.5), ("dragon", 10)])
def test_bad_bets_refused(spot, stake):
    with pytest.raises(GameInputError):
        returned(spot, stake, coup("9S 5H KD 2C"))


# --- full enumeration of the 8-deck shoe ------------------------------------------------------

SHOE = 416
REPRESENTATIVE = {0: "TS", 1: "AS", **{v: f"{v}S" for v in range(2, 10)}}
REP_CARDS = {v: Card.parse(code) for v, code in REPRESENTATIVE.items()}


def falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


def enumerate_shoe():
    """Weight of every coup over all ordered 6-card draws from 8 decks, by card value.

    The tableau decides through ``next_target`` how many cards the coup takes; cards it does not
    take still count as the rest of the 6-card draw, hence the falling factorial.
    """
    counts = [128] + [32] * 9  # ten-valued cards are 4 ranks of 32
    wins = {"player": 0, "banker": 0, "tie": 0}
    stake = 100
    back = {"player": 0, "banker": 0, "tie": 0}

    def walk(cards, weight):
        if next_target(cards) is None:
            k = len(cards)
            w = weight * falling(SHOE - k, 6 - k)
            c = play(cards)
            wins[c.winner] += w
            for spot in back:
                back[spot] += w * returned(spot, stake, c)
            return
        for v in range(10):
            n = counts[v]
            if n:
                counts[v] -= 1
                walk(cards + [REP_CARDS[v]], weight * n)
                counts[v] += 1

    walk([], 1)
    return wins, back


@pytest.fixture(scope="module")
def shoe_figures():
    return enumerate_shoe()


@pytest.mark.slow
def test_eight_deck_outcome_counts(shoe_figures):
    wins, _ = shoe_figures
    assert sum(wins.values()) == 4_998_398_275_503_360 == falling(416, 6)
    assert wins["banker"] == 2_292_252_566_437_888
    assert wins["player"] == 2_230_518_282_592_256
    assert wins["tie"] == 475_627_426_473_216


@pytest.mark.slow
def test_eight_deck_house_edges(shoe_figures):
    _, back = shoe_figures
    total = falling(416, 6)
    edge = {spot: 1 - Fraction(back[spot], total * 100) for spot in back}
    assert round(float(edge["banker"]) * 100, 4) == 1.0579
    assert round(float(edge["player"]) * 100, 4) == 1.2351
    assert round(float(edge["tie"]) * 100, 4) == 14.3596
