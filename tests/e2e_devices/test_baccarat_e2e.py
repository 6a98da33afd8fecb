"""Baccarat end to end on a pty: the smart shoe simulator (every frame three times, ACK/NAK, the
cut card) paced by the dealer. The dealer confirms the shoe and opens betting at the terminal,
players bet, the dealer deals the coup; the host reads the D frames, computes the coup itself,
compares the shoe's G and settles every bet as floor.games.baccarat says, commission included."""
from __future__ import annotations

from fractions import Fraction

from sqlalchemy import select

from devices.simulate.shoe import ShoeSimulator
from floor.games import baccarat
from floor.models import Shoe
from tests.e2e_devices.conftest import wait

SEED = 14          # coups 1 and 2 of the first shoe: banker wins; coup 3: player wins with a banker pair
CUT_FROM_BACK = 398  # with this seed the cut card comes out during coup 3
SPOTS = [("player", 1_000), ("banker", 2_000), ("tie", 1_000), ("player_pair", 1_000), ("banker_pair", 1_000)]


def _settings(house) -> baccarat.BaccaratSettings:
    return baccarat.BaccaratSettings(banker_commission=Fraction(house.baccarat_commission_percent, 100))


def _coup(rig, dealer, pit, sim, player_id: int, *, faults: tuple[str, ...] = ()):
    """One coup as it is played: betting opens, bets go on, the dealer deals, the floor settles."""
    table = rig.table_id(10)
    state = dealer.call("post", "/api/tables/10/round/open", {})
    rid = state["round"]["id"]
    placed = [(pit.call("post", "/api/tables/10/bets", {"spot": spot, "amount": amount, "player_id": player_id})["id"],
               spot, amount) for spot, amount in SPOTS]
    placed.append((dealer.call("post", "/api/tables/10/bets", {"spot": "banker", "amount": 1_000, "seat": 2})["id"],
                   "banker", 1_000))
    for fault in faults:
        sim.inject(fault)
    coups = len(sim.coups)
    sim.deal_coup()
    r = rig.wait_status(rid, "settled", "held", "voided")
    assert r.status == "settled", r.held_reason
    assert r.table_id == table and len(sim.coups) == coups + 1
    dealt = sim.coups[-1]
    # the host read the cards the shoe dealt, in shoe order, and got the shoe's result itself
    assert r.result["cards"] == dealt["cards"]
    coup = baccarat.play(r.result["cards"])
    assert (coup.winner, coup.player_pair, coup.banker_pair) == dealt["result"]
    settings = _settings(rig.house)
    for bet_id, spot, amount in placed:
        expected = baccarat.returned(spot, amount, coup, settings)
        assert rig.returned(bet_id) == expected, (spot, coup)
        if spot == "banker" and coup.winner == "banker":
            assert rig.commission(bet_id) == 2 * amount - expected > 0
    return r, coup, placed


def _c(code):
    from floor.games.cards import Card
    return Card.parse(code)


def test_baccarat_coups_from_the_shoe_settle_every_bet_and_the_cut_card_ends_the_shoe(rig, dealer, pit):
    table = rig.table_id(10)
    pit.call("post", "/api/cashier/players/4/credit", {"amount": 100_000})
    dealer.at(10)
    sim, reader = rig.attach(ShoeSimulator, "shoe", 10, seed=SEED, speed=8, paced=True, cut_from_back=CUT_FROM_BACK)

    # no shoe yet: the dealer confirms one, and the host confirms the game to the shoe (GP 00)
    refused = dealer.client.post("/api/tables/10/round/open", json={}, headers=dealer.headers())
    assert refused.status_code == 409 and refused.get_json()["error"] == "new_shoe_needed"
    dealer.call("post", "/api/tables/10/shoe", {})
    wait(lambda: "GP00" in sim.commands, what="GP 00 at the shoe")

    balance = 100_000
    r1, coup1, placed = _coup(rig, dealer, pit, sim, 4)
    assert coup1.winner == "banker", "the seed was chosen for a banker win (commission)"
    balance += sum(rig.returned(b) - a for b, _, a in placed[:-1])
    assert rig.balance(4) == balance

    # a corrupted frame (answered NAK 02, the next copy counts) and line noise change nothing
    r2, coup2, placed = _coup(rig, dealer, pit, sim, 4, faults=("bad_bcc", "noise"))
    assert b"02" in sim.naks
    assert reader.health().frame_errors >= 2
    balance += sum(rig.returned(b) - a for b, _, a in placed[:-1])

    # the cut card comes out during coup 3: it is the last coup of the shoe
    r3, coup3, placed = _coup(rig, dealer, pit, sim, 4)
    assert coup3.winner == "player" and coup3.banker_pair
    balance += sum(rig.returned(b) - a for b, _, a in placed[:-1])
    assert rig.balance(4) == balance
    with rig.session() as s:
        shoe = s.execute(select(Shoe).where(Shoe.table_id == table).order_by(Shoe.number.desc())).scalars().first()
        assert (shoe.number, shoe.status, shoe.last_coup) == (1, "finished", 3)
    assert [r.coup for r in (r1, r2, r3)] == [1, 2, 3]
    refused = dealer.client.post("/api/tables/10/round/open", json={}, headers=dealer.headers())
    assert refused.status_code == 409 and refused.get_json()["error"] == "new_shoe_needed"

    # the dealer confirms a new shoe; the shoe hears GP 00, shuffles, burns, and coup 1 of shoe 2 settles
    dealer.call("post", "/api/tables/10/shoe", {})
    wait(lambda: sim.commands.count("GP00") == 2, what="the second GP 00")
    r4, _, placed = _coup(rig, dealer, pit, sim, 4)
    balance += sum(rig.returned(b) - a for b, _, a in placed[:-1])
    assert r4.coup == 1 and sim.shoes == 2
    with rig.session() as s:
        assert s.get(Shoe, r4.shoe_id).number == 2
    assert rig.balance(4) == balance
    board = pit.call("get", "/api/board/games")
    roads = next(g for g in board if g["number"] == 10)
    assert roads["shoe"]["number"] == 2 and [b["winner"] for b in roads["beads"]] == [r4.result["winner"]]
    assert sum(1 for ev, _, _ in rig.feed if ev == "device.shoe.cutcard") == 1
    rig.books_balance()
    rig.no_bridge_errors()
