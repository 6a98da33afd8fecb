"""Baccarat: the tableau on hand-picked coups, the payouts, and questions the odds refuse (the odds
themselves, by full enumeration of the shoe, are in test_baccarat_odds.py)."""
from fractions import Fraction

import pytest

from floor.games.baccarat import DEFAULT, BaccaratSettings, next_target, play, returned
from floor.games.baccarat_odds import baccarat_edge
from floor.games.base import GameInputError
from floor.games.cards import parse_cards


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
    assert returned("player_pair", 100, c, DEFAULT) == 1200
    assert returned("banker_pair", 100, coup("8S 4H 9D 5C"), DEFAULT) == 0


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
    assert returned(spot, stake, coup(codes), DEFAULT) == expected


def test_commission_rounding_is_a_house_setting():
    c = coup("2S 9H 3D KC")
    assert returned("banker", 1010, c, BaccaratSettings(commission_rounding="up")) == 1969
    assert returned("banker", 1000, c, BaccaratSettings(banker_commission=Fraction(4, 100))) == 1960
    assert returned("tie", 100, coup("4S 8H 4D KC"), BaccaratSettings(tie_pays=9)) == 1000


@pytest.mark.parametrize("spot,stake", [("banker", -1), ("banker", 1.5), ("dragon", 10)])
def test_bad_bets_refused(spot, stake):
    with pytest.raises(GameInputError):
        returned(spot, stake, coup("9S 5H KD 2C"), DEFAULT)


@pytest.mark.parametrize("spot,decks", [("dragon", 8), ("banker", 0), ("banker", 13), ("banker", 8.0), ("tie", True)])
def test_bad_edge_questions_refused(spot, decks):
    with pytest.raises(GameInputError):
        baccarat_edge(spot, decks, BaccaratSettings())
