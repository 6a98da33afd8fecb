"""Player ratings against the rules and the ledger: each edge as published, then a played session
(remote players and a seat identified by card) rated visit by visit and checked against the
ledger's own figures, on both databases."""
from __future__ import annotations

from datetime import timedelta
from fractions import Fraction

import pytest
from sqlalchemy import func, select

from floor import ledger, pit, rounds
from floor.errors import BadInput, Conflict, NotFound
from floor.games import roulette
from floor.games.edges import edge_percent, theo_cents
from floor.models import Bet, PlayerVisit, Transfer
from floor.pit import ratings, visits
from floor.rounds import bets
from floor.settings import HouseSettings
from tests.floor.pit.play import spin
from tests.floor.rounds.helpers import DEALER, HOUSE, T0, at, books_balance, event, fund, tid


@pytest.mark.parametrize("kind", roulette.KINDS)
def test_every_roulette_bet_gives_the_house_one_pocket_in_37(kind):
    edge = ratings.bet_edge("roulette", kind, HOUSE)
    assert edge == Fraction(1, 37) and edge_percent(edge) == "2.7027 %"


@pytest.mark.parametrize("spot, percent", [("banker", "1.0579 %"), ("player", "1.2351 %"), ("tie", "14.3596 %")])
def test_baccarat_edges_for_an_eight_deck_shoe_at_five_percent(spot, percent):
    assert edge_percent(ratings.bet_edge("baccarat", spot, HOUSE, decks=8)) == percent


def test_the_other_edges_follow_the_tables_rules():
    assert edge_percent(ratings.bet_edge("blackjack", "bet", HOUSE, decks=6), 2) == "0.46 %"
    assert edge_percent(ratings.bet_edge("blackjack", "insurance", HOUSE, decks=8), 2) == "7.47 %"
    assert edge_percent(ratings.bet_edge("casino_holdem", "ante", HOUSE), 2) == "2.16 %"
    assert edge_percent(ratings.bet_edge("casino_holdem", "aa_bonus", HOUSE), 2) == "6.40 %"
    # the bets an initial bet leads to carry no edge of their own: it is in the initial bet's
    for kind, spot in (("blackjack", "double"), ("blackjack", "split"), ("casino_holdem", "call")):
        assert ratings.bet_edge(kind, spot, HOUSE) == 0
    # a house taking 4 % commission: the banker's edge follows the rule, not a typed figure
    four = HouseSettings(baccarat_commission_percent=4)
    assert ratings.bet_edge("baccarat", "banker", four, decks=8) < ratings.bet_edge("baccarat", "banker", HOUSE, decks=8)


def _spin(session, table, spin_no, number, t, stakes):
    return spin(session, table, spin_no, number, at(t), stakes)


def _ledger_result(session, bet_ids, account) -> int:
    """What the ledger moved to (+) or from (-) the funding account for these bets, stakes included."""
    to = session.execute(select(func.coalesce(func.sum(Transfer.amount), 0)).where(
        Transfer.bet_id.in_(bet_ids), Transfer.to_account_id == account)).scalar_one()
    frm = session.execute(select(func.coalesce(func.sum(Transfer.amount), 0)).where(
        Transfer.bet_id.in_(bet_ids), Transfer.from_account_id == account)).scalar_one()
    return to - frm


