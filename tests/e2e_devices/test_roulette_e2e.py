"""Roulette end to end on a pty: the wheel simulator drives the round (state 2 opens betting, 4
closes it, the bare number and state 5 decide), players bet through the API while the wheel asks
for bets, and the ledger pays every kind of bet what floor.games.roulette says."""
from __future__ import annotations

from sqlalchemy import select

from devices import wheel as w
from devices.simulate.wheel import WheelSimulator
from floor.games import roulette
from floor.models import DeviceFrame, RoundEvent
from tests.e2e_devices.conftest import wait

SEED_17 = 27   # the wheel's first number with this seed is 17 (black, odd, low, 2nd dozen, 2nd column)
# at speed 4 (a status line every 125 ms); the wheel keeps asking for bets until the test has placed
# them (hold_in), on a fast machine or a loaded one
SPEED = 4
BETS, BEFORE = w.STATE_PLACE_BETS, w.STATE_BEFORE_GAME
EVERY_KIND = [
    ("straight", [17]), ("split", [17, 20]), ("street", [16, 17, 18]), ("trio", [0, 1, 2]),
    ("corner", [16, 17, 19, 20]), ("first_four", None), ("six_line", [13, 14, 15, 16, 17, 18]),
    ("column", [n for n in range(1, 37) if n % 3 == 2]), ("dozen", list(range(13, 25))),
    ("red", None), ("black", None), ("odd", None), ("even", None), ("low", None), ("high", None),
]


def _bet(terminal, spot, numbers, amount, **who):
    body = {"spot": spot, "amount": amount, **who}
    if numbers is not None:
        body["numbers"] = numbers
    return terminal.call("post", "/api/tables/12/bets", body)["id"]


def test_every_roulette_bet_kind_is_paid_on_the_number_the_wheel_announced(rig, pit, dealer):
    table = rig.table_id(12)
    pit.call("post", "/api/cashier/players/1/credit", {"amount": 200_000})
    dealer.at(12)
    sim, reader = rig.attach(WheelSimulator, "wheel", 12, seed=SEED_17, speed=SPEED, hold_in=(BETS,))

    r = rig.wait_betting(table)
    placed = []
    for i, (kind, numbers) in enumerate(EVERY_KIND):
        amount = 1_000 + 100 * i
        placed.append((_bet(pit, kind, numbers, amount, player_id=1), kind, numbers, amount))
    # a seat bet the dealer enters for the chips on the table
    placed.append((_bet(dealer, "straight", [17], 500, seat=3), "straight", [17], 500))
    sim.release(BETS)

    r = rig.wait_status(r.id, "settled", "held", "voided")
    assert r.status == "settled", r.held_reason
    number = r.result["number"]
    assert (r.spin, number) == sim.results[0]
    assert number == 17, "the seed was chosen so that most kinds of bet win"
    paid = {}
    for bet_id, kind, numbers, amount in placed:
        expected = roulette.returned(roulette.bet(kind, numbers), amount, number, roulette.DEFAULT)
        assert rig.returned(bet_id) == expected, (kind, numbers)
        paid[kind] = paid.get(kind, 0) + expected
    assert paid["straight"] == 36 * 1_000 + 36 * 500 and paid["trio"] == paid["red"] == 0
    stakes = sum(a for _, _, _, a in placed[:-1])
    returned = sum(roulette.returned(roulette.bet(k, n), a, number, roulette.DEFAULT) for _, k, n, a in placed[:-1])
    assert rig.balance(1) == 200_000 - stakes + returned
    rig.books_balance()
    rig.no_bridge_errors()
    # the dealer terminal heard the wheel live, and the round keeps the frames that decided it
    assert any(ev == "device.wheel.number" and p["number"] == 17 for ev, p, _ in rig.feed)
    with rig.session() as s:
        frames = s.execute(select(DeviceFrame.summary).where(DeviceFrame.round_id == r.id)).scalars().all()
    assert any(f.startswith("number 17") for f in frames) and any(f.startswith("wheel status 5,") for f in frames)


