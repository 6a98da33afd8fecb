"""Casino Hold'em: every row of both pay tables, fold, qualification, ties."""
import pytest

from floor.games.base import GameInputError
from floor.games.casino_holdem import (
    DEFAULT,
    CasinoHoldemSettings,
    aa_bonus_pays,
    ante_pays,
    dealer_qualifies,
    returned,
)
from floor.games.poker import hand_rank

ANTE, CALL = 100, 200

ANTE_ROWS = [
    # row, player, board, dealer (qualifying, beaten), player's category, odds
    ("royal flush", "AS KS", "QS JS TS 2D 3C", "4H 4D", "straight_flush", 100),
    ("straight flush", "9H 8H", "7H 6H 5H KD 2C", "KS QC", "straight_flush", 20),
    ("four of a kind", "9H 9D", "9S 9C 5H KD 2C", "KS QC", "four_of_a_kind", 10),
    ("full house", "9H 9D", "9S 5C 5H KD 2C", "KS QC", "full_house", 3),
    ("flush", "AH 3H", "7H 6H QH KD 2C", "KS QC", "flush", 2),
    ("straight", "8D 9C", "7H 6H TS KD 2C", "KS QC", "straight", 1),
    ("three of a kind", "AD AC", "AH 6H TS KD 2C", "KS QC", "three_of_a_kind", 1),
    ("two pair", "AD TC", "AH 6H TS KD 2C", "KS QC", "two_pair", 1),
    ("pair", "AD 3C", "AH 6H TS KD 2C", "KS QC", "pair", 1),
]


@pytest.mark.parametrize("row,player,board,dealer,category,odds", ANTE_ROWS, ids=[r[0] for r in ANTE_ROWS])
def test_ante_pay_table_player_beats_qualifying_dealer(row, player, board, dealer, category, odds):
    assert hand_rank("holdem", player, board).category == category
    assert dealer_qualifies(dealer, board, DEFAULT)
    assert ante_pays(player, board, DEFAULT) == odds
    assert returned(ANTE, 0, True, player, dealer, board, DEFAULT) == ANTE * (1 + odds) + 2 * CALL


def test_dealer_not_qualifying_pays_ante_by_table_call_pushes():
    # dealer's pair of threes does not qualify: the ante is paid even though the dealer holds more
    board = "AS KC 9D 7H 2S"
    assert not dealer_qualifies("3H 3D", board, DEFAULT)
    assert returned(ANTE, 0, True, "5C 6C", "3H 3D", board, DEFAULT) == 200 + 200
    # royal flush against a non-qualifying dealer: 100:1 on the ante, call back
    assert returned(ANTE, 0, True, "AS KS", "8H 7D", "QS JS TS 2D 3C", DEFAULT) == 10_100 + 200


def test_pair_of_fours_is_the_lowest_qualifier():
    board = "AS KC 9D 7H 2S"
    assert dealer_qualifies("4H 4D", board, DEFAULT)
    assert not dealer_qualifies("3H 3D", board, DEFAULT)
    assert dealer_qualifies("AH 5D", board, DEFAULT)          # a pair of aces with the board
    assert not dealer_qualifies("4H 4D", board, CasinoHoldemSettings(dealer_qualifies_with=5))
    assert returned(ANTE, 0, True, "3C 3S", "4H 4D", board, DEFAULT) == 0   # qualified dealer wins


def test_qualifying_tie_pushes_both_bets():
    assert returned(ANTE, 0, True, "QC 3D", "QH 4S", "AS AC KD 7H 2S", DEFAULT) == ANTE + CALL


def test_board_plays_for_both_is_a_tie():
    assert returned(ANTE, 0, True, "2C 3D", "2H 3S", "AS AC KD KH QS", DEFAULT) == ANTE + CALL


def test_dealer_better_takes_ante_and_call():
    assert returned(ANTE, 0, True, "QC 3D", "KH 4S", "AS AC KD 7H 2S", DEFAULT) == 0


def test_fold_loses_ante_and_aa_bonus():
    assert returned(ANTE, 50, False, "AS AH", "KH 4S", "AD AC 7H", DEFAULT) == 0
    assert returned(ANTE, 50, False, "AS AH", "KH 4S", "AD AC 7H 2S 3D", DEFAULT) == 0


AA_ROWS = [
    ("royal flush", "AS KS", "QS JS TS", 25),
    ("straight flush", "9H 8H", "7H 6H 5H", 25),
    ("four of a kind", "AS AH", "AD AC 2S", 25),
    ("full house", "AS AH", "AD 2C 2S", 25),
    ("flush", "AH 3H", "7H 6H QH", 25),
    ("straight", "8D 9C", "7H 6H TS", 7),
    ("three of a kind", "5D 5C", "5H KS 2C", 7),
    ("two pair", "KS KH", "QC QD 2S", 7),
    ("pair of aces", "AS AH", "2C 7D 9H", 7),
    ("pair of aces, one on the flop", "AS 3H", "AC 7D 9H", 7),
    ("pair of kings", "KS KH", "2C 7D 9H", None),
    ("high card", "AS KH", "2C 7D 9H", None),
]


@pytest.mark.parametrize("row,player,flop,odds", AA_ROWS, ids=[r[0] for r in AA_ROWS])
def test_aa_bonus_pay_table(row, player, flop, odds):
    assert aa_bonus_pays(player, flop, DEFAULT) == odds


def test_aa_bonus_counts_the_flop_only_and_needs_a_call():
    # aces on the flop, quads only with turn and river: still 7:1
    board = "2C 7D 9H AD AC"
    ante_part = returned(ANTE, 0, True, "AS AH", "KH KS", board, DEFAULT)
    assert returned(ANTE, 50, True, "AS AH", "KH KS", board, DEFAULT) == ante_part + 50 * 8
    # the bonus pays even when the dealer beats the hand
    assert returned(ANTE, 50, True, "AS AH", "9S 9D", "2C 7D 9H KD 3C", DEFAULT) == 50 * 8
    # a losing bonus is simply lost
    assert returned(ANTE, 50, True, "KS KH", "9S 8D", "2C 7D 4H KD 3C", DEFAULT) == 100 * 2 + 200
    assert returned(ANTE, 50, True, "KS KH", "9S 9D", "2C 7D 4H KD 3C", DEFAULT) == 100 * 2 + 200 * 2


def test_pay_tables_are_house_settings():
    s = CasinoHoldemSettings(full_house=4, aa_aces_to_straight=8)
    # full house on the flop: 4:1 on the ante, and 25:1 on the AA bonus (flush or better)
    assert returned(ANTE, 10, True, "9H 9D", "KS QC", "9S 5C 5H KD 2C", s) == 100 * 5 + 400 + 10 * 26
    assert aa_bonus_pays("AS AH", "2C 7D 9H", s) == 8


@pytest.mark.parametrize("args,match", [
    ((-1, 0, True, "AS AH", "KH 4S", "2C 7D 9H KD 3C"), "negative"),
    ((0, 0, True, "AS AH", "KH 4S", "2C 7D 9H KD 3C"), "ante"),
    ((100, 0, True, "AS", "KH 4S", "2C 7D 9H KD 3C"), "player"),
    ((100, 0, True, "AS AH", "KH 4S", "2C 7D 9H"), "board"),
    ((100, 0, True, "AS AH", "AS 4S", "2C 7D 9H KD 3C"), "twice"),
])
def test_impossible_input_refused(args, match):
    with pytest.raises(GameInputError, match=match):
        returned(*args, DEFAULT)
