"""Cancellation: each case of the rules, worked by hand (amounts in cents, buy-in + fee written
"100.00 + 10.00"). Players already out are never in a settlement: they keep what they won, no more."""
from fractions import Fraction

import pytest

from floor.games.base import GameInputError
from floor.games.tournament import (
    STANDARD_PAYOUTS,
    Survivor,
    cancel_from_prize_pool,
    cancel_online_room,
    cancel_random_prize_sit_and_go,
    cancel_sit_and_go,
    guarantee_topup,
    payouts,
    refund_all,
    settle_cancellation,
)


def lines(settlement) -> dict:
    return {s.player: (s.refund, s.bounty, s.next_prize, s.equal_share, s.chip_share) for s in settlement.shares}


def test_before_the_start_or_for_technical_problems_everyone_registered_is_refunded():
    """ann paid 100.00 + 10.00; bob entered twice (200.00 + 20.00); cy's 110.00 was 50.00 to the prize
    pool, 50.00 bounty stake and 10.00 fee. dan, already out, is not listed and gets nothing."""
    s = refund_all([Survivor("ann", 1, buy_ins=100_00, fees=10_00), Survivor("bob", 1, buy_ins=200_00, fees=20_00),
                    Survivor("cy", 1, buy_ins=50_00, fees=10_00, bounty_stake=50_00)])
    assert s.amounts() == {"ann": 110_00, "bob": 220_00, "cy": 110_00}
    assert s.fund == 440_00 and not s.fund_short


def test_heads_up_sit_and_go_both_refunded():
    s = refund_all([Survivor("a", 1500, buy_ins=50_00, fees=5_00), Survivor("b", 1500, buy_ins=50_00, fees=5_00)])
    assert s.amounts() == {"a": 55_00, "b": 55_00}


def test_sit_and_go_buy_ins_of_the_players_out_shared_equally():
    """Nine players at 10.00 + 1.00; two out. The seven left get 11.00 back and 20.00 / 7 = 2.857 each:
    2.85 each and the 5 odd cents to the five biggest stacks."""
    chips = [4000, 3500, 2500, 2000, 1500, 1000, 1000]
    survivors = [Survivor(f"p{i}", c, buy_ins=10_00, fees=1_00) for i, c in enumerate(chips)]
    s = cancel_sit_and_go(survivors, eliminated_buy_ins=2 * 10_00)
    assert [s.amounts()[f"p{i}"] for i in range(7)] == [11_00 + 286] * 5 + [11_00 + 285] * 2
    assert sum(s.amounts().values()) == 7 * 11_00 + 20_00


def test_random_prize_sit_and_go_small_pool():
    """Three players at 5.00 drew a 50.00 prize; C is out. A (1000 chips) and B (500) get their 5.00 back
    out of the pool; the 40.00 left go 2:1 by chips: 26.666 and 13.333 -> 26.66 + 13.33, and the cent
    left to the larger fraction (A's .67): A 5.00 + 26.67 = 31.67, B 5.00 + 13.33 = 18.33."""
    s = cancel_random_prize_sit_and_go([Survivor("A", 1000, buy_ins=5_00, fees=50), Survivor("B", 500, buy_ins=5_00,
                                                                                           fees=50)],
                                       prize_pool=50_00, large_pool_from=1000_00)
    assert s.amounts() == {"A": 31_67, "B": 18_33}
    assert lines(s)["A"] == (5_00, 0, 0, 0, 26_67)  # the buy-in, not the fee


def test_random_prize_sit_and_go_large_pool():
    """25.00 buy-in, 2500.00 drawn (above the 1000.00 line). Refunds 3 x 25.00 leave 2425.00; every
    player gets 10 % of that, 242.50; the 1697.50 left go 60/30/10 % by chips: 1018.50, 509.25, 169.75.
    A: 25.00 + 242.50 + 1018.50 = 1286.00; B: 776.75; C: 437.25; together 2500.00."""
    survivors = [Survivor("A", 600, buy_ins=25_00), Survivor("B", 300, buy_ins=25_00), Survivor("C", 100, buy_ins=25_00)]
    s = cancel_random_prize_sit_and_go(survivors, prize_pool=2500_00, large_pool_from=1000_00)
    assert s.amounts() == {"A": 1286_00, "B": 776_75, "C": 437_25}
    assert lines(s)["C"] == (25_00, 0, 0, 242_50, 169_75)
    # exactly at the line the pool counts as large
    assert cancel_random_prize_sit_and_go(survivors, prize_pool=1000_00, large_pool_from=1000_00).rule == \
        "random_prize_large"


