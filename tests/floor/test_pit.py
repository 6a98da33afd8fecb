"""The pit boss's rulings on rounds: corrections and voids as compensating transfers (the original
settlement stays), the two-person rule, the replay check, the timeline and the shift figures."""
from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from floor import audit, ledger, pit, rounds
from floor.actors import Actor
from floor.errors import BadInput, Conflict, InvalidState, NotAllowed
from floor.models import Round, RoundRuling, Settlement, Staff, Transfer
from floor.rounds import bets
from floor.games.poker import RakeSettings
from floor.settings import HouseSettings
from tests.floor.rounds.helpers import DEALER, T0, at, books_balance, event, fund, tid

# Player 2H 3D + 8C = 3, Banker 7S KC = 7: banker wins. If the fifth card was really 4C: player 9, player wins.
BANKER_WINS = [("player", "2H"), ("banker", "7S"), ("player", "3D"), ("banker", "KC"), ("player", "8C")]
HOUSE = HouseSettings()


def boss(session, username="pitboss") -> Actor:
    s = session.execute(select(Staff).where(Staff.username == username)).scalar_one()
    return Actor(s.name, s.role, f"pit-{username}", s.id)


def _baccarat_coup(session, player_id=5, stakes=None, cards=BANKER_WINS):
    table = tid(session, 10)
    rounds.new_shoe(session, DEALER, table, at(0), house=HOUSE)
    session.commit()
    fund(session, player_id, 20_000)
    r = rounds.open_betting(session, DEALER, table, at(1), house=HOUSE)
    session.commit()
    ids = {}
    for spot, amount in (stakes or {"player": 1_000, "banker": 2_000}).items():
        ids[spot] = bets.place(session, DEALER, table, spot=spot, amount=amount, player_id=player_id, at=at(2), house=HOUSE)[0].id
    session.commit()
    event(session, rounds.coup_start, table, at(5), raw=b"\x02S0\x03", device="shoe-10")
    for i, (target, card) in enumerate(cards):
        event(session, rounds.card, table, card, "shoe", target, at(6 + i), raw=b"\x02D" + card.encode() + b"\x03",
              device="shoe-10", house=HOUSE)
    event(session, rounds.shoe_result, table, "banker", False, False, at(20), raw=b"\x02G1\x03", device="shoe-10")
    session.expire_all()
    return session.get(Round, r.id), ids


def _kinds(session, round_id):
    return [(t.kind, t.amount) for t in session.execute(select(Transfer).where(Transfer.round_id == round_id)
                                                        .order_by(Transfer.id)).scalars()]


