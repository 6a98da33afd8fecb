"""Baccarat's exact odds: every coup of a fresh shoe enumerated (floor.games.baccarat_odds walks the
tableau of floor.games.baccarat), checked against the published house edges."""
from fractions import Fraction

import pytest

from floor.games.baccarat import BaccaratSettings, play
from floor.games.baccarat_odds import baccarat_edge, falling, shoe_odds

# each shoe size takes about a second to enumerate: left out of `make test-fast`, run by `make test`
pytestmark = pytest.mark.slow

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