CHIPS_10 = [80_000, 60_000, 50_000, 50_000, 40_000, 40_000, 30_000, 20_000, 20_000, 10_000]


def guaranteed_field():
    # ten left of 40 entries at 100.00 + 10.00; p2 entered three times (300.00 + 30.00)
    return [Survivor(f"p{i}", c, buy_ins=300_00 if i == 2 else 100_00, fees=30_00 if i == 2 else 10_00)
            for i, c in enumerate(CHIPS_10)]


def test_guaranteed_tournament_cancelled_after_late_registration_before_the_money():
    """40 entries at 100.00 + 10.00: 4400.00 paid in, 4000.00 in the pool, 5000.00 guaranteed; 5 paid,
    10 left; late registration over, so the house tops the fund up by 1000.00: fund 5400.00.
    Refunds: 9 x 110.00 + 330.00 = 1320.00; 4080.00 left: 2040.00 equally (204.00 each) and 2040.00
    by chips (400 000 chips: 0.51 cent a chip): p0 80 000 chips -> 408.00, p2 50 000 -> 255.00.
    p0: 110.00 + 204.00 + 408.00 = 722.00; p2: 330.00 + 204.00 + 255.00 = 789.00."""
    top = guarantee_topup(prize_pool_collected=4000_00, guarantee=5000_00, late_registration_over=True)
    assert top == 1000_00
    s = cancel_online_room(guaranteed_field(), kind="regular", money_in=40 * 110_00, paid_out=0,
                           prizes=payouts(5000_00, 40, STANDARD_PAYOUTS, unit=1)[:5], guarantee_topup=top)
    assert not s.in_the_money and s.fund == 5400_00
    assert lines(s)["p0"] == (110_00, 0, 0, 204_00, 408_00) and s.amounts()["p0"] == 722_00
    assert lines(s)["p2"] == (330_00, 0, 0, 204_00, 255_00) and s.amounts()["p2"] == 789_00
    assert [s.amounts()[f"p{i}"] for i in range(10)] == [
        722_00, 620_00, 789_00, 569_00, 518_00, 518_00, 467_00, 416_00, 416_00, 365_00]


def test_guaranteed_tournament_cancelled_during_late_registration_gets_no_top_up():
    """Same field while late registration is open: the pool is what was collected, the fund 4400.00.
    Refunds 1320.00; 3080.00 left: 1540.00 equally (154.00 each), 1540.00 by chips (0.385 cent a chip):
    p0 308.00 -> 110.00 + 154.00 + 308.00 = 572.00."""
    top = guarantee_topup(prize_pool_collected=4000_00, guarantee=5000_00, late_registration_over=False)
    assert top == 0
    s = cancel_online_room(guaranteed_field(), kind="regular", money_in=40 * 110_00, paid_out=0, prizes=[1] * 5,
                           guarantee_topup=top)
    assert s.fund == 4400_00 and s.amounts()["p0"] == 572_00 and lines(s)["p9"] == (110_00, 0, 0, 154_00, 38_50)
    assert guarantee_topup(prize_pool_collected=6000_00, guarantee=5000_00, late_registration_over=True) == 0


def test_online_room_cancelled_in_the_money():
    """100 entries at 100.00 + 10.00: 11 000.00 in, pool 10 000.00 paid over 18 places (25, 16, 11.5 ... %).
    Twelve left: places 13-18 were paid, 3 x 190.00 + 3 x 180.00 = 1110.00, so the fund is 9890.00.
    Refunds 12 x 110.00 = 1320.00; the next place paid is 12th, 220.00 to each: 2640.00; 5930.00 left.
    Half, 2965.00, equally: 247.08333 each; half by chips (1 000 000 chips, 0.2965 cent a chip):
    200 000 -> 593.00 ... 25 000 -> 74.125 and 15 000 -> 44.475. Rounded once, on each total: the ten
    totals ending in .xx333 and the two ending in .xx833 are rounded down, the 5 cents left go to the two
    .833s first (74.125 + 247.083 -> 321.21, 44.475 + 247.083 -> 291.56), then to the three biggest stacks.
    Biggest: 110.00 + 220.00 + 840.09 = 1170.09 (247.08 equally, 593.01 by chips); the fourth 110.00 +
    220.00 + 543.58; smallest: 110.00 + 220.00 + 291.56 = 621.56."""
    prizes = payouts(10_000_00, 100, STANDARD_PAYOUTS, unit=1)
    assert prizes[11] == 220_00 and sum(prizes[12:]) == 1110_00
    chips = [200_000, 150_000, 120_000, 100_000, 90_000, 80_000, 70_000, 60_000, 50_000, 40_000, 25_000, 15_000]
    survivors = [Survivor(f"p{i}", c, buy_ins=100_00, fees=10_00) for i, c in enumerate(chips)]
    s = cancel_online_room(survivors, kind="regular", money_in=100 * 110_00, paid_out=sum(prizes[12:]),
                           prizes=prizes, guarantee_topup=0)
    assert s.in_the_money and s.fund == 9890_00 and sum(s.amounts().values()) == 9890_00
    assert lines(s)["p0"] == (110_00, 0, 220_00, 247_08, 593_01) and s.amounts()["p0"] == 1170_09
    assert s.amounts()["p3"] == 110_00 + 220_00 + 543_58
    assert lines(s)["p10"] == (110_00, 0, 220_00, 247_08, 74_13)
    assert s.amounts()["p11"] == 621_56


