"""Blackjack and Casino Hold'em end to end on a pty: the card scanner simulator reads, on demand,
the cards a dealer passes over it in the order a real dealer deals them; the host assigns each card
from the deal and the decisions; the dealer terminal (the JSON API) opens betting, closes it and
enters the players' decisions; the ledger pays every bet what floor.games says."""
from __future__ import annotations

from devices.simulate.scanner import ScannerSimulator
from floor.games import blackjack, casino_holdem
from tests.e2e_devices.conftest import wait


def _scan(rig, sim, table_id: int, *cards: str) -> None:
    """Pass cards over the reader and wait until the floor has recorded each of them."""
    before = rig.cards_seen(table_id)
    sim.deal(*cards)
    wait(lambda: rig.cards_seen(table_id) >= before + len(cards), what=f"cards {cards} on the floor")


def _expecting(dealer, number: int) -> list:
    return dealer.call("get", f"/api/tables/{number}/round")["round"]["flow"]["expecting"]


def _decide(dealer, number: int, seat: int, action: str, **kw) -> dict:
    return dealer.call("post", f"/api/tables/{number}/round/decision", {"seat": seat, "action": action, **kw})


def _by(rig, round_id: int) -> dict:
    """Bets of a round keyed by (seat, spot, hand)."""
    return {(b.seat, b.spot, b.hand): b for b in rig.bets(round_id)}


def test_blackjack_main_double_split_and_insurance_are_paid_from_the_scanner(rig, dealer, pit):
    table = rig.table_id(14)
    for player in (6, 7, 8):
        pit.call("post", "/api/cashier/players/%d/credit" % player, {"amount": 20_000})
    dealer.at(14)
    sim, reader = rig.attach(ScannerSimulator, "scanner", 14, game="blackjack", on_demand=True, speed=8)

    # --- round 1: the dealer shows an ace, no blackjack under it ---------------------------------
    rid = dealer.call("post", "/api/tables/14/round/open", {})["round"]["id"]
    pit.call("post", "/api/tables/14/bets", {"spot": "bet", "seat": 1, "amount": 1_000, "player_id": 6})
    dealer.call("post", "/api/tables/14/bets", {"spot": "bet", "seat": 2, "amount": 2_000})   # chips
    pit.call("post", "/api/tables/14/bets", {"spot": "bet", "seat": 3, "amount": 1_000, "player_id": 7})
    dealer.call("post", "/api/tables/14/round/close", {})
    sim.new_hand()
    # seat 1, seat 2, seat 3, the dealer's up card, seat 1, seat 2, seat 3, the hole card
    _scan(rig, sim, table, "8H", "5C", "TH", "AS", "8C", "6D", "9S", "6H")
    assert _expecting(dealer, 14) == ["insurance", 1]
    _decide(dealer, 14, 1, "insurance")
    _decide(dealer, 14, 2, "no_insurance")
    _decide(dealer, 14, 3, "insurance")
    assert _expecting(dealer, 14) == ["decision", 1, 1]     # the peek found no blackjack
    _decide(dealer, 14, 1, "split")
    _scan(rig, sim, table, "3C")                           # seat 1 hand 1: 8 3
    _decide(dealer, 14, 1, "double", hand=1)
    _scan(rig, sim, table, "9H")                           # 20
    _scan(rig, sim, table, "KS")                           # hand 2: 8 K
    _decide(dealer, 14, 1, "stand", hand=2)
    _decide(dealer, 14, 2, "double")                       # 5 6
    _scan(rig, sim, table, "TC")                           # 21
    assert _expecting(dealer, 14)[:2] == ["decision", 3]
    _decide(dealer, 14, 3, "stand")                        # the dealer stands on soft 17: done
    r = rig.wait_status(rid, "settled", "held", "voided")
    assert r.status == "settled", r.held_reason
    assert r.result["dealer"] == ["AS", "6H"]

    seats = {1: blackjack.Seat(1_000, (blackjack.PlayerHand(("8H", "3C", "9H"), 1_000),
                                       blackjack.PlayerHand(("8C", "KS"))), insurance=500),
             2: blackjack.Seat(2_000, (blackjack.PlayerHand(("5C", "6D", "TC"), 2_000),)),
             3: blackjack.Seat(1_000, (blackjack.PlayerHand(("TH", "9S")),), insurance=500)}
    rules = blackjack.settle(seats, ["AS", "6H"], blackjack.DEFAULT)
    bets = _by(rig, rid)
    assert set(bets) == {(1, "bet", 1), (1, "insurance", 1), (1, "split", 2), (1, "double", 1),
                         (2, "bet", 1), (2, "double", 1), (3, "bet", 1), (3, "insurance", 1)}
    got = {k: rig.returned(b.id) for k, b in bets.items()}
    # each hand hands back what the rules say, shared between its bet and its double
    assert got[(1, "bet", 1)] + got[(1, "double", 1)] == rules[1].hands[0].returned == 4_000
    assert got[(1, "split", 2)] == rules[1].hands[1].returned == 2_000
    assert got[(1, "insurance", 1)] == rules[1].insurance == 0
    assert got[(1, "double", 1)] == 2_000 and got[(1, "bet", 1)] == 2_000
    assert got[(2, "bet", 1)] + got[(2, "double", 1)] == rules[2].returned == 8_000
    assert got[(3, "bet", 1)] == rules[3].hands[0].returned == 2_000 and got[(3, "insurance", 1)] == 0
    assert bets[(2, "double", 1)].player_id is None                  # the chips on the table paid it
    assert rig.balance(6) == 20_000 - 3_500 + 6_000
    assert rig.balance(7) == 20_000 - 1_500 + 2_000

    # --- round 2: an ace up with a ten under it; insurance pays, a natural pushes ----------------
    rid = dealer.call("post", "/api/tables/14/round/open", {})["round"]["id"]
    pit.call("post", "/api/tables/14/bets", {"spot": "bet", "seat": 4, "amount": 2_000, "player_id": 8})
    dealer.call("post", "/api/tables/14/bets", {"spot": "bet", "seat": 5, "amount": 1_000})
    dealer.call("post", "/api/tables/14/round/close", {})
    sim.new_hand()
    _scan(rig, sim, table, "9H", "AC", "AD", "7C", "QD", "KH")
    _decide(dealer, 14, 4, "insurance", amount=1_000)
    _decide(dealer, 14, 5, "no_insurance")
    r = rig.wait_status(rid, "settled", "held", "voided")
    assert r.status == "settled", r.held_reason
    rules = blackjack.settle({4: blackjack.Seat(2_000, (blackjack.PlayerHand(("9H", "7C")),), insurance=1_000),
                              5: blackjack.Seat(1_000, (blackjack.PlayerHand(("AC", "QD")),))}, ["AD", "KH"], blackjack.DEFAULT)
    bets = _by(rig, rid)
    assert rig.returned(bets[(4, "insurance", 1)].id) == rules[4].insurance == 3_000   # 2:1
    assert rig.returned(bets[(4, "bet", 1)].id) == rules[4].hands[0].returned == 0
    assert rig.returned(bets[(5, "bet", 1)].id) == rules[5].returned == 1_000          # push
    assert rig.balance(8) == 20_000 - 3_000 + 3_000
    assert sim.deals[-2:] == [["8H", "5C", "TH", "AS", "8C", "6D", "9S", "6H", "3C", "9H", "KS", "TC"],
                              ["9H", "AC", "AD", "7C", "QD", "KH"]]
    rig.books_balance()
    rig.no_bridge_errors()