def test_a_played_session_is_rated_visit_by_visit_against_the_ledger(session):
    wheel, bacc = tid(session, 12), tid(session, 10)
    fund(session, 1, 100_000)
    # Bruno (player 2) shows his card at seat 3 of the roulette; nobody is identified at seat 5
    v = visits.identify(session, DEALER, wheel, 3, card_number="70000002", at=at(-60))
    session.commit()
    assert v.player_id == 2 and v.identified_by == "card"
    remote = [dict(spot="red", amount=1_000, player_id=1), dict(spot="straight", numbers=[17], amount=500, player_id=1)]
    seat3 = [dict(spot="black", amount=2_000, seat=3, source="dealer"),
             dict(spot="dozen", numbers=list(range(1, 13)), amount=1_000, seat=3, source="dealer")]
    nobody = [dict(spot="red", amount=5_000, seat=5, source="dealer")]
    placed = []
    for spin_no, (number, t) in enumerate([(17, 0), (0, 60), (2, 120)], start=40):
        placed += _spin(session, wheel, spin_no, number, t, remote + seat3 + nobody)
    visits.leave(session, DEALER, wheel, 3, at=at(200))
    session.commit()
    # after his visit, seat 3's bets are nobody's
    placed += _spin(session, wheel, 43, 5, 300, seat3)

    # Alice (player 1) then plays baccarat from her balance
    rounds.new_shoe(session, DEALER, bacc, at(400), house=HOUSE)
    session.commit()
    rounds.open_betting(session, DEALER, bacc, at(410), house=HOUSE)
    session.commit()
    for spot, amount in (("banker", 2_000), ("tie", 1_000)):
        placed.append(bets.place(session, DEALER, bacc, spot=spot, amount=amount, player_id=1, at=at(411), house=HOUSE)[0])
    session.commit()
    event(session, rounds.coup_start, bacc, at(415))
    for i, (target, card) in enumerate([("player", "2H"), ("banker", "7S"), ("player", "3D"), ("banker", "KC"),
                                        ("player", "8C")]):
        event(session, rounds.card, bacc, card, "shoe", target, at(420 + i), raw=b"D", device="shoe-10", house=HOUSE)
    event(session, rounds.shoe_result, bacc, "banker", False, False, at(430), raw=b"G", device="shoe-10")
    # and comes back to the wheel two hours later: a new visit (the gap is 30 minutes)
    placed += _spin(session, wheel, 44, 17, 7_600, remote)
    books_balance(session)

    vs = ratings.visits(session, T0 - timedelta(hours=1), T0 + timedelta(hours=4), HOUSE)
    by = {(v.player_id, v.table_id, v.started_at): v for v in vs}
    assert sorted((v.player_id, v.table_id) for v in vs) == sorted([(1, wheel), (2, wheel), (1, bacc), (1, wheel)])

    alice_wheel = by[(1, wheel, at(1))]
    assert (len(alice_wheel.rounds), alice_wheel.bets, alice_wheel.staked) == (3, 6, 4_500)
    assert alice_wheel.ended_at == at(134.2)             # her last spin's settlement
    assert theo_cents(alice_wheel.theo) == theo_cents(Fraction(4_500, 37)) == 122

    bruno = by[(2, wheel, at(-60))]                     # from his card to his leaving
    assert bruno.seat == 3 and bruno.ended_at == at(200)
    assert (len(bruno.rounds), bruno.bets, bruno.staked) == (3, 6, 9_000)
    seat3_ids = [b.id for b in placed if b.seat == 3 and b.placed_at < at(200)]
    chips = ledger.table_account(session, wheel, "chips")
    assert bruno.won == _ledger_result(session, seat3_ids, chips)
    # 17 (black, 2nd dozen): +2,000 -1,000; 0: -3,000; 2 (black, 1st dozen): +2,000 +2,000
    assert bruno.won == 1_000 - 3_000 + 4_000
    assert theo_cents(bruno.theo) == theo_cents(Fraction(9_000, 37))

    alice_bacc = by[(1, bacc, at(411))]
    edges = ratings.bet_edge("baccarat", "banker", HOUSE, 8), ratings.bet_edge("baccarat", "tie", HOUSE, 8)
    assert alice_bacc.theo == 2_000 * edges[0] + 1_000 * edges[1]
    assert alice_bacc.won == 1_900 - 1_000                # banker wins less 5 %, the tie loses

    # every visit of Alice together is her balance's movement since the deposit
    alice = [v for v in vs if v.player_id == 1]
    assert len(alice) == 3
    assert sum(v.won for v in alice) == ledger.player_balance(session, 1) - 100_000

    # the day's list, highest theoretical win first, and its CSV
    day = pit.today(HOUSE, T0)
    top = ratings.players_of_day(session, day, HOUSE)
    assert [(r["player_id"], r["theo"]) for r in top["players"]] == [
        (1, theo_cents(sum((v.theo for v in alice), Fraction(0)))), (2, 243)]
    assert top["players"][0]["visits"] == 3 and top["players"][0]["tables"] == [10, 12]
    assert top["totals"]["won"] == bruno.won + sum(v.won for v in alice)
    csv_text = ratings.to_csv(ratings.rated(session, vs))
    assert csv_text.splitlines()[0].startswith("Player,Card,Table")
    assert len(csv_text.splitlines()) == 1 + 4
    # seat 5's bets and seat 3's after Bruno left are nobody's: not in any rating
    rated = sum(v.staked for v in vs)
    every = session.execute(select(func.sum(Bet.amount))).scalar_one()
    assert every - rated == 3 * 5_000 + 3_000


