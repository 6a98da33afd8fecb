"""Wheel integrity: the wheel's layout, the closed-form p-values against known critical values, and
the bias check on seeded simulated wheels, fair and biased."""
import math
import random

import pytest

from floor.games.base import GameInputError
from floor.games.wheel_stats import (
    CLASSIC_SECTIONS,
    JEU_ZERO,
    ORPHELINS,
    TIERS_DU_CYLINDRE,
    VOISINS_DU_ZERO,
    WHEEL_ORDER,
    SpeedLimits,
    WheelWatchSettings,
    arc,
    arc_test,
    bias_check,
    binomial_sf,
    chi2_sf,
    direction_breaks,
    frequencies,
    pocket_test,
    section_test,
    speed_faults,
)

WATCH = WheelWatchSettings(window=1000, p_threshold=0.01, arc_pockets=9, min_spins=200)


def spin(rng, weights, n):
    return rng.choices(range(37), weights=weights, k=n)


def test_the_wheel_and_its_sections():
    assert sorted(WHEEL_ORDER) == list(range(37))
    assert WHEEL_ORDER[:5] == (0, 32, 15, 19, 4) and WHEEL_ORDER[-1] == 26
    assert VOISINS_DU_ZERO == {22, 18, 29, 7, 28, 12, 35, 3, 26, 0, 32, 15, 19, 4, 21, 2, 25}
    assert TIERS_DU_CYLINDRE == {27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33}
    assert ORPHELINS == {1, 20, 14, 31, 9, 17, 34, 6}
    assert JEU_ZERO == {12, 35, 3, 26, 0, 32, 15} and JEU_ZERO < VOISINS_DU_ZERO
    assert VOISINS_DU_ZERO | TIERS_DU_CYLINDRE | ORPHELINS == set(range(37))
    assert arc(26, 3) == (26, 0, 32)         # wraps past the end of the list
    assert arc(3, 37)[0] == 3 and len(set(arc(3, 37))) == 37


@pytest.mark.parametrize("x,df,p", [
    (50.998, 36, 0.05), (67.985, 36, 0.001), (58.619, 36, 0.01),   # the df=36 table
    (3.841, 1, 0.05), (6.635, 1, 0.01), (5.991, 2, 0.05), (7.815, 3, 0.05), (11.345, 3, 0.01),
])
def test_chi_square_tail_against_the_published_critical_values(x, df, p):
    assert chi2_sf(x, df) == pytest.approx(p, rel=2e-3)


def test_chi_square_tail_edges():
    assert chi2_sf(0, 36) == 1.0
    assert chi2_sf(2000, 36) < 1e-300
    # the odd and even closed forms interleave: more degrees of freedom, a fatter tail at any x
    for x in (0.5, 3.0, 12.0, 40.0):
        tails = [chi2_sf(x, df) for df in range(1, 40)]
        assert all(b >= a - 1e-12 for a, b in zip(tails, tails[1:]))
    with pytest.raises(GameInputError):
        chi2_sf(1.0, 0)


def test_binomial_tail():
    assert binomial_sf(3, 10, 0.5) == pytest.approx(sum(math.comb(10, j) for j in range(3, 11)) / 1024)
    assert binomial_sf(0, 10, 0.3) == 1.0 and binomial_sf(11, 10, 0.3) == 0.0


def test_frequencies_over_the_last_spins():
    spins = [0, 5, 5, 17, 32, 5]
    assert frequencies(spins)[5] == 3
    last3 = frequencies(spins, last=3)
    assert last3[5] == 1 and last3[17] == 1 and last3[32] == 1 and sum(last3) == 3
    with pytest.raises(GameInputError):
        frequencies([1, 37])
    with pytest.raises(GameInputError):
        frequencies([1, 2], last=0)


def test_a_perfectly_even_wheel_fits_exactly():
    fit = pocket_test(list(range(37)) * 10)
    assert fit.statistic == 0 and fit.p_value == 1.0 and fit.df == 36