def test_a_misread_baccarat_card_is_corrected_and_the_coup_resettled(session):
    r, ids = _baccarat_coup(session)
    assert r.status == "settled" and r.result["winner"] == "banker"
    assert ledger.player_balance(session, 5) == 20_000 - 3_000 + 3_900
    original = _kinds(session, r.id)

    # The pit boss lays the coup out again: the fifth card was a 4 of clubs, not an 8.
    ruling = pit.rule(session, boss(session), r.id, "correct", "player's third card misread by the shoe (4C, not 8C)",
                      {"replace": {"5": "4C"}}, at=at(100), house=HOUSE)
    session.commit()
    assert pit.state(session, ruling) == "applied" and ruling.result["winner"] == "player"
    assert ruling.result["player_total"] == 9 and ruling.result["banker_total"] == 7

    # The original settlement stays as it was; the correction is new transfers after it.
    assert _kinds(session, r.id)[:len(original)] == original
    assert session.query(Settlement).filter_by(round_id=r.id).one().returned == 3_900
    corrections = [(t.kind, t.amount, t.memo) for t in session.execute(
        select(Transfer).where(Transfer.round_id == r.id, Transfer.kind == "correction").order_by(Transfer.id)).scalars()]
    assert [(k, a) for k, a, _ in corrections] == [("correction", 2_000), ("correction", 4_000), ("correction", 100)]
    assert all(m.startswith(f"ruling {ruling.id}:") for _, _, m in corrections)
    # Right final balances: player bet paid 1:1, the banker bet lost, no commission.
    assert ledger.player_balance(session, 5) == 20_000 - 3_000 + 2_000
    acc = ledger.table_accounts(session, tid(session, 10))
    assert ledger.balance(session, acc.commission) == 0
    assert ledger.balance(session, acc.tray) == 2_000 - 1_000
    assert ledger.balance(session, acc.in_play) == 0
    books_balance(session)
    # Rows kept: the round's recorded result is the one it was settled with; the ruling holds the new one.
    session.expire_all()
    assert session.get(Round, r.id).result["winner"] == "banker" and session.get(Round, r.id).status == "settled"
    assert audit.verify(session).ok
    actions = [a["action"] for a in pit.timeline(session, r.id, HOUSE)["audit"]]
    assert "pit.ruling" in actions and "round.corrected" in actions

    # The replay of the recorded cards matches what was settled (the shoe read 8C); the timeline
    # shows the corrected layout with the corrected card marked.
    tl = pit.timeline(session, r.id, HOUSE)
    assert tl["replay"]["result_matches"] is True and tl["replay"]["payouts_match"] is True
    assert tl["effective_result"]["winner"] == "player"
    fifth = tl["corrected_layout"]["player"][2]
    assert fifth["card"] == "4C" and fifth["was"] == "8C" and fifth["corrected"]
    by_spot = {b["spot"]: b for b in tl["bets"]}
    # The board's bead plate shows the coup as corrected.
    assert [b.winner for b in rounds.baccarat_roads(session, tid(session, 10)).beads] == ["player"]
    assert (by_spot["banker"]["settled_returned"], by_spot["banker"]["returned_now"]) == (3_900, 0)
    assert (by_spot["player"]["settled_returned"], by_spot["player"]["returned_now"]) == (0, 2_000)


def test_a_correction_that_changes_how_many_cards_the_coup_takes_is_refused(session):
    r, _ = _baccarat_coup(session)
    with pytest.raises(BadInput) as refused:
        pit.rule(session, boss(session), r.id, "correct", "third card", {"replace": {"3": "4D"}}, house=HOUSE)
    assert "5 were dealt" in refused.value.message
    session.rollback()
    # The whole coup in shoe order is accepted (and the same result is refused as no correction).
    with pytest.raises(BadInput):
        pit.rule(session, boss(session), r.id, "correct", "same", {"cards": [c for _, c in BANKER_WINS]}, house=HOUSE)
    session.rollback()


def test_a_void_above_the_threshold_waits_for_a_second_pit_boss(session):
    house = HouseSettings(dispute_two_person_cents=50_000)
    table = tid(session, 12)
    fund(session, 2, 500_000)
    event(session, rounds.wheel_status, table, 2, 40, (), at(0), house=HOUSE)
    bets.place(session, DEALER, table, spot="black", amount=40_000, player_id=2, at=at(1), house=HOUSE)
    bets.place(session, DEALER, table, spot="odd", amount=35_000, player_id=2, at=at(1), house=HOUSE)
    session.commit()
    event(session, rounds.wheel_status, table, 4, 40, (), at(5), house=HOUSE)
    event(session, rounds.wheel_status, table, 4, 40, {"fault"}, at(6), house=HOUSE)      # fault flag: held
    r = rounds.last_round(session, table)
    assert r.status == "held"
    first, second = boss(session, "pitboss"), boss(session, "pitboss2")

    ruling = pit.rule(session, first, r.id, "void", "wheel sensor fault", at=at(30), house=house)
    session.commit()
    assert ruling.needs_approval and ruling.amount == 75_000 and pit.state(session, ruling) == "pending"
    session.expire_all()
    assert session.get(Round, r.id).status == "held"                 # nothing moves
    assert ledger.player_balance(session, 2) == 500_000 - 75_000
    with pytest.raises(Conflict):                                    # one pending ruling per round
        pit.rule(session, second, r.id, "confirm", "looks fine", house=house)
    session.rollback()

    with pytest.raises(NotAllowed) as own:                           # not his own
        pit.approve(session, first, ruling.id, "ok", house=house)
    assert own.value.code == "own_ruling"
    session.rollback()
    assert ledger.player_balance(session, 2) == 425_000

    pit.approve(session, second, ruling.id, "seen the sensor log", at=at(40), house=house)
    session.commit()
    session.expire_all()
    assert session.get(Round, r.id).status == "voided"
    assert ledger.player_balance(session, 2) == 500_000
    assert pit.state(session, session.get(RoundRuling, ruling.id)) == "applied"
    with pytest.raises(InvalidState):                                # decided once
        pit.approve(session, second, ruling.id, house=house)
    session.rollback()
    books_balance(session)
    assert audit.verify(session).ok


