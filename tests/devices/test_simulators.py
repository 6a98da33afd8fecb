"""Simulators speak the real protocols: run them in-process (and once as the CLI) against readers."""
import os
import subprocess
import sys
import time

import pytest

from devices.scanner import CardRead
from devices.shoe import CardDealt, CoupStart, ShoeResult
from devices.simulate import ScannerSimulator, ShoeSimulator, WheelSimulator
from devices.tableau import next_target, outcome
from devices.wheel_rules import BetsOpen, Misspin, NoMoreBets, Result
from floor.games.cards import Card
from tests.devices.helpers import wait_until

FAST_WHEEL = {"before": 0.5, "bets": 1.0, "spinning": 1.0, "no_more_bets": 0.5, "result": 1.0}


@pytest.fixture
def sims():
    started = []
    yield started
    for sim in started:
        sim.stop()


def test_wheel_simulator_rounds_reach_the_floor_once(pty, sink, make_reader, sims):
    reader = make_reader("wheel", pty.path)
    sim = WheelSimulator(pty, seed=3, speed=10, timings=FAST_WHEEL)
    sim.inject("misspin")
    sims.append(sim.start())
    results = wait_until(lambda: len(sink.outcomes_of(reader.name, Result)) >= 2 and
                         sink.outcomes_of(reader.name, Result), timeout=15)
    assert [(r.spin, r.number) for r in results[:2]] == sim.results[:2]
    first = [o for o in sink.outcomes_of(reader.name) if getattr(o, "spin", None) == 1]
    assert first == [BetsOpen(1), Misspin(1), NoMoreBets(1), Result(1, sim.results[0][1])]
    assert b"*R\r\n" in bytes(sim.received)  # the reader reset the wheel after the misspin
    assert reader.health().frame_errors == 0


def test_wheel_simulator_answers_commands(pty, sink, make_reader, sims):
    from devices.wheel import CommandReply, SelfTest
    reader = make_reader("wheel", pty.path)
    sims.append(WheelSimulator(pty, seed=1, speed=10, timings={"before": 20.0}).start())
    wait_until(lambda: sink.events_of(reader.name))
    for command in ("V", "F", "P 1"):
        assert reader.send(command)
    wait_until(lambda: len(sink.events_of(reader.name, (CommandReply, SelfTest))) == 3)
    assert sink.events_of(reader.name, (CommandReply, SelfTest)) == [
        CommandReply("V", "SS2-SIM 1.0"), SelfTest(0), CommandReply("P", "OK")]


def test_wheel_simulator_unplug_and_replug(pty, sink, make_reader, sims):
    reader = make_reader("wheel", pty.path)
    sim = WheelSimulator(pty, seed=4, speed=10, timings=FAST_WHEEL, unplug_s=0.3)
    sim.inject("unplug")
    sims.append(sim.start())
    # spin 1 is unplugged mid-spin; lines sent while the reader was away are gone (as on a real
    # cable), so spin 1 may settle or be held, but nothing is doubled and spin 2 settles normally
    wait_until(lambda: any(r.spin == 2 for r in sink.outcomes_of(reader.name, Result)), timeout=15)
    results = [(r.spin, r.number) for r in sink.outcomes_of(reader.name, Result)]
    assert len({spin for spin, _ in results}) == len(results)
    assert set(results) <= set(sim.results)
    assert reader.health().reconnects == 1


def coups_from(events):
    coups, current = [], None
    for e in events:
        if isinstance(e, CoupStart):
            current = {"player": [], "banker": []}
        elif isinstance(e, CardDealt) and current is not None:
            current[e.target].append(str(e.card))
        elif isinstance(e, ShoeResult) and current is not None:
            current["result"] = (e.winner, e.player_pair, e.banker_pair)
            coups.append(current)
            current = None
    return coups


def test_shoe_simulator_deals_real_coups(pty, sink, make_reader, sims):
    reader = make_reader("shoe", pty.path)
    sim = ShoeSimulator(pty, seed=5, speed=50)
    sim.inject("bad_bcc")
    sims.append(sim.start())
    wait_until(lambda: len(coups_from(sink.events_of(reader.name))) >= 3, timeout=15)
    coups = coups_from(sink.events_of(reader.name))[:3]
    assert coups == sim.coups[:3]
    for coup in coups:  # every coup follows the tableau, card by card
        player, banker = [], []
        for _ in range(len(coup["player"]) + len(coup["banker"])):
            target = next_target(player, banker)
            (player if target == "player" else banker).append(
                Card.parse(coup[target][len(player if target == "player" else banker)]))
        assert next_target(player, banker) is None
        assert outcome(player, banker) == coup["result"]
    assert b"02" in sim.naks and reader.health().frame_errors >= 1
    from devices.shoe_rules import CoupResult, ShoeHold
    wait_until(lambda: len(sink.outcomes_of(reader.name, CoupResult)) >= 3)
    settled = sink.outcomes_of(reader.name, CoupResult)[:3]
    assert [(r.coup, (r.winner, r.player_pair, r.banker_pair)) for r in settled] == \
        [(i + 1, c["result"]) for i, c in enumerate(coups)]
    assert sink.outcomes_of(reader.name, ShoeHold) == []


