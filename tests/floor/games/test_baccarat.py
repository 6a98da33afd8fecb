"""Baccarat: the tableau on hand-picked coups, then the published 8-deck figures by full enumeration."""
from fractions import Fraction

import pytest

from floor.games.baccarat import DEFAULT, BaccaratSettings, next_target, play, returned
from floor.games.baccarat_odds import baccarat_edge, falling, shoe_odds
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


# --- full enumeration of the shoe (floor.games.baccarat_odds walks the tableau above) ----------

EIGHT = BaccaratSettings()


def test_eight_deck_outcome_counts():
    odds = shoe_odds(8)
    assert odds.total == sum(odds.wins.values()) == 4_998_398_275_503_360 == falling(416, 6)
    assert odds.wins["banker"] == 2_292_252_566_437_888
    assert odds.wins["player"] == 2_230_518_282_592_256
    assert odds.wins["tie"] == 475_627_426_473_216


def test_every_outcome_is_a_real_coup_of_its_weight_class():
    odds = shoe_odds(8)
    for (p_total, b_total, n_player, n_banker), (weight, deal) in odds.outcomes.items():
        c = play(deal)
        assert (c.player_total, c.banker_total, len(c.player), len(c.banker)) == (p_total, b_total, n_player,
                                                                                   n_banker)
        assert weight > 0


@pytest.mark.parametrize("spot,published", [("banker", 1.0579), ("player", 1.2351), ("tie", 14.3596)])
def test_eight_deck_house_edges(spot, published):
    assert round(float(baccarat_edge(spot, 8, EIGHT)) * 100, 4) == published


@pytest.mark.parametrize("decks,places,banker,player,tie", [(1, 2, 1.01, 1.29, 15.75),
                                                          (6, 4, 1.0558, 1.2374, 14.4382)])
def test_other_shoes(decks, places, banker, player, tie):
    edges = {s: round(float(baccarat_edge(s, decks, EIGHT)) * 100, places) for s in ("banker", "player", "tie")}
    assert edges == {"banker": banker, "player": player, "tie": tie}


def test_pairs_by_rank_count():
    # 13 ranks of 4 x decks cards: the second card matches the first with (4 decks - 1) of the rest
    for decks in (1, 6, 8):
        p = Fraction(4 * decks - 1, 52 * decks - 1)
        assert shoe_odds(decks).player_pair == shoe_odds(decks).banker_pair == p
        assert baccarat_edge("player_pair", decks, EIGHT) == 1 - 12 * p
    assert round(float(baccarat_edge("banker_pair", 8, EIGHT)) * 100, 2) == 10.36


def test_edges_follow_the_table_settings():
    odds = shoe_odds(8)
    p_banker = Fraction(odds.wins["banker"], odds.total)
    p_tie = Fraction(odds.wins["tie"], odds.total)
    four = BaccaratSettings(banker_commission=Fraction(4, 100))
    # one point less commission hands back 1 % of every banker win
    assert baccarat_edge("banker", 8, EIGHT) - baccarat_edge("banker", 8, four) == p_banker / 100
    assert baccarat_edge("tie", 8, BaccaratSettings(tie_pays=9)) == 1 - 10 * p_tie
    assert baccarat_edge("tie", 8, EIGHT) == 1 - 9 * p_tie
    assert baccarat_edge("banker", 8, BaccaratSettings(commission_rounding="up")) == baccarat_edge("banker", 8, EIGHT)
    assert baccarat_edge("player_pair", 8, BaccaratSettings(pair_pays=12)) < baccarat_edge("player_pair", 8, EIGHT)


@pytest.mark.parametrize("spot,decks", [("dragon", 8), ("banker", 0), ("banker", 13), ("banker", 8.0), ("tie", True)])
def test_bad_edge_questions_refused(spot, decks):
    with pytest.raises(GameInputError):
        baccarat_edge(spot, decks, EIGHT)
