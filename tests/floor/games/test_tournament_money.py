"""Every money outcome of the tournament rules is whole, non-negative cents that sum exactly to what
is paid in or distributed: payouts, ICM and chip-chop deals (with a save), cancellations, bounties."""
from fractions import Fraction

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from floor.games.tournament import (
    CANCELLATION_RULES,
    Draw,
    Survivor,
    cancel_from_prize_pool,
    cancel_online_room,
    cancel_random_prize_sit_and_go,
    cancel_sit_and_go,
    deal,
    draw_mystery_bounty,
    knockout_awards,
    payout_table,
    payouts,
    progressive_awards,
    refund_all,
    settle_cancellation,
)
from floor.games.tournament.cents import split_by_weight, split_equally

cents = st.integers(0, 10**9)
small_cents = st.integers(0, 10**6)


def whole(amounts) -> bool:
    return all(isinstance(a, int) and not isinstance(a, bool) and a >= 0 for a in amounts)


@st.composite
def percent_lists(draw):
    """Random payout percentages (tenths of a percent) that sum to 100 and fall by place."""
    places = draw(st.integers(1, 30))
    cuts = sorted(draw(st.lists(st.integers(1, 999), min_size=places - 1, max_size=places - 1, unique=True)))
    parts = [b - a for a, b in zip([0] + cuts, cuts + [1000])]
    return [Fraction(p, 10) for p in sorted(parts, reverse=True)]


@given(percent_lists(), cents, st.sampled_from([1, 5, 100, 1000]))
def test_payouts_of_any_house_table(pcts, pool, unit):
    table = payout_table([(len(pcts), None, pcts)])
    paid = payouts(pool, len(pcts) + 3, table, unit=unit)
    assert whole(paid) and sum(paid) == pool and list(paid) == sorted(paid, reverse=True)


@settings(max_examples=150, deadline=None)
@given(stacks=st.lists(st.integers(1, 10**7), min_size=2, max_size=8),
       prizes=st.lists(small_cents, min_size=2, max_size=10).map(lambda p: sorted(p, reverse=True)),
       method=st.sampled_from(["icm", "chip_chop"]), save_share=st.fractions(0, 1))
def test_deals_sum_to_the_prizes_played_for(stacks, prizes, method, save_share):
    played = prizes[:len(stacks)]
    room = played[0] - played[1]
    save = int(room * save_share)
    d = deal(stacks, prizes, method=method, save=save)
    assert whole(d.amounts) and whole([d.save]) and d.total == sum(played) and len(d.amounts) == len(stacks)


survivor = st.builds(Survivor, player=st.uuids(), chips=st.integers(1, 10**7), buy_ins=small_cents,
                     fees=st.integers(0, 10**5), bounty_stake=small_cents, bounty=small_cents)
survivors = st.lists(survivor, min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(survivors, st.sampled_from(sorted(CANCELLATION_RULES)), cents,
       st.lists(small_cents, max_size=20).map(lambda p: sorted(p, reverse=True)))
def test_any_cancellation_pays_out_exactly_its_fund(people, rule, fund, prizes):
    if CANCELLATION_RULES[rule].percent_each:
        people = people[:10]  # 10 % each: at most ten players
    s = settle_cancellation(people, rule=rule, fund=fund, prizes=prizes)
    for share in s.shares:
        assert whole([share.refund, share.bounty, share.next_prize, share.equal_share, share.chip_share])
    assert sum(s.amounts().values()) == fund
    assert [x.player for x in s.shares] == [p.player for p in people]   # survivors only, nobody else


@settings(max_examples=150, deadline=None)
@given(survivors, small_cents, cents, st.booleans())
def test_each_cancellation_case_sums_to_what_it_says(people, eliminated, pool, large):
    paid_in = sum(p.buy_ins + p.fees + p.bounty_stake for p in people)
    assert sum(refund_all(people).amounts().values()) == paid_in
    s = cancel_sit_and_go(people, eliminated_buy_ins=eliminated)
    assert sum(s.amounts().values()) == sum(p.buy_ins + p.fees for p in people) + eliminated
    assert all(s.amounts()[p.player] >= p.buy_ins + p.fees for p in people)
    few = people[:3]
    s = cancel_random_prize_sit_and_go(few, prize_pool=pool, large_pool_from=0 if large else pool + 1)
    assert whole(s.amounts().values()) and sum(s.amounts().values()) == pool


@settings(max_examples=150, deadline=None)
@given(survivors, st.sampled_from(["regular", "knockout", "mystery", "freeroll"]), cents, st.fractions(0, 1),
       small_cents, st.lists(small_cents, max_size=15).map(lambda p: sorted(p, reverse=True)))
def test_online_room_cancellations_hand_out_what_came_in_less_what_went_out(people, kind, money_in, out_share,
                                                                           topup, prizes):
    paid_out = int(money_in * out_share)
    s = cancel_online_room(people, kind=kind, money_in=money_in, paid_out=paid_out, prizes=prizes,
                           guarantee_topup=topup)
    assert whole(s.amounts().values()) and sum(s.amounts().values()) == money_in - paid_out + topup


@settings(max_examples=150, deadline=None)
@given(survivors, st.sampled_from(["fees_back", "fees_and_bounty_back"]), cents,
       st.lists(small_cents, max_size=15).map(lambda p: sorted(p, reverse=True)))
def test_prize_pool_cancellations_hand_out_the_pool_plus_what_comes_back(people, rule, pool, prizes):
    s = cancel_from_prize_pool(people, rule=rule, prize_pool_left=pool, prizes=prizes)
    back = sum(p.fees + (p.bounty if rule == "fees_and_bounty_back" else 0) for p in people)
    assert whole(s.amounts().values()) and sum(s.amounts().values()) == pool + back
    n = len(people)
    next_prizes = n * prizes[n - 1] if n <= len(prizes) and prizes[n - 1] else 0
    assert s.fund_short == (next_prizes > pool)  # refunds come on top of the pool: only prizes can run short


winners = st.lists(st.integers(0, 1000), min_size=1, max_size=6, unique=True)


@given(cents, winners, st.integers(0, 100))
def test_bounties_split_to_the_cent(bounty, who, pct):
    ko = knockout_awards(bounty, who)
    assert whole(a.cash for a in ko) and sum(a.cash for a in ko) == bounty
    assert max(a.cash for a in ko) - min(a.cash for a in ko) <= 1
    pko = progressive_awards(bounty, who, cash_percent=pct)
    assert whole([a.cash for a in pko] + [a.onto_bounty for a in pko])
    assert sum(a.cash + a.onto_bounty for a in pko) == bounty


@settings(max_examples=100, deadline=None)
@given(st.lists(small_cents, min_size=1, max_size=30), winners, st.text(min_size=1, max_size=10))
def test_mystery_envelopes_are_neither_lost_nor_made_up(envelopes, who, label):
    d = draw_mystery_bounty(Draw(bytes(32), label), envelopes, who)
    assert sum(a.cash for a in d.awards) == d.amount and whole(a.cash for a in d.awards)
    assert sorted(list(d.envelopes_left) + [d.amount]) == sorted(envelopes)


@given(cents, st.lists(st.integers(0, 10**7), min_size=1, max_size=20))
def test_the_cent_splitters(amount, weights):
    assume(sum(weights) > 0)
    by_weight = split_by_weight(amount, weights)
    assert whole(by_weight) and sum(by_weight) == amount
    assert all(abs(x - Fraction(amount * w, sum(weights))) < 1 for x, w in zip(by_weight, weights))
    equal = split_equally(amount, len(weights))
    assert sum(equal) == amount and max(equal) - min(equal) <= 1