def test_below_the_threshold_one_pit_boss_voids_and_a_rejected_ruling_moves_nothing(session):
    house = HouseSettings(dispute_two_person_cents=1_000)
    table = tid(session, 12)
    fund(session, 3, 10_000)
    event(session, rounds.wheel_status, table, 2, 50, (), at(0), house=HOUSE)
    bets.place(session, DEALER, table, spot="red", amount=2_000, player_id=3, at=at(1), house=HOUSE)
    session.commit()
    event(session, rounds.wheel_status, table, 4, 50, (), at(5), house=HOUSE)
    event(session, rounds.wheel_number, table, 50, 7, at(9))
    event(session, rounds.wheel_status, table, 5, 50, (), at(9.1), winning=7, house=HOUSE)
    r = rounds.last_round(session, table)
    assert r.status == "settled" and ledger.player_balance(session, 3) == 12_000
    # The wheel read 7 (red), the ball was in 28 (black): a correction of 4 000 needs a second pit boss.
    ruling = pit.rule(session, boss(session), r.id, "correct", "ball in 28", {"number": 28}, house=house)
    session.commit()
    assert ruling.needs_approval and ruling.amount == 4_000
    pit.reject(session, boss(session, "pitboss2"), ruling.id, "camera shows 7")
    session.commit()
    assert pit.state(session, ruling) == "rejected" and ledger.player_balance(session, 3) == 12_000
    # Small enough: applied at once by one pit boss; the ledger takes the win back.
    small = pit.rule(session, boss(session), r.id, "correct", "ball in 28", {"number": 28},
                     house=HouseSettings(dispute_two_person_cents=10_000))
    session.commit()
    assert pit.state(session, small) == "applied"
    assert ledger.player_balance(session, 3) == 8_000
    assert rounds.roulette_history(session, table).last[0].number == 28   # the board shows the real number
    books_balance(session)


def test_voiding_a_settled_round_returns_every_stake_through_new_transfers(session):
    r, ids = _baccarat_coup(session, player_id=6)
    before = _kinds(session, r.id)
    pit.rule(session, boss(session), r.id, "void", "wrong shoe in use", at=at(200), house=HOUSE)
    session.commit()
    session.expire_all()
    assert session.get(Round, r.id).status == "voided"
    assert session.query(Settlement).filter_by(round_id=r.id).one().outcome == "settled"   # stays
    assert _kinds(session, r.id)[:len(before)] == before
    assert ledger.player_balance(session, 6) == 20_000
    acc = ledger.table_accounts(session, tid(session, 10))
    assert ledger.balance(session, acc.tray) == 0 and ledger.balance(session, acc.commission) == 0
    books_balance(session)
    figs = pit.figures(session, pit.today(HOUSE, T0), HOUSE, table_number=10)["tables"][0]
    assert (figs["voided"], figs["played"], figs["handle"], figs["win_loss"], figs["corrections"]) == (1, 0, 3_000, 0, -900)