def test_identifying_a_player_at_a_seat(session):
    wheel = tid(session, 12)
    v1 = visits.identify(session, DEALER, wheel, 2, player_id=4, at=at(0))
    assert v1.identified_by == "dealer"
    assert visits.identify(session, DEALER, wheel, 2, player_id=4, at=at(5)).id == v1.id   # the same: kept
    visits.identify(session, DEALER, wheel, 6, player_id=4, at=at(10))                     # he moves
    session.commit()
    session.refresh(v1)
    assert v1.end_reason == "moved" and v1.ended_at == at(10)
    visits.identify(session, DEALER, wheel, 6, card_number="70000007", at=at(20))           # another at seat 6
    session.commit()
    assert [(s.visit.seat, s.visit.player_id) for s in visits.seated(session, wheel)] == [(6, 7)]
    with pytest.raises(NotFound) as unknown:
        visits.identify(session, DEALER, wheel, 1, card_number="99999999")
    assert unknown.value.code == "unknown_card"
    with pytest.raises(BadInput):
        visits.identify(session, DEALER, wheel, 9, player_id=4)          # the wheel has 8 seats
    with pytest.raises(BadInput):
        visits.identify(session, DEALER, wheel, 1, player_id=4, card_number="70000004")
    with pytest.raises(Conflict) as empty:
        visits.leave(session, DEALER, wheel, 1)
    assert empty.value.code == "seat_empty"
    with pytest.raises(Exception) as poker:
        visits.identify(session, DEALER, tid(session, 1), 1, player_id=4)
    assert getattr(poker.value, "code", "") == "wrong_game"
    assert session.execute(select(func.count(PlayerVisit.id))).scalar_one() == 3


def test_a_seated_player_betting_from_his_balance_too_has_one_visit(session):
    """Bruno, identified at seat 3, stakes the seat's chips and his balance on every spin: ten spins
    are one visit, from his card to his last result, at 20.00 a round."""
    wheel = tid(session, 12)
    fund(session, 2, 100_000)
    visits.identify(session, DEALER, wheel, 3, card_number="70000002", at=at(0))
    session.commit()
    both = [dict(spot="black", amount=1_000, seat=3, source="dealer"), dict(spot="red", amount=1_000, player_id=2)]
    for i in range(10):
        _spin(session, wheel, 70 + i, 17, 10 + i * 110, both)
    vs = ratings.visits(session, T0 - timedelta(hours=1), T0 + timedelta(hours=1), HOUSE)
    assert [(v.player_id, v.seat, v.round_count, v.bets, v.staked) for v in vs] == [(2, 3, 10, 20, 20_000)]
    (v,) = vs
    assert (v.started_at, v.ended_at) == (at(0), at(10 + 9 * 110 + 14.2))
    assert v.minutes == 16.9 and v.average_stake == 2_000
    day = ratings.players_of_day(session, pit.today(HOUSE, T0), HOUSE)["players"]
    assert [(r["player_id"], r["visits"], r["minutes"], r["average_stake"]) for r in day] == [(2, 1, 16.9, 2_000)]


def test_the_average_stake_is_rounded_half_up_not_truncated():
    assert [ratings.average(s, r) for s, r in ((1_000, 3), (2_000, 3), (1_001, 2), (999, 2), (0, 0))] == \
        [333, 667, 501, 500, 0]


def test_the_day_list_and_the_players_page_agree_on_minutes(session):
    """Three visits of 13.2 s each: 0.7 minutes in all (39.6 s), on the day's list and on her page
    alike (the sum of the three visits as shown, 0.2 each, would read 0.6)."""
    wheel = tid(session, 12)
    fund(session, 1, 100_000)
    for i in range(3):                               # a spin every 40 minutes: three visits (gap 30)
        _spin(session, wheel, 90 + i, 1, i * 2_400, [dict(spot="red", amount=1_000 + min(i, 1), player_id=1)])
    vs = ratings.visits(session, T0 - timedelta(hours=1), T0 + timedelta(hours=4), HOUSE)
    assert [v.minutes for v in vs] == [0.2, 0.2, 0.2]      # 13.2 s each: 0.22 minutes
    day = ratings.players_of_day(session, pit.today(HOUSE, T0), HOUSE)["players"]
    mine = ratings.player_history(session, 1, T0 - timedelta(hours=1), T0 + timedelta(hours=4), HOUSE)
    assert day[0]["minutes"] == mine["totals"]["minutes"] == 0.7
    assert day[0]["average_stake"] == 1_001            # 30.02 over three rounds: 10.0067, not 10.00


def test_a_visits_theoretical_win_follows_its_own_house_settings():
    """The edges are remembered for the house settings last read with: a visit rated under other
    settings (another commission) gets its own, and back again the first ones."""
    import dataclasses
    from datetime import datetime, timezone
    other = dataclasses.replace(HOUSE, baccarat_commission_percent=4)
    stakes = {("baccarat", "banker", 8): 100_000, ("roulette", "straight", 0): 3_700}

    def theo(house):
        v = ratings.Visit(1, 1, 1, datetime.now(timezone.utc), datetime.now(timezone.utc), house=house)
        v.by_bet.update(stakes)
        return v.theo

    expected = {h: sum((ratings.bet_edge(g, s, h, d or None) * stake for (g, s, d), stake in stakes.items()), Fraction(0))
                for h in (HOUSE, other)}
    assert expected[HOUSE] != expected[other]
    assert [theo(HOUSE), theo(other), theo(HOUSE)] == [expected[HOUSE], expected[other], expected[HOUSE]]