def test_shoe_simulator_reaches_the_cut_card_and_starts_a_new_shoe(pty, sink, make_reader, sims):
    from devices.shoe import CutCard
    reader = make_reader("shoe", pty.path)
    sim = ShoeSimulator(pty, seed=6, speed=200, decks=1, timings={"copy": 0.02})
    sims.append(sim.start())
    wait_until(lambda: sim.shoes >= 2 and sink.events_of(reader.name, CutCard), timeout=20)
    events = sink.events_of(reader.name, (CutCard, ShoeResult))
    cut = next(i for i, e in enumerate(events) if isinstance(e, CutCard))
    assert isinstance(events[cut + 1], ShoeResult)  # the coup with the cut card is the last one


@pytest.mark.parametrize("game, seats", [("blackjack", 3), ("holdem", 2)])
def test_scanner_simulator_reads_deals_in_order(pty, sink, make_reader, sims, game, seats):
    reader = make_reader("scanner", pty.path)
    sim = ScannerSimulator(pty, seed=7, speed=40, game=game, seats=seats)
    sim.inject("double_read")
    sim.inject("noise")
    sims.append(sim.start())
    wait_until(lambda: len(sim.deals) >= 2, timeout=15)
    first = sim.deals[0]
    wait_until(lambda: len(sink.events_of(reader.name, CardRead)) >= len(first))
    assert [str(e.card) for e in sink.events_of(reader.name, CardRead)][:len(first)] == first
    if game == "holdem":
        assert len(first) == 2 * (seats + 1) + 5
    assert reader.health().duplicates >= 1


def test_simulator_command_line_on_a_symlinked_pty(tmp_path, sink, make_reader):
    link = tmp_path / "usb-Angel_Eye-if00"
    proc = subprocess.Popen([sys.executable, "-m", "devices.simulate", "shoe", "--link", str(link),
                             "--seed", "1", "--speed", "50"], cwd=os.getcwd(),
                            stdout=subprocess.PIPE, text=True)
    try:
        assert "shoe simulator on" in proc.stdout.readline()
        reader = make_reader("shoe", str(link))
        wait_until(lambda: sink.events_of(reader.name, CardDealt), timeout=15)
    finally:
        proc.terminate()
        proc.wait(5)
    assert not link.exists()  # the simulator took its link with it


def test_paced_shoe_waits_for_the_game_confirmation_and_deals_a_coup_per_request(pty, sink, make_reader, sims):
    from devices.shoe import CardDrawn, encode_command
    from devices.shoe_rules import CoupResult
    reader = make_reader("shoe", pty.path)
    sim = ShoeSimulator(pty, seed=5, speed=50, paced=True)
    sims.append(sim.start())
    time.sleep(0.3)
    assert sink.events_of(reader.name) == [] and sim.shoes == 0   # nothing until the game is confirmed
    assert reader.send(encode_command("GP", 0))                   # the host confirms the game
    wait_until(lambda: sim.shoes == 1 and sim.waiting, timeout=10)
    assert sim.commands == ["GP00"]
    burn = sink.events_of(reader.name, CardDrawn)
    assert len(burn) >= 2 and sink.events_of(reader.name, CoupStart) == []   # the burn, and no coup yet
    for n in (1, 2):
        sim.deal_coup()
        wait_until(lambda n=n: len(sink.events_of(reader.name, ShoeResult)) == n and sim.waiting, timeout=10)
        assert len(sim.coups) == n
    assert coups_from(sink.events_of(reader.name)) == sim.coups
    wait_until(lambda: len(sink.outcomes_of(reader.name, CoupResult)) == 2)
    assert reader.rules.shoe == 2   # GP 00 started a new shoe in the reader's host rules too


@pytest.mark.parametrize("game", ["blackjack", "holdem"])
def test_scanner_on_demand_reads_what_it_is_asked_for(pty, sink, make_reader, sims, game):
    reader = make_reader("scanner", pty.path)
    sim = ScannerSimulator(pty, seed=7, speed=40, game=game, on_demand=True)
    sims.append(sim.start())
    time.sleep(0.3)
    assert sink.events_of(reader.name) == [] and sim.sent == 0   # nothing by itself
    sim.new_hand()
    asked = sim.deal("AS", "TD", count=3)
    assert asked == 5 and sim.wait_sent(asked, timeout=10)
    wait_until(lambda: len(sink.events_of(reader.name, CardRead)) == 5)
    read = [str(e.card) for e in sink.events_of(reader.name, CardRead)]
    assert read[:2] == ["AS", "TD"] and read == sim.deals[-1] and sim.idle
    if game == "holdem":   # a new hand is a fresh single deck: 52 distinct cards
        sim.new_hand()
        assert sim.wait_sent(sim.deal(count=52), timeout=30)
        assert len(set(sim.deals[-1])) == 52