def test_confirming_a_held_coup_settles_it_from_the_recorded_cards(session):
    table = tid(session, 10)
    rounds.new_shoe(session, DEALER, table, at(0), house=HOUSE)
    session.commit()
    fund(session, 7, 10_000)
    r = rounds.open_betting(session, DEALER, table, at(1), house=HOUSE)
    bets.place(session, DEALER, table, spot="banker", amount=1_000, player_id=7, at=at(2), house=HOUSE)
    session.commit()
    for kind in ("confirm", "correct"):                              # nothing to rule on while it runs
        with pytest.raises(InvalidState):
            pit.rule(session, boss(session), r.id, kind, "too early", {"replace": {"1": "2H"}}, house=HOUSE)
        session.rollback()
    event(session, rounds.coup_start, table, at(5))
    for i, (target, card) in enumerate(BANKER_WINS):
        event(session, rounds.card, table, card, "shoe", target, at(6 + i), house=HOUSE)
    event(session, rounds.shoe_result, table, "player", False, False, at(20))   # the shoe disagrees: held
    session.expire_all()
    assert session.get(Round, r.id).status == "held"
    tl = pit.timeline(session, r.id, HOUSE)
    assert tl["replay"]["result"]["winner"] == "banker" and tl["replay"]["result_matches"] is None
    pit.rule(session, boss(session), r.id, "confirm", "cards checked on the table: banker 7 to 3", house=HOUSE)
    session.commit()
    session.expire_all()
    assert session.get(Round, r.id).status == "settled"
    assert ledger.player_balance(session, 7) == 10_000 + 950
    books_balance(session)


def test_a_blackjack_card_misread_is_corrected_by_its_place_in_the_deal(session):
    table = tid(session, 14)
    rounds.open_betting(session, DEALER, table, at(0), house=HOUSE)
    bets.place(session, DEALER, table, spot="bet", amount=1_000, seat=2, at=at(1), house=HOUSE)
    session.commit()
    rounds.close_betting(session, DEALER, table, at(5))
    session.commit()
    for i, card in enumerate(("TH", "6S", "9D", "TC")):          # seat 2: TH 9D = 19, dealer 6S TC = 16
        event(session, rounds.card, table, card, "scanner", None, at(6 + i), house=HOUSE)
    event(session, rounds.decide, DEALER, table, 2, "stand", at(11), house=HOUSE)
    event(session, rounds.card, table, "5H", "scanner", None, at(12), house=HOUSE)   # dealer 21
    r = rounds.last_round(session, table)
    session.refresh(r)
    assert r.status == "settled"
    chips = ledger.table_account(session, table, "chips")
    assert ledger.balance(session, chips) == -1_000                      # the seat lost
    # The dealer's last card was a 2, not a 5: dealer 18, seat 2's 19 wins.
    ruling = pit.rule(session, boss(session), r.id, "correct", "dealer's draw misread", {"replace": {"6": "2H"}},
                      house=HOUSE)
    session.commit()
    assert ruling.result["dealer"] == ["6S", "TC", "2H"]
    assert ledger.balance(session, chips) == 1_000
    tl = pit.timeline(session, r.id, HOUSE)
    assert [c["card"] for c in tl["corrected_layout"]["dealer"]] == ["6S", "TC", "2H"]
    assert tl["layout"]["seats"][0]["decisions"] == ["stand"]
    books_balance(session)


def test_the_timeline_tells_the_whole_round(session):
    r, ids = _baccarat_coup(session, player_id=8)
    tl = pit.timeline(session, r.id, HOUSE)
    types = [kind for kind, _ in tl["entries"]]
    for kind in ("frame", "card", "event", "bet", "transfer", "settlement"):
        assert kind in types
    frames = tl["frames"]
    assert frames[0]["raw"] == "<STX>S0<ETX>" and frames[0]["decoded"] == "coup start"
    assert [f["decoded"] for f in frames if f["decoded"].startswith("card")][0] == "card 2H from shoe to player"
    bet = tl["bets"][0]
    assert bet["by"] == DEALER.name and bet["terminal"] == DEALER.terminal and bet["player_id"] == 8
    statuses = [(e["from"], e["to"]) for kind, e in tl["entries"] if kind == "event"]
    assert statuses[0] == (None, "betting") and ("result", "settled") in statuses
    assert [c["card"] for c in tl["layout"]["player"]] == ["2H", "3D", "8C"]
    assert tl["layout"]["totals"] == {"player": 3, "banker": 7}
    # in time order
    ats = [e["at"] for _, e in tl["entries"]]
    assert ats == sorted(ats)