def test_a_misspin_keeps_the_bets_locked_and_the_respin_settles_them(rig, pit):
    table = rig.table_id(12)
    pit.call("post", "/api/cashier/players/2/credit", {"amount": 50_000})
    # held before each spin too: after the misspin the wheel waits for the test before it spins again
    sim, reader = rig.attach(WheelSimulator, "wheel", 12, seed=SEED_17, speed=SPEED, hold_in=(BEFORE, BETS),
                             inject=("misspin",))
    sim.release(BEFORE)

    r = rig.wait_betting(table)
    red = _bet(pit, "red", None, 5_000, player_id=2)
    straight = _bet(pit, "straight", [17], 1_000, player_id=2)
    sim.release(BETS)

    def misspun():
        with rig.session() as s:
            return s.execute(select(RoundEvent).where(RoundEvent.round_id == r.id,
                                                      RoundEvent.kind == "misspin")).scalars().first()
    wait(misspun, what="the misspin")
    # the spin is void but the bets stay locked: nothing new goes on, nothing comes off
    late = pit.client.post("/api/tables/12/bets", json={"spot": "black", "amount": 1_000, "player_id": 2},
                           headers=pit.headers())
    assert late.status_code == 409 and late.get_json()["error"] == "betting_closed", late.get_json()
    wait(lambda: sim.state == BEFORE, what="the wheel reset, waiting to spin again")
    assert rig.round(r.id).status == "locked"
    assert rig.balance(2) == 50_000 - 6_000
    sim.release(BEFORE)

    r = rig.wait_status(r.id, "settled", "held", "voided")
    assert r.status == "settled", r.held_reason
    assert b"*R\r\n" in bytes(sim.received)   # the reader reset the wheel
    assert (r.spin, r.result["number"]) == sim.results[0]   # the re-spin of the same spin number
    number = r.result["number"]
    back = (roulette.returned(roulette.bet("red"), 5_000, number, roulette.DEFAULT)
            + roulette.returned(roulette.bet("straight", [17]), 1_000, number, roulette.DEFAULT))
    assert rig.returned(red) + rig.returned(straight) == back
    assert rig.balance(2) == 50_000 - 6_000 + back
    with rig.session() as s:
        kinds = [e.kind for e in s.execute(select(RoundEvent).where(RoundEvent.round_id == r.id)
                                           .order_by(RoundEvent.id)).scalars()]
    assert kinds.count("misspin") == 1 and "no_more_bets" in kinds
    assert len(rig.bets(r.id)) == 2
    rig.books_balance()
    rig.no_bridge_errors()


def test_a_silent_wheel_holds_the_round_and_the_pit_boss_voids_it(rig, pit):
    table = rig.table_id(12)
    pit.call("post", "/api/cashier/players/3/credit", {"amount": 20_000})
    sim, reader = rig.attach(WheelSimulator, "wheel", 12, seed=SEED_17, speed=SPEED, hold_in=(BETS,),
                             silence_s=3.0, inject=("silence",))

    r = rig.wait_betting(table)
    bet = _bet(pit, "odd", None, 4_000, player_id=3)
    sim.release(BETS)
    r = rig.wait_status(r.id, "held", "settled", "voided")
    assert r.status == "held"
    assert "lost" in r.held_reason
    # the wheel comes back and finishes its spin: the held round stays with the pit boss
    wait(lambda: sim.results, what="the wheel to finish the spin")
    wait(lambda: not reader.health().lost, what="the wheel's status lines again")
    assert rig.round(r.id).status == "held"
    assert rig.returned(bet) == 0 and rig.balance(3) == 16_000
    held = pit.call("get", "/api/rounds/held")
    assert [h["id"] for h in held] == [r.id]

    pit.call("post", f"/api/rounds/{r.id}/void", {"reason": "wheel lost mid-spin"})
    assert rig.round(r.id).status == "voided"
    assert rig.returned(bet) == 4_000 and rig.balance(3) == 20_000
    rig.books_balance()
    rig.no_bridge_errors()
