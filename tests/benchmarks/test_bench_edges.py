"""First-call cost of the exact edge computations (each is cached afterwards).

Run by ``make bench``; prints ``baccarat_shoe_8_decks_s``, ``blackjack_infinite_deck_s`` and
``aa_bonus_enumeration_s``: seconds for one uncached computation.
"""
import time

from floor.games import baccarat_odds, blackjack_odds, holdem_odds
from floor.games.blackjack import BlackjackSettings
from floor.games.casino_holdem import CasinoHoldemSettings


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def test_bench_edges():
    baccarat_odds._shoe_odds.cache_clear()
    blackjack_odds.infinite_deck_expectation.cache_clear()
    holdem_odds.aa_bonus_odds.cache_clear()
    shoe = timed(lambda: baccarat_odds.shoe_odds(8))
    blackjack = timed(lambda: blackjack_odds.infinite_deck_expectation(BlackjackSettings()))
    bonus = timed(lambda: holdem_odds.aa_bonus_odds(CasinoHoldemSettings()))
    print()
    print(f"baccarat_shoe_8_decks_s: {shoe:.3f}")
    print(f"blackjack_infinite_deck_s: {blackjack:.3f}")
    print(f"aa_bonus_enumeration_s: {bonus:.3f}")
    assert baccarat_odds.shoe_odds(8).wins["banker"] > 0