def test_sections_and_arcs():
    spins = [0] * 20 + [27] * 10 + [1] * 7   # 20 in the voisins, 10 tiers, 7 orphelins
    fit = section_test(spins, CLASSIC_SECTIONS)
    assert fit.observed == (20, 10, 7) and fit.df == 2
    assert fit.expected == pytest.approx((37 * 17 / 37, 37 * 12 / 37, 37 * 8 / 37))
    one = arc_test(spins, 12, 7)              # jeu zéro against the rest
    assert one.observed == (20, 17) and one.df == 1
    with pytest.raises(GameInputError, match="overlaps"):
        section_test(spins, {"voisins": VOISINS_DU_ZERO, "jeu zéro": JEU_ZERO})


@pytest.mark.slow
def test_fair_wheel_false_alarm_rate_is_within_the_threshold():
    rng = random.Random(20240501)
    windows = 2000
    alarms = sum(bias_check(spin(rng, [1] * 37, 1000), WATCH).possible_bias for _ in range(windows))
    # the count of alarms is at most Binomial(2000, 0.01): more than `limit` has odds under 1 in 1000
    limit = next(k for k in range(windows) if binomial_sf(k, windows, WATCH.p_threshold) < 0.001)
    assert alarms <= limit


def power(weights, windows, seed):
    rng = random.Random(seed)
    return sum(bias_check(spin(rng, weights, 1000), WATCH).possible_bias for _ in range(windows)) / windows


def test_a_sector_at_one_and_a_half_times_is_caught_in_1000_spins():
    heavy = set(arc(5, 9))
    assert power([1.5 if p in heavy else 1 for p in range(37)], 200, seed=7) >= 0.95
    assert power([1.5 if p in VOISINS_DU_ZERO else 1 for p in range(37)], 50, seed=8) == 1.0


def test_one_pocket_twice_as_likely_is_caught_most_of_the_time():
    assert power([2 if p == 17 else 1 for p in range(37)], 200, seed=9) >= 0.6


def test_one_pocket_at_one_and_a_half_is_seen_more_often_than_chance_but_rarely():
    rate = power([1.5 if p == 17 else 1 for p in range(37)], 400, seed=10)
    assert 0.04 <= rate <= 0.2   # the docstring's "about 10 %"


def test_bias_report_figures():
    rng = random.Random(3)
    spins = spin(rng, [3 if p == 17 else 1 for p in range(37)], 1000)
    report = bias_check(spins, WATCH)
    assert report.possible_bias and report.spins == 1000
    hottest = next(t for t in report.tests if t.name == "hottest pocket")
    assert hottest.labels == (17,) and hottest in report.failing
    assert "pocket 17" in report.summary()
    assert report.per_test_threshold == pytest.approx(0.0025)
    assert bias_check(spins[:199], WATCH) is None                  # too few spins to judge
    assert bias_check(spins + [0] * 10, WATCH).spins == 1000        # only the window counts


def test_watch_settings_are_checked():
    with pytest.raises(GameInputError):
        WheelWatchSettings(window=1000, p_threshold=0, arc_pockets=9, min_spins=200)
    with pytest.raises(GameInputError):
        WheelWatchSettings(window=1000, p_threshold=0.01, arc_pockets=30, min_spins=200)
    with pytest.raises(GameInputError):
        WheelWatchSettings(window=1000, p_threshold=0.01, arc_pockets=9, min_spins=100)


def test_direction_breaks():
    assert direction_breaks([0, 1, 0, 0, 1, 1, 1]) == [3, 5, 6]
    assert direction_breaks([0, 1, 1], ids=[101, 102, 103]) == [103]
    assert direction_breaks([]) == [] and direction_breaks([1]) == []
    with pytest.raises(GameInputError):
        direction_breaks([0, 1], ids=[1])


def test_speed_faults():
    limits = SpeedLimits(ball_min=60, ball_max=120, rotor_min=18, rotor_max=30)
    faults = speed_faults([(1, 80, 20), (2, 55, 20), (3, 90, 31.5), (4, None, 25), (5, 130, None)], limits)
    assert [(f.spin, f.part, f.rpm) for f in faults] == [(2, "ball", 55), (3, "rotor", 31.5), (5, "ball", 130)]
    with pytest.raises(GameInputError):
        SpeedLimits(ball_min=100, ball_max=60, rotor_min=18, rotor_max=30)