KO_CHIPS = [40_000, 25_000, 20_000, 10_000, 5_000]


def test_knockout_each_survivor_gets_his_own_bounty():
    """20 entries at 100.00 + 10.00, each 100.00 half to the prize pool, half bounty: 2200.00 in. 15 out,
    15 bounties of 50.00 paid: fund 1450.00. Five left, 3 paid (not in the money). Each gets back 50.00
    buy-in (the pool part) + 10.00 fee, and his own 50.00 bounty: 550.00 in all; 900.00 left, 450.00
    equally (90.00 each) and 450.00 by chips (100 000 chips): 180.00, 112.50, 90.00, 45.00, 22.50."""
    survivors = [Survivor(f"k{i}", c, buy_ins=50_00, fees=10_00, bounty_stake=50_00, bounty=50_00)
                 for i, c in enumerate(KO_CHIPS)]
    s = cancel_online_room(survivors, kind="knockout", money_in=20 * 110_00, paid_out=15 * 50_00,
                           prizes=[500_00, 300_00, 200_00], guarantee_topup=0)
    assert [s.amounts()[f"k{i}"] for i in range(5)] == [380_00, 312_50, 290_00, 245_00, 222_50]
    assert lines(s)["k0"] == (60_00, 50_00, 0, 90_00, 180_00)


def test_progressive_knockout_uses_the_bounties_as_they_grew():
    """Same field as progressive knockout: 400.00 of bounty cash paid so far, so the five heads hold the
    other 600.00: 200.00, 150.00, 100.00, 100.00, 50.00. Fund 2200.00 - 400.00 = 1800.00; refunds 300.00,
    bounties 600.00, and the same 900.00 shared as above: k0 60.00 + 200.00 + 90.00 + 180.00 = 530.00."""
    heads = [200_00, 150_00, 100_00, 100_00, 50_00]
    survivors = [Survivor(f"k{i}", c, buy_ins=50_00, fees=10_00, bounty_stake=50_00, bounty=h)
                 for i, (c, h) in enumerate(zip(KO_CHIPS, heads))]
    s = cancel_online_room(survivors, kind="knockout", money_in=20 * 110_00, paid_out=400_00,
                           prizes=[500_00, 300_00, 200_00], guarantee_topup=0)
    assert [s.amounts()[f"k{i}"] for i in range(5)] == [530_00, 412_50, 340_00, 295_00, 222_50]


def test_mystery_bounty_envelopes_not_won_go_to_the_shared_pool():
    """20 entries at 100.00 + 10.00 (50.00 pool, 50.00 envelopes): 2200.00 in; envelopes worth 450.00
    won so far. Fund 1750.00; refunds 5 x 60.00 = 300.00; the 1450.00 left (the 550.00 of envelopes not
    won among them) go 725.00 equally (145.00 each) and 725.00 by chips: 290.00, 181.25, 145.00, 72.50, 36.25."""
    survivors = [Survivor(f"m{i}", c, buy_ins=50_00, fees=10_00, bounty_stake=50_00) for i, c in enumerate(KO_CHIPS)]
    s = cancel_online_room(survivors, kind="mystery", money_in=20 * 110_00, paid_out=450_00,
                           prizes=[500_00, 300_00, 200_00], guarantee_topup=0)
    assert [s.amounts()[f"m{i}"] for i in range(5)] == [495_00, 386_25, 350_00, 277_50, 241_25]


