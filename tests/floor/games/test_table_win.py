"""A table's inventory win and its reconciliation with the rounds, from a shift played bet by bet."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from floor.games import roulette
from floor.games.base import GameInputError
from floor.games.table_win import hold_basis_points, inventory_win, over_threshold, reconcile, tray_total

CHIPS = (100, 500, 2_500, 10_000, 50_000, 100_000)
WHEEL = roulette.RouletteSettings()
KINDS = [b for b in roulette.all_bets() if b.kind in ("straight", "split", "red", "dozen", "column", "corner")]


class Shift:
    """A roulette table played bet by bet: the tray is a real pile of money moved by every event,
    and the rounds' win is what the settled bets say, kept apart from the tray."""

    def __init__(self, opening: int):
        self.opening = self.tray = opening
        self.drop = self.fills = self.credits = self.rounds_win = 0

    def buy_in(self, cash: int):            # chips out of the tray, cash into the drop box
        self.tray -= cash
        self.drop += cash

    def fill(self, amount: int):
        self.tray += amount
        self.fills += amount

    def credit(self, amount: int):
        amount = min(amount, max(self.tray, 0))
        self.tray -= amount
        self.credits += amount

    def spin(self, bets: list[tuple[roulette.Bet, int]], number: int, short: int = 0) -> None:
        """Every bet settled on ``number``: losing stakes go into the tray, winners are paid from it
        (their stake stays with them). ``short``: what the dealer paid less than he should have."""
        for b, stake in bets:
            back = roulette.returned(b, stake, number, WHEEL)
            result = stake - back                  # the house's result of this bet
            self.rounds_win += result
            self.tray += result                    # lost stake in, or the win beyond the stake out
        self.tray += short

    def reconcile(self, closing: int | None = None):
        return reconcile(drop=self.drop, opening=self.opening, closing=self.tray if closing is None else closing,
                         fills=self.fills, credits=self.credits, rounds_win=self.rounds_win)


bets_of_a_spin = st.lists(st.tuples(st.sampled_from(KINDS), st.sampled_from(CHIPS[:4])), min_size=0, max_size=12)
event = st.one_of(
    st.tuples(st.just("buy_in"), st.integers(1, 200).map(lambda n: n * 500)),
    st.tuples(st.just("fill"), st.sampled_from(CHIPS[3:]).map(lambda c: c * 10)),
    st.tuples(st.just("credit"), st.sampled_from(CHIPS[3:]).map(lambda c: c * 5)),
    st.tuples(st.just("spin"), st.tuples(bets_of_a_spin, st.integers(0, 36))),
)


@settings(max_examples=200, deadline=None)
@given(opening=st.integers(0, 50).map(lambda n: n * 100_000), events=st.lists(event, max_size=60))
def test_a_shift_played_bet_by_bet_whose_tray_is_counted_reconciles_to_zero(opening, events):
    shift = Shift(opening)
    for what, value in events:
        if what == "spin":
            shift.spin(*value)
        else:
            getattr(shift, what)(value)
    if shift.tray < 0:                               # a tray is never counted below nothing: fill it first
        shift.fill(-shift.tray)
    rec = shift.reconcile()
    assert rec.difference == 0
    assert rec.inventory_win == rec.rounds_win
    assert not over_threshold(rec, 0)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), spins=st.integers(1, 40), which=st.data())
def test_one_payout_short_by_25_shows_25(seed, spins, which):
    rng = random.Random(seed)
    shift = Shift(5_000_000)
    shift.buy_in(200_000)
    short_at = which.draw(st.integers(0, spins - 1))
    for i in range(spins):
        bets = [(rng.choice(KINDS), rng.choice(CHIPS[:3])) for _ in range(rng.randint(1, 6))]
        shift.spin(bets, rng.randint(0, 36), short=2_500 if i == short_at else 0)
    rec = shift.reconcile()
    assert rec.difference == 2_500
    assert over_threshold(rec, 2_499) and not over_threshold(rec, 2_500)


def test_a_closing_count_25_short_shows_minus_25():
    shift = Shift(1_000_000)
    shift.buy_in(50_000)
    shift.spin([(roulette.bet("red"), 10_000), (roulette.bet("straight", [17]), 2_500)], 17)
    rec = shift.reconcile(closing=shift.tray - 2_500)
    assert rec.difference == -2_500


def test_the_formula_on_one_sheet():
    # drop 10,000.00; tray 50,000 -> 48,000; a fill of 5,000 and a credit of 1,000
    win = inventory_win(drop=1_000_000, opening=5_000_000, closing=4_800_000, fills=500_000, credits=100_000)
    assert win == 1_000_000 - 200_000 + 100_000 - 500_000 == 400_000
    assert hold_basis_points(win, 1_000_000) == 4_000          # 40.00 %
    assert hold_basis_points(-1, 3) == -3_333                   # -33.33 %
    assert hold_basis_points(2, 3) == 6_667                     # 66.67 %, half away from zero
    assert hold_basis_points(500, 0) is None


def test_a_count_is_chips_of_the_house_by_whole_numbers():
    assert tray_total({100_000: 20, 2_500: 4, 100: 3}, CHIPS) == 2_010_300
    for bad in ({2_000: 1}, {100: -1}, {100: 1.5}, {100: True}, {"100": 1}):
        with pytest.raises(GameInputError):
            tray_total(bad, CHIPS)


@pytest.mark.parametrize("field", ["drop", "opening", "closing", "fills", "credits"])
@pytest.mark.parametrize("value", [-1, 1.0, True, "5"])
def test_amounts_are_whole_non_negative_cents(field, value):
    args = dict(drop=0, opening=0, closing=0, fills=0, credits=0)
    args[field] = value
    with pytest.raises(GameInputError):
        inventory_win(**args)
