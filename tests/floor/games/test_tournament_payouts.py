"""Prize pool and payouts by number of entries: the house's table applied to the pool, to the cent."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from floor.games.base import GameInputError
from floor.games.tournament import STANDARD_PAYOUTS, payout_table, payout_table_to_data, payouts, prize_pool, split_pool


def test_a_guaranteed_tournament_that_missed_its_guarantee():
    """37 entries at 100.00 collect 3700.00; the 5000.00 guarantee holds, so 5000.00 is paid.
    37 entries are in the 26-40 band: 34/22/15/11/8/6/4 % -> 1700, 1100, 750, 550, 400, 300, 200."""
    pool = prize_pool(37 * 100_00, 5000_00)
    assert pool == 5000_00
    assert payouts(pool, 37, STANDARD_PAYOUTS, unit=1) == (
        1700_00, 1100_00, 750_00, 550_00, 400_00, 300_00, 200_00)


def test_the_pool_is_what_was_collected_above_the_guarantee_or_without_one():
    assert prize_pool(6000_00, 5000_00) == 6000_00
    assert prize_pool(3700_00, 0) == 3700_00
    with pytest.raises(GameInputError):
        prize_pool(-1, 0)
    with pytest.raises(GameInputError):
        prize_pool(10.5, 0)


def test_odd_cents_go_to_the_higher_places():
    # 34/33/33 % of 2 cents: 0.68, 0.66, 0.66 -> nothing each, the 2 cents to 1st and 2nd
    assert split_pool(2, (34, 33, 33), unit=1) == (1, 1, 0)
    # 50/30/20 % of 1000.01: 500.005, 300.003, 200.002 -> the cent to 1st
    assert payouts(1000_01, 8, STANDARD_PAYOUTS, unit=1) == (500_01, 300_00, 200_00)


def test_rounding_to_whole_francs():
    """12345.67 paid in whole francs (unit 100) at 50/30/20 %: 6172.835 -> 6172, 3703.701 -> 3703,
    2469.134 -> 2469; 1.67 is left: one franc to 1st, then the 0.67 below a franc to 1st as well."""
    assert payouts(12345_67, 10, STANDARD_PAYOUTS, unit=100) == (6173_67, 3703_00, 2469_00)


def test_the_band_follows_the_number_of_entries():
    assert [STANDARD_PAYOUTS.paid_places(n) for n in (2, 7, 8, 15, 16, 40, 41, 90, 91, 150, 151, 900)] == [
        2, 2, 3, 3, 5, 7, 9, 12, 18, 18, 27, 27]
    with pytest.raises(GameInputError):
        STANDARD_PAYOUTS.band_for(1)


def test_the_house_table_is_data():
    table = payout_table([{"min_entries": 2, "max_entries": 9, "percents": [70, 30]},
                          {"min_entries": 10, "max_entries": None, "percents": [33.4, "33.3", 33.3]}])
    assert payouts(100_00, 10, table, unit=1) == (33_40, 33_30, 33_30)
    assert payout_table(payout_table_to_data(STANDARD_PAYOUTS)) == STANDARD_PAYOUTS
    assert payout_table_to_data(table)[1]["percents"] == ["33.4", "33.3", "33.3"]


@pytest.mark.parametrize("rows", [
    [(2, 9, [60, 30])],                      # 90 %
    [(2, 9, [30, 70])],                      # second paid more than first
    [(2, 9, [100, 0])],                      # a paid place with nothing
    [(2, 9, [50, 30, 20])],                  # three places with possibly two entries
    [(2, 9, [70, 30]), (11, None, [100])],   # a gap: 10 entries
    [(2, 9, [70, 30]), (9, None, [100])],    # overlap
    [(2, None, [70, 30]), (10, None, [100])],  # an open band before another
    [(2, 9, ["abc"])],
    [(2, 9, [True])],
    [(2,)],
    [],
])
def test_bad_tables_are_refused(rows):
    with pytest.raises(GameInputError):
        payout_table(rows)


@given(pool=st.integers(0, 10**9), entries=st.integers(2, 2000), unit=st.sampled_from([1, 5, 100, 500, 10_000]))
def test_payouts_sum_to_the_pool_and_stay_in_order(pool, entries, unit):
    paid = payouts(pool, entries, STANDARD_PAYOUTS, unit=unit)
    assert sum(paid) == pool
    assert all(isinstance(p, int) and p >= 0 for p in paid)
    assert list(paid) == sorted(paid, reverse=True)
    assert len(paid) == STANDARD_PAYOUTS.paid_places(entries) <= entries
    # every place but first is a whole number of units, and within one unit of its exact share
    band = STANDARD_PAYOUTS.band_for(entries)
    for k, (p, pct) in enumerate(zip(paid, band.percents)):
        exact = pool * pct / 100
        if k:
            assert p % unit == 0 and abs(p - exact) <= unit