def test_shift_figures_per_table(session):
    r, _ = _baccarat_coup(session, player_id=9)
    table = tid(session, 12)
    fund(session, 10, 10_000)
    event(session, rounds.wheel_status, table, 2, 60, (), at(0), house=HOUSE)
    bets.place(session, DEALER, table, spot="straight", numbers=[17], amount=500, player_id=10, at=at(1), house=HOUSE)
    session.commit()
    event(session, rounds.wheel_status, table, 4, 60, (), at(5), house=HOUSE)
    event(session, rounds.wheel_number, table, 60, 17, at(9))
    event(session, rounds.wheel_status, table, 5, 60, (), at(9.1), winning=17, house=HOUSE)
    fig = pit.figures(session, pit.today(HOUSE, T0), HOUSE)
    by = {row["table"]: row for row in fig["tables"]}
    assert (by[10]["played"], by[10]["handle"], by[10]["payouts"], by[10]["commission"], by[10]["win_loss"]) == \
        (1, 3_000, 2_000, 100, -900)
    assert (by[12]["played"], by[12]["handle"], by[12]["payouts"], by[12]["win_loss"]) == (1, 500, 17_500, -17_500)
    assert fig["totals"]["win_loss"] == -18_400
    csv_text = pit.to_csv(fig)
    lines = csv_text.strip().splitlines()
    assert lines[0].startswith("Gaming day,Table,Name,Game,Rounds played")
    assert any(",10,Baccarat" in line or ",10," in line for line in lines[1:])
    assert lines[-1].split(",")[1] == "Total" and "-184.00" in lines[-1]


def test_poker_hands_for_the_showdown_tool_and_rulings_linked_to_them(session):
    from floor.pit import showdown as disputes
    from floor.poker import table as poker_table
    from tests.floor.poker_helpers import T0 as P0
    from tests.floor.poker_helpers import fill
    from tests.floor.poker_helpers import table as poker_table_by_number
    t = poker_table_by_number(session, 1)
    fill(session, t, [1, 2, 3, 4], seats=[2, 4, 6, 8])
    poker_table.place_button(session, boss(session), t, 4, "start", now=P0)
    hand = poker_table.new_hand(session, boss(session), t, HOUSE, now=P0 + timedelta(minutes=5))
    session.commit()
    hands = pit.poker_hands(session, t.id)
    assert hands[0].hand.number == hand.number and hands[0].hand.button_seat == hand.button_seat
    order = [s.seat for s in hands[0].seats]
    button = hand.button_seat
    assert order == sorted(x for x in order if x > button) + sorted(x for x in order if x <= button)
    posted = {s.seat: s.posted for s in hands[0].seats}
    assert posted[hand.small_seat] == 200 and posted[hand.big_seat] == 500
    seats = [disputes.SeatHand(s, hole, 1_000) for s, hole in zip(order, ("AS AD", "KS KD", "QS QD", "JS JD"))]
    ruling = disputes.record_ruling(session, boss(session), t, f"#{hand.number}", "holdem", seats,
                                    ["2C 7D 9H TC 3S"], 0, "chips pushed to the wrong seat",
                                    RakeSettings())
    session.commit()
    linked = pit.ruling_hand(session, ruling)
    assert linked.hand.number == hand.number and [s.player_id for s in linked.seats] == [s.player_id for s in hands[0].seats]
    assert pit.poker_rulings(session)[0].hand.hand.id == hand.id