def test_casino_holdem_ante_call_aa_bonus_and_fold_are_paid_from_the_scanner(rig, dealer, pit):
    table = rig.table_id(15)
    pit.call("post", "/api/cashier/players/9/credit", {"amount": 20_000})
    pit.call("post", "/api/cashier/players/10/credit", {"amount": 100_000})
    dealer.at(15)
    sim, reader = rig.attach(ScannerSimulator, "scanner", 15, game="holdem", on_demand=True, speed=8)

    rid = dealer.call("post", "/api/tables/15/round/open", {})["round"]["id"]
    pit.call("post", "/api/tables/15/bets", {"spot": "ante", "seat": 1, "amount": 1_000, "player_id": 9})
    pit.call("post", "/api/tables/15/bets", {"spot": "aa_bonus", "seat": 1, "amount": 1_000, "player_id": 9})
    dealer.call("post", "/api/tables/15/bets", {"spot": "ante", "seat": 2, "amount": 2_000})   # chips
    cut = pit.call("post", "/api/tables/15/bets", {"spot": "ante", "seat": 3, "amount": 30_000, "player_id": 10})
    assert (cut["requested"], cut["amount"]) == (30_000, 25_000)    # over the maximum: cut down to it
    pit.call("post", "/api/tables/15/bets", {"spot": "aa_bonus", "seat": 3, "amount": 1_000, "player_id": 10})
    dealer.call("post", "/api/tables/15/round/close", {})
    sim.new_hand()
    # a card to each seat then the dealer, twice; then the flop
    _scan(rig, sim, table, "AH", "7C", "KD", "4S", "AS", "2D", "QD", "4H", "AD", "9C", "5H")
    assert _expecting(dealer, 15)[0] == "decision"
    _decide(dealer, 15, 1, "call")
    _decide(dealer, 15, 2, "fold")
    _decide(dealer, 15, 3, "call")
    assert _expecting(dealer, 15) == ["card", "board"]
    _scan(rig, sim, table, "JD", "2S")                     # turn and river: the round settles
    r = rig.wait_status(rid, "settled", "held", "voided")
    assert r.status == "settled", r.held_reason

    dealer_cards, board = ["4S", "4H"], ["AD", "9C", "5H", "JD", "2S"]
    assert (r.result["dealer"], r.result["board"]) == (dealer_cards, board)
    bets = _by(rig, rid)
    got = {(seat, spot): rig.returned(b.id) for (seat, spot, _), b in bets.items()}
    # seat 1: three aces against the dealer's fours: ante 1:1, call 1:1, AA bonus 7:1
    assert (got[(1, "ante")] + got[(1, "call")] + got[(1, "aa_bonus")]
            == casino_holdem.returned(1_000, 1_000, True, ["AH", "AS"], dealer_cards, board, casino_holdem.DEFAULT) == 14_000)
    assert (got[(1, "ante")], got[(1, "call")], got[(1, "aa_bonus")]) == (2_000, 4_000, 8_000)
    # seat 2 folded: the ante is lost
    assert got[(2, "ante")] == casino_holdem.returned(2_000, 0, False, ["7C", "2D"], dealer_cards, board[:3], casino_holdem.DEFAULT) == 0
    assert (2, "call") not in got
    # seat 3 called and lost to the dealer's pair
    assert bets[(3, "call", 1)].amount == 50_000
    assert (got[(3, "ante")] + got[(3, "call")] + got[(3, "aa_bonus")]
            == casino_holdem.returned(25_000, 1_000, True, ["KD", "QD"], dealer_cards, board, casino_holdem.DEFAULT) == 0)
    assert rig.balance(9) == 20_000 - 4_000 + 14_000
    assert rig.balance(10) == 100_000 - 76_000
    rig.books_balance()
    rig.no_bridge_errors()