def test_flighted_before_day_two_shares_all_the_day_one_money():
    """Day 1a and 1b: 60 entries at 100.00 + 10.00, 6600.00 in all, whatever the Day 2 guarantee. Four
    players registered for Day 2 (q1 played two flights). Refunds 110.00, 220.00, 110.00, 110.00; 6050.00
    left: 3025.00 equally (756.25 each) and 3025.00 by chips (220 000 chips): 1375.00, 825.00, 550.00, 275.00."""
    chips = [100_000, 60_000, 40_000, 20_000]
    survivors = [Survivor(f"q{i}", c, buy_ins=200_00 if i == 1 else 100_00, fees=20_00 if i == 1 else 10_00)
                 for i, c in enumerate(chips)]
    s = cancel_online_room(survivors, kind="regular", money_in=60 * 110_00, paid_out=0, prizes=(), guarantee_topup=0)
    assert [s.amounts()[f"q{i}"] for i in range(4)] == [2241_25, 1801_25, 1416_25, 1141_25]


def test_freeroll_in_the_money_has_nothing_to_refund():
    """A 1000.00 freeroll paying 10 places (300, 200, 120, 90, 70, 60, 50, 45, 35, 30.00). Four left:
    places 5-10 (290.00) paid, fund 710.00. The next place paid is 4th, 90.00 each; 350.00 left:
    175.00 equally (43.75 each) and 175.00 by chips (10 000 chips): 87.50, 52.50, 26.25, 8.75."""
    prizes = [300_00, 200_00, 120_00, 90_00, 70_00, 60_00, 50_00, 45_00, 35_00, 30_00]
    chips = [5000, 3000, 1500, 500]
    s = cancel_online_room([Survivor(f"f{i}", c) for i, c in enumerate(chips)], kind="freeroll",
                           money_in=1000_00, paid_out=290_00, prizes=prizes, guarantee_topup=0)
    assert [s.amounts()[f"f{i}"] for i in range(4)] == [221_25, 186_25, 160_00, 142_50]
    assert lines(s)["f3"] == (0, 0, 90_00, 43_75, 8_75)


FEES_CHIPS = [30_000, 20_000, 15_000, 12_000, 9_000, 4_000]


def test_fees_back_before_the_money():
    """30 entries at 50.00 + 5.00: pool 1500.00, 4 paid. Six left: 5.00 fee back each (from the house),
    the pool 750.00 equally (125.00 each) and 750.00 by chips (90 000 chips): 250.00, 166.666, 125.00,
    100.00, 75.00, 33.333 -> 166.66 and 33.33 with the cent left to the larger fraction: 166.67."""
    survivors = [Survivor(f"e{i}", c, buy_ins=50_00, fees=5_00) for i, c in enumerate(FEES_CHIPS)]
    s = cancel_from_prize_pool(survivors, rule="fees_back", prize_pool_left=1500_00,
                               prizes=[600_00, 450_00, 300_00, 150_00])
    assert [s.amounts()[f"e{i}"] for i in range(6)] == [380_00, 296_67, 255_00, 230_00, 205_00, 163_33]
    assert s.fund == 1530_00


def test_fees_back_in_the_money():
    """Three left of the same tournament: 4th (150.00) paid, 1350.00 left. Fees back 5.00; the next
    place paid is 3rd, 300.00 each; 450.00 left: 225.00 equally (75.00) and 225.00 by chips
    (90 000 chips: 45 000, 30 000, 15 000): 112.50, 75.00, 37.50."""
    survivors = [Survivor("x", 45_000, fees=5_00), Survivor("y", 30_000, fees=5_00), Survivor("z", 15_000, fees=5_00)]
    s = cancel_from_prize_pool(survivors, rule="fees_back", prize_pool_left=1350_00,
                               prizes=[600_00, 450_00, 300_00, 150_00])
    assert s.amounts() == {"x": 492_50, "y": 455_00, "z": 417_50}


