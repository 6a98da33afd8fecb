"""House edges by game and bet kind, and the theoretical win of a rating."""
from fractions import Fraction

import pytest

from floor.games.baccarat import BaccaratSettings
from floor.games.base import GameInputError
from floor.games.blackjack import BlackjackSettings
from floor.games.casino_holdem import CasinoHoldemSettings
from floor.games.edges import edge_percent, house_edge, roulette_edge, theo_cents, theoretical_win
from floor.games.roulette import KINDS, RouletteSettings

WHEEL = RouletteSettings()


@pytest.mark.parametrize("kind", KINDS)
def test_every_roulette_bet_gives_the_house_one_pocket_in_37(kind):
    assert roulette_edge(kind, WHEEL) == Fraction(1, 37)
    assert edge_percent(roulette_edge(kind, WHEEL)) == "2.7027 %"


def test_a_changed_roulette_payout_moves_its_edge():
    # a straight at 34:1 hands back 35/37 of the stake; the other kinds keep 1/37
    mean = RouletteSettings(straight=34)
    assert roulette_edge("straight", mean) == Fraction(2, 37)
    assert roulette_edge("split", mean) == Fraction(1, 37)
    # a split at 18:1 (a 2-number bet paying 19 for 1) is a player's edge: 1 - 2 x 19 / 37
    assert roulette_edge("split", RouletteSettings(split=18)) == Fraction(-1, 37)
    # a dozen at 2:1 covers 12 of 37 pockets: 1 - 12 x 3 / 37
    assert roulette_edge("dozen", WHEEL) == 1 - Fraction(36, 37)


def test_house_edge_dispatches_with_the_tables_settings():
    assert house_edge("roulette", "red", WHEEL) == Fraction(1, 37)
    assert round(float(house_edge("baccarat", "banker", BaccaratSettings(), decks=8)) * 100, 4) == 1.0579
    assert 0.004 < house_edge("blackjack", "main", BlackjackSettings(), decks=6) < 0.005
    assert house_edge("blackjack", "insurance", BlackjackSettings(), decks=1) == Fraction(3, 51)
    assert house_edge("casino_holdem", "ante", CasinoHoldemSettings()) == Fraction("0.0216")
    assert round(float(house_edge("casino_holdem", "aa_bonus", CasinoHoldemSettings())) * 100, 2) == 6.40


@pytest.mark.parametrize("game,bet,settings,decks,match", [
    ("craps", "pass", WHEEL, None, "no game"),
    ("roulette", "basket", WHEEL, None, "no roulette bet"),
    ("roulette", "red", BaccaratSettings(), None, "needs RouletteSettings"),
    ("baccarat", "banker", BaccaratSettings(), None, "decks"),
    ("blackjack", "main", BlackjackSettings(), None, "decks"),
    ("blackjack", "surrender", BlackjackSettings(), 6, "no blackjack bet"),
    ("casino_holdem", "call", CasinoHoldemSettings(), None, "no Casino Hold'em bet"),
])
def test_bad_questions_get_a_clear_error(game, bet, settings, decks, match):
    with pytest.raises(GameInputError, match=match):
        house_edge(game, bet, settings, decks=decks)


def test_theoretical_win_is_exact_and_rounded_once():
    # 3 straight-up bets of 1.00 at 1/37: 2.7027... cents each; summed then rounded: 8 cents, where
    # rounding each first would give 9
    theo = sum((theoretical_win(100, Fraction(1, 37)) for _ in range(3)), Fraction(0))
    assert theo == Fraction(300, 37)
    assert theo_cents(theo) == 8
    assert sum(theo_cents(theoretical_win(100, Fraction(1, 37))) for _ in range(3)) == 9
    assert theo_cents(Fraction(5, 2)) == 3 and theo_cents(Fraction(-5, 2)) == -2   # half up
    assert theoretical_win(0, Fraction(1, 37)) == 0


@pytest.mark.parametrize("stake,edge", [(-1, Fraction(1, 37)), (1.5, Fraction(1, 37)), (100, 0.027)])
def test_theoretical_win_refuses_floats_and_negative_stakes(stake, edge):
    with pytest.raises(GameInputError):
        theoretical_win(stake, edge)
