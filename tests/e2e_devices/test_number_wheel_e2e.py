"""Roulette end to end on a winning-number-only wheel (``protocol = "wheel-number-v1"``): the wheel
simulator on a pty, the real reader and bridge; the dealer opens betting and taps "no more bets" at
the terminal, players bet through the API, and the number the wheel sends settles the bets in the
ledger. The reader, the bridge and the rounds are the ones every wheel goes through."""
from __future__ import annotations

from sqlalchemy import select

from devices.simulate.wheel_number import NumberWheelSimulator
from floor.games import roulette
from floor.models import DeviceFrame
from tests.e2e_devices.conftest import wait

NUMBER_ONLY = {"protocol": "wheel-number-v1"}
PLACED = [("straight", [17], 1_000), ("red", None, 2_000), ("black", None, 2_500), ("dozen", list(range(1, 13)), 1_500),
          ("odd", None, 3_000)]


def _bet(terminal, spot, numbers, amount, **who):
    body = {"spot": spot, "amount": amount, **who}
    if numbers is not None:
        body["numbers"] = numbers
    return terminal.call("post", "/api/tables/12/bets", body)["id"]


def test_the_dealer_closes_betting_and_the_wheels_number_settles_the_round(rig, pit, dealer):
    table = rig.table_id(12)
    pit.call("post", "/api/cashier/players/1/credit", {"amount": 100_000})
    dealer.at(12)
    sim, reader = rig.attach(NumberWheelSimulator, "wheel", 12, seed=5, paced=True, copies=3, config=NUMBER_ONLY)
    assert reader.config.protocol == "wheel-number-v1" and reader.config.heartbeat_s is None

    # the wheel has no "place bets" state: nothing opens by itself; the dealer opens betting
    state = dealer.call("post", "/api/tables/12/round/open", {}, status=201)
    round_id = state["round"]["id"]
    assert rig.round(round_id).status == "betting"
    placed = [(_bet(pit, spot, numbers, amount, player_id=1), spot, numbers, amount) for spot, numbers, amount in PLACED]
    placed.append((_bet(dealer, "straight", [17], 500, seat=2), "straight", [17], 500))

    # the ball is in the rim; the wheel cannot say so: the dealer's tap closes betting
    dealer.call("post", "/api/tables/12/round/close", {})
    assert rig.round(round_id).status == "locked"
    late = pit.client.post("/api/tables/12/bets", json={"spot": "even", "amount": 1_000, "player_id": 1},
                           headers=pit.headers())
    assert late.status_code == 409 and late.get_json()["error"] == "betting_closed", late.get_json()

    wait(lambda: sim.waiting, what="the ball in the rim")
    sim.land()   # the ball comes to rest: N:<number>:<dir>, three copies
    r = rig.wait_status(round_id, "settled", "held", "voided")
    assert r.status == "settled", r.held_reason
    [(number, direction)] = sim.results
    assert r.result["number"] == number and r.device["direction"] == direction
    stakes = returned = 0
    for bet_id, spot, numbers, amount in placed:
        expected = roulette.returned(roulette.bet(spot, numbers), amount, number, roulette.DEFAULT)
        assert rig.returned(bet_id) == expected, (spot, numbers, number)
        if spot != "straight" or amount != 500:   # the player's own bets (not the dealer's seat bet)
            stakes += amount
            returned += expected
    assert rig.balance(1) == 100_000 - stakes + returned
    rig.books_balance()
    rig.no_bridge_errors()

    # three copies of the line were one result: one settlement, no stray result alerted
    wait(lambda: reader.health().duplicates == 2, what="the copies counted")
    rig.bridges[0].drain(30)
    assert not rig.alerts(table, "result_without_no_more_bets")
    # the dealer terminal heard the number live; the round keeps the line that decided it
    assert any(ev == "device.wheel.number" and p["number"] == number for ev, p, _ in rig.feed)
    with rig.session() as s:
        frames = s.execute(select(DeviceFrame.summary).where(DeviceFrame.round_id == r.id)).scalars().all()
    assert any(f.startswith(f"number {number} ") and "number only" in f for f in frames), frames
    # a wheel that is silent between spins is never "lost"
    assert not reader.health().lost
    assert not rig.alerts(table, "device_lost")

    # the next round: the dealer opens it again, and the next number settles it alone
    state = dealer.call("post", "/api/tables/12/round/open", {}, status=201)
    second = state["round"]["id"]
    bet = _bet(pit, "straight", [sim.results[0][0]], 1_000, player_id=1)
    dealer.call("post", "/api/tables/12/round/close", {})
    wait(lambda: sim.waiting, what="the ball in the rim again")
    sim.land()
    r2 = rig.wait_status(second, "settled", "held", "voided")
    assert r2.status == "settled", r2.held_reason
    n2, d2 = sim.results[1]
    assert r2.result["number"] == n2 and r2.device["direction"] == d2 != direction
    assert rig.returned(bet) == (36_000 if n2 == number else 0)
    rig.books_balance()
    rig.no_bridge_errors()


def test_a_number_before_the_dealers_tap_holds_the_round_and_closes_betting_on_the_line(rig, pit, dealer):
    """The dealer forgot "no more bets": the number the wheel sends holds the round (bets may have gone
    on with the ball in the rim), no bet is taken on it any more, and the pit boss settles it on the
    number."""
    table = rig.table_id(12)
    pit.call("post", "/api/cashier/players/2/credit", {"amount": 20_000})
    dealer.at(12)
    sim, reader = rig.attach(NumberWheelSimulator, "wheel", 12, seed=5, paced=True, config=NUMBER_ONLY)
    round_id = dealer.call("post", "/api/tables/12/round/open", {}, status=201)["round"]["id"]
    bet = _bet(pit, "straight", [16], 1_000, player_id=2)   # seed 5: the first number is 16
    wait(lambda: sim.waiting, what="the ball in the rim")
    sim.land()
    r = rig.wait_status(round_id, "held", "settled", "voided")
    assert r.status == "held" and "result without no more bets" in r.held_reason
    [(number, _)] = sim.results
    assert number == 16
    late = pit.client.post("/api/tables/12/bets", json={"spot": "red", "amount": 1_000, "player_id": 2},
                           headers=pit.headers())
    assert late.status_code == 409 and late.get_json()["error"] == "betting_closed", late.get_json()
    assert rig.returned(bet) == 0 and rig.balance(2) == 19_000   # nothing paid until the pit boss decides

    pit.call("post", f"/api/rounds/{round_id}/settle", {"number": number})
    assert rig.round(round_id).status == "settled"
    assert rig.returned(bet) == 36_000 and rig.balance(2) == 19_000 + 36_000
    rig.books_balance()
    rig.no_bridge_errors()