def test_fees_and_bounty_back_in_the_money_shares_the_rest_by_chips_only():
    """Three left of a progressive knockout: fees 10.00 each and current bounties 120.00, 80.00, 50.00
    back; 900.00 of pool left with places 450.00/270.00/180.00: 180.00 each, and the 360.00 left all by
    chips (60/30/10 %): 216.00, 108.00, 36.00."""
    survivors = [Survivor("x", 60_000, fees=10_00, bounty=120_00), Survivor("y", 30_000, fees=10_00, bounty=80_00),
                 Survivor("z", 10_000, fees=10_00, bounty=50_00)]
    s = cancel_from_prize_pool(survivors, rule="fees_and_bounty_back", prize_pool_left=900_00,
                               prizes=[450_00, 270_00, 180_00])
    assert s.amounts() == {"x": 526_00, "y": 378_00, "z": 276_00}
    assert lines(s)["x"] == (10_00, 120_00, 180_00, 0, 216_00)
    # before the money the same rule shares the pool 50 % equally, 50 % by chips
    before = cancel_from_prize_pool(survivors, rule="fees_and_bounty_back", prize_pool_left=900_00,
                                    prizes=[450_00, 270_00])
    assert lines(before)["z"] == (10_00, 50_00, 0, 150_00, 45_00)


def test_a_fund_that_cannot_cover_a_step_shares_that_step():
    """A satellite: 10 entries at 100.00, five equal 200.00 seats, five left: refunds take 500.00 of the
    1000.00; the next prize (200.00 each, 1000.00) cannot be paid in full, so the 500.00 left is shared
    in proportion (100.00 each) and nothing is left for the equal and chip parts."""
    s = cancel_online_room([Survivor(f"s{i}", 2000 * (i + 1), buy_ins=100_00) for i in range(5)], kind="regular",
                           money_in=1000_00, paid_out=0, prizes=[200_00] * 5, guarantee_topup=0)
    assert s.fund_short and set(s.amounts().values()) == {200_00}
    assert lines(s)["s0"] == (100_00, 0, 100_00, 0, 0)


@pytest.mark.parametrize("call", [
    lambda: refund_all([]),
    lambda: refund_all([Survivor("a", 1, buy_ins=1), Survivor("a", 2, buy_ins=1)]),
    lambda: Survivor("a", 0, buy_ins=1),
    lambda: Survivor("a", 1, buy_ins=-1),
    lambda: Survivor("a", 1, fees=1.5),
    lambda: cancel_online_room([Survivor("a", 1)], kind="satellite", money_in=1, paid_out=0, prizes=(),
                               guarantee_topup=0),
    lambda: cancel_online_room([Survivor("a", 1)], kind="regular", money_in=1, paid_out=2, prizes=(),
                               guarantee_topup=0),
    lambda: cancel_from_prize_pool([Survivor("a", 1)], rule="online_room", prize_pool_left=1, prizes=()),
    lambda: settle_cancellation([Survivor("a", 1)], rule="nope", fund=1, prizes=()),
    lambda: cancel_random_prize_sit_and_go([Survivor(i, 1) for i in range(11)], prize_pool=10**6,
                                           large_pool_from=1),
])
def test_bad_cancellations_are_refused(call):
    with pytest.raises(GameInputError):
        call()


def test_the_chip_chop_is_rounded_once_on_each_total_so_a_whole_amount_is_paid_whole():
    # two equal stacks share 732.50 half equally, half by chips: each is owed exactly 366.25
    two = settle_cancellation([Survivor("a", 5_000), Survivor("b", 5_000)], rule="fees_back", fund=73_250, prizes=[])
    assert [s.total for s in two.shares] == [36_625, 36_625]
    four = settle_cancellation([Survivor(p, 7_000) for p in "abcd"], rule="fees_back", fund=146_500, prizes=[])
    assert [s.total for s in four.shares] == [36_625] * 4


def test_the_odd_cent_of_a_chip_chop_goes_by_the_stated_rule():
    # 1,000.01 between equal stacks: the one cent that cannot be split goes to the survivor listed first
    # (equal fractions, equal stacks); a bigger stack is served first when the fractions are equal
    even = settle_cancellation([Survivor("a", 100), Survivor("b", 100)], rule="fees_back", fund=100_001, prizes=[])
    assert [s.total for s in even.shares] == [50_001, 50_000]
    assert sum(s.total for s in even.shares) == 100_001
    # every cent of the fund is paid and each total is within a cent of its exact value
    stacks = [13_337, 2_718, 31_415, 1]
    fund = 987_654
    out = settle_cancellation([Survivor(i, c) for i, c in enumerate(stacks)], rule="fees_back", fund=fund, prizes=[])
    assert sum(s.total for s in out.shares) == fund
    for s, c in zip(out.shares, stacks):
        exact = Fraction(fund, 2 * len(stacks)) + Fraction(fund, 2) * c / sum(stacks)
        assert abs(s.total - exact) < 1 and s.equal_share + s.chip_share == s.total
