"""ICM (Malmuth–Harville), chip chop and the save, against a brute force over every finishing order."""
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from floor.games.base import GameInputError
from floor.games.tournament import chip_chop, deal, icm, icm_equities


def brute_force(stacks, prizes):
    """Every finishing order, its Harville chance, and the prize each place pays."""
    prizes = list(prizes[:len(stacks)]) + [0] * max(0, len(stacks) - len(prizes))
    equity = [Fraction(0)] * len(stacks)
    for order in permutations(range(len(stacks))):
        chance, left = Fraction(1), sum(stacks)
        for player in order:
            chance *= Fraction(stacks[player], left)
            left -= stacks[player]
        for place, player in enumerate(order):
            equity[player] += chance * prizes[place]
    return equity


def test_three_players_worked_by_hand():
    """Stacks 5000/3000/2000, prizes 50.00/30.00/20.00.
    B (3000): 1st 3/10; 2nd: A first then B 3/5 of the rest, or C first then B 3/8: .5*.6 + .2*.375 =
    .375; 3rd .325 -> 5000*.3 + 3000*.375 + 2000*.325 = 3275 cents exactly.
    A (5000): 1st .5; 2nd .3*5/7 + .2*5/8 = 19/56; 3rd 9/56 -> 2500 + 3000*19/56 + 2000*9/56 = 3839.2857.
    C: the rest, 2885.7143. Rounded down 3839 + 3275 + 2885 = 9999; the cent left goes to the largest
    fraction (C's .7143)."""
    exact = icm_equities([5000, 3000, 2000], [5000, 3000, 2000])
    assert exact == [Fraction(2500) + Fraction(3000 * 19, 56) + Fraction(2000 * 9, 56), Fraction(3275),
                     10000 - Fraction(2500) - Fraction(3000 * 19, 56) - Fraction(2000 * 9, 56) - 3275]
    assert icm([5000, 3000, 2000], [5000, 3000, 2000]) == [3839, 3275, 2886]


def test_equal_stacks_share_equally():
    assert icm([4000, 4000, 4000], [6000, 3000, 1000]) == [3334, 3333, 3333]
    assert icm([2500] * 4, [5000, 3000, 2000]) == [2500] * 4


def test_fewer_prizes_than_players_pay_nothing_below_and_more_are_cut():
    four = icm([1000, 2000, 3000, 4000], [7000, 3000])
    assert sum(four) == 10000 and four == sorted(four)
    assert [Fraction(x) for x in icm_equities([1000, 2000, 3000, 4000], [7000, 3000])] == \
        brute_force([1000, 2000, 3000, 4000], [7000, 3000])
    two = icm([6000, 4000], [5000, 3000, 2000])     # 3rd prize is not played for by two players
    assert sum(two) == 8000 and two == [3000 + 6000 * 2000 // 10000, 3000 + 4000 * 2000 // 10000]
    assert icm([123], [5000, 3000]) == [5000]


@pytest.mark.parametrize("stacks,prizes", [
    ([5000, 0, 3000], [100, 50]),
    ([5000, -1], [100, 50]),
    ([], [100]),
    ([5000, 3000], [100, -1]),
    ([5000, 3000.5], [100, 50]),
])
def test_bad_input_is_refused(stacks, prizes):
    with pytest.raises(GameInputError):
        icm(stacks, prizes)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(stacks=st.lists(st.integers(1, 10**6), min_size=1, max_size=6),
       prizes=st.lists(st.integers(0, 10**7), min_size=0, max_size=9))
def test_icm_equals_the_brute_force_and_sums_exactly(stacks, prizes):
    exact = icm_equities(stacks, prizes)
    assert exact == brute_force(stacks, prizes)
    shares = icm(stacks, prizes)
    played = sum(prizes[:len(stacks)])
    assert sum(shares) == played and all(isinstance(s, int) and s >= 0 for s in shares)
    assert all(abs(s - e) < 1 for s, e in zip(shares, exact))
    if list(prizes[:len(stacks)]) == sorted(prizes[:len(stacks)], reverse=True):
        # with prizes falling by place, more chips never means less money
        for i in range(len(stacks)):
            for j in range(len(stacks)):
                if stacks[i] > stacks[j]:
                    assert shares[i] >= shares[j]


@pytest.mark.parametrize("stacks,prizes", [
    ([12_000, 9_500, 9_500, 7_000, 4_000, 2_500, 1_000], [40_000, 25_000, 15_000, 10_000, 6_000, 4_000]),
    ([1, 2, 3, 5, 8, 13, 21], [700, 600, 500, 400, 300, 200, 100, 50]),
    ([3_000_000] * 7, [999_999, 1]),
])
def test_seven_players_against_the_brute_force(stacks, prizes):
    assert icm_equities(stacks, prizes) == brute_force(stacks, prizes)
    assert sum(icm(stacks, prizes)) == sum(prizes[:7])


def test_ten_players_get_a_deal():
    stacks = [1_234_567, 2_345_678, 987_654, 3_456_789, 4_567_890, 567_890, 678_901, 789_012, 890_123, 901_234]
    prizes = [5_000_000 - 400_000 * k for k in range(10)]
    shares = icm(stacks, prizes)
    assert sum(shares) == sum(prizes)
    assert shares.index(max(shares)) == stacks.index(max(stacks))
    assert all(min(prizes) < s < max(prizes) for s in shares)


def test_chip_chop_gives_everyone_the_last_prize_and_the_rest_by_chips():
    """50 000 / 30 000 / 20 000 chips, prizes 50.00/30.00/20.00: each gets 20.00 (3rd prize), the 40.00
    left go 50/30/20 % by chips: 20.00, 12.00, 8.00."""
    assert chip_chop([50_000, 30_000, 20_000], [5000, 3000, 2000]) == [4000, 3200, 2800]
    # four players for two prizes: the last prize played for is 0, so it is all by chips
    assert chip_chop([1, 1, 1, 1], [7000, 3000]) == [2500, 2500, 2500, 2500]
    assert chip_chop([1, 2], [100, 0]) == [33, 67]  # 33.33 / 66.67: the cent to the larger fraction


def test_a_save_is_kept_back_for_first_place():
    """Save 10.00 of 50.00 first prize: the deal shares 40.00/30.00/20.00, the 10.00 waits for the winner."""
    d = deal([5000, 3000, 2000], [5000, 3000, 2000], method="icm", save=1000)
    assert d.amounts == tuple(icm([5000, 3000, 2000], [4000, 3000, 2000])) and d.save == 1000
    assert d.total == 10000
    c = deal([50_000, 30_000, 20_000], [5000, 3000, 2000], method="chip_chop", save=500)
    assert c.amounts == (2000 + 1750, 2000 + 1050, 2000 + 700) and c.total == 10000  # 35.00 left by chips
    assert deal([5000, 3000], [5000, 3000], method="icm", save=0).total == 8000
    with pytest.raises(GameInputError):
        deal([5000, 3000, 2000], [5000, 3000, 2000], method="icm", save=2500)   # first below second
    with pytest.raises(GameInputError):
        deal([5000, 3000, 2000], [5000, 3000, 2000], method="split", save=0)
    with pytest.raises(GameInputError):
        deal([5000], [5000], method="icm", save=0)
