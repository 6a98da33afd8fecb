"""Simulators speak the real protocols: run them in-process (and once as the CLI) against readers."""
import os
import random
import subprocess
import sys

import pytest

from devices.scanner import CardRead
from devices.shoe import CardDealt, CoupStart, ShoeResult
from devices.simulate import ScannerSimulator, ShoeSimulator, WheelSimulator
from devices.wheel import FLAG_MISSPIN, WheelStatus
from floor.games import baccarat, blackjack
from floor.games.cards import Card, shoe
from floor.rounds.engines.wheel import Lock, Misspin, Open, Result
from tests.devices.helpers import wait_until, wheel_outcomes

# drives the simulators through ptys in real time: left out of `make test-fast`, run by `make test`
pytestmark = pytest.mark.slow

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
    # the host answers the misspin as the rounds do: *R, and the wheel spins again
    wait_until(lambda: any(e.flags & FLAG_MISSPIN for e in sink.events_of(reader.name, WheelStatus)))
    assert reader.send(Misspin(1, True).command)

    def results():
        return [o for o in wheel_outcomes(sink.timed_events(reader.name)) if isinstance(o, Result)]
    wait_until(lambda: len(results()) >= 2)
    assert [(r.spin, r.number) for r in results()[:2]] == sim.results[:2]
    first = [o for o in wheel_outcomes(sink.timed_events(reader.name)) if getattr(o, "spin", None) == 1]
    assert first == [Open(1), Misspin(1, True), Lock(1, False), Result(sim.results[0][1], 1)]
    assert b"*R\r\n" in bytes(sim.received)
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

    def results():
        return [(o.spin, o.number) for o in wheel_outcomes(sink.timed_events(reader.name)) if isinstance(o, Result)]
    wait_until(lambda: any(spin == 2 for spin, _ in results()))
    results = results()
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
    wait_until(lambda: len(coups_from(sink.events_of(reader.name))) >= 3)
    coups = coups_from(sink.events_of(reader.name))[:3]
    assert coups == [{k: c[k] for k in ("player", "banker", "result")} for c in sim.coups[:3]]
    for coup, dealt in zip(coups, sim.coups):  # every coup follows the tableau, card by card
        cards = dealt["cards"]
        for n, card in enumerate(cards):
            target = baccarat.next_target(cards[:n])
            assert card == coup[target][sum(baccarat.next_target(cards[:m]) == target for m in range(n))]
        assert baccarat.next_target(cards) is None
        played = baccarat.play(cards)
        assert (played.winner, played.player_pair, played.banker_pair) == coup["result"]
    assert b"02" in sim.naks and reader.health().frame_errors >= 1


def test_shoe_simulator_reaches_the_cut_card_and_starts_a_new_shoe(pty, sink, make_reader, sims):
    from devices.shoe import CutCard
    reader = make_reader("shoe", pty.path)
    sim = ShoeSimulator(pty, seed=6, speed=200, decks=1, timings={"copy": 0.02})
    sims.append(sim.start())

    def after_the_cut():   # what the reader decoded from the cut card on, once a result follows it
        events = sink.events_of(reader.name, (CutCard, ShoeResult))
        cut = next((i for i, e in enumerate(events) if isinstance(e, CutCard)), None)
        return cut is not None and events[cut + 1:] and events[cut:]

    events = wait_until(lambda: sim.shoes >= 2 and after_the_cut())
    assert isinstance(events[1], ShoeResult)  # the coup with the cut card is the last one


@pytest.mark.parametrize("game, seats", [("blackjack", 3), ("holdem", 2)])
def test_scanner_simulator_reads_deals_in_order(pty, sink, make_reader, sims, game, seats):
    reader = make_reader("scanner", pty.path)
    sim = ScannerSimulator(pty, seed=7, speed=40, game=game, seats=seats)
    sim.inject("double_read")
    sim.inject("noise")
    sims.append(sim.start())
    wait_until(lambda: len(sim.deals) >= 2)
    first = sim.deals[0]
    wait_until(lambda: len(sink.events_of(reader.name, CardRead)) >= len(first))
    assert [str(e.card) for e in sink.events_of(reader.name, CardRead)][:len(first)] == first
    if game == "holdem":
        assert len(first) == 2 * (seats + 1) + 5
    assert reader.health().duplicates >= 1


@pytest.mark.parametrize("hits_soft_17, dealt", [(False, ["TH", "AS", "9D", "6C"]),
                                                  (True, ["TH", "AS", "9D", "6C", "2D"])])
def test_a_self_dealing_scanner_deals_the_dealer_by_the_house_rules(pty, sink, make_reader, sims, hits_soft_17, dealt):
    """The dealer's soft 17 (ace, six): he stands where the house stands on all 17s, and draws where
    its rules say he hits a soft 17."""
    reader = make_reader("scanner", pty.path)
    rules = blackjack.BlackjackSettings(dealer_hits_soft_17=hits_soft_17)
    sim = ScannerSimulator(pty, seed=3, speed=40, game="blackjack", seats=1, rules=rules)
    top = [Card.parse(c) for c in ("TH", "AS", "9D", "6C", "2D")]    # seat, dealer up, seat (19 stands), dealer
    sim._cards = shoe(2, random.Random(1))[:60] + top[::-1]           # drawn from the end
    sims.append(sim.start())
    wait_until(lambda: len(sim.deals) >= 2)
    assert sim.deals[0] == dealt
    wait_until(lambda: len(sink.events_of(reader.name, CardRead)) >= len(dealt))
    assert [str(e.card) for e in sink.events_of(reader.name, CardRead)][:len(dealt)] == dealt


def test_the_scanner_command_line_deals_by_the_floors_configured_blackjack(tmp_path, sink, make_reader):
    config = tmp_path / "floor.toml"
    config.write_text("[house]\nblackjack_decks = 2\n\n[rules.blackjack]\ndealer_hits_soft_17 = true\n")
    link = tmp_path / "usb-scanner-if00"
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLOOR_")}
    proc = subprocess.Popen([sys.executable, "-m", "devices.simulate", "scanner", "--link", str(link), "--seed", "1",
                             "--speed", "50", "--config", str(config)], cwd=os.getcwd(), env=env,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert "(blackjack, 2 decks, dealer hits soft 17)" in proc.stdout.readline()
        reader = make_reader("scanner", str(link))
        wait_until(lambda: sink.events_of(reader.name, CardRead))
    finally:
        proc.terminate()
        proc.wait(5)
    from devices.simulate.__main__ import house_blackjack
    assert house_blackjack(str(config)) == (blackjack.BlackjackSettings(dealer_hits_soft_17=True), 2)


def test_simulator_command_line_on_a_symlinked_pty(tmp_path, sink, make_reader):
    link = tmp_path / "usb-Angel_Eye-if00"
    proc = subprocess.Popen([sys.executable, "-m", "devices.simulate", "shoe", "--link", str(link),
                             "--seed", "1", "--speed", "50"], cwd=os.getcwd(),
                            stdout=subprocess.PIPE, text=True)
    try:
        assert "shoe simulator on" in proc.stdout.readline()
        reader = make_reader("shoe", str(link))
        wait_until(lambda: sink.events_of(reader.name, CardDealt))
    finally:
        proc.terminate()
        proc.wait(5)
    assert not link.exists()  # the simulator took its link with it


def test_paced_shoe_waits_for_the_game_confirmation_and_deals_a_coup_per_request(pty, sink, make_reader, sims):
    from devices.shoe import CardDrawn, encode_command
    reader = make_reader("shoe", pty.path)
    sim = ShoeSimulator(pty, seed=5, speed=50, paced=True)
    sims.append(sim.start())
    wait_until(lambda: sim.waiting)                   # the shoe waits for the dealer
    assert reader.send(encode_command("EC", 2))                   # a command that confirms nothing
    wait_until(lambda: sim.commands == ["EC02"])      # heard while waiting
    assert sink.events_of(reader.name) == [] and sim.shoes == 0   # nothing until the game is confirmed
    assert reader.send(encode_command("GP", 0))                   # the host confirms the game
    wait_until(lambda: sim.shoes == 1 and sim.waiting)
    assert sim.commands == ["EC02", "GP00"]
    # the burn as the reader decoded it: the first card says how many follow (tens and faces: ten)
    wait_until(lambda: (drawn := sink.events_of(reader.name, CardDrawn))
               and len(drawn) == 1 + (baccarat.card_value(drawn[0].card) or 10))
    assert sink.events_of(reader.name, CoupStart) == []   # and no coup yet
    for n in (1, 2):
        sim.deal_coup()
        wait_until(lambda n=n: len(sink.events_of(reader.name, ShoeResult)) == n and sim.waiting)
        assert len(sim.coups) == n
    assert coups_from(sink.events_of(reader.name)) == [{k: c[k] for k in ("player", "banker", "result")}
                                                       for c in sim.coups]


def test_a_paced_shoe_asked_twice_for_a_coup_deals_one_and_then_says_it_is_idle(pty, sink, make_reader, sims):
    """A dealer who asks for the coup again (the demo's dealer looking at a round still open) gets one
    coup: a second one would come with no round to take its cards."""
    reader = make_reader("shoe", pty.path)
    sim = ShoeSimulator(pty, seed=5, speed=50, paced=True)
    sim.confirm()
    sim.deal_coup()
    sim.deal_coup()               # asked twice before the shoe has started
    assert not sim.idle
    sims.append(sim.start())
    wait_until(lambda: sim.idle)   # everything asked for is out: the shoe waits for the dealer
    assert len(sim.coups) == 1 and sim.coups_done == 1
    wait_until(lambda: len(sink.events_of(reader.name, ShoeResult)) == 1)
    sim.deal_coup()
    wait_until(lambda: sim.coups_done == 2 and sim.idle)
    assert len(sim.coups) == 2


@pytest.mark.parametrize("game", ["blackjack", "holdem"])
def test_scanner_on_demand_reads_what_it_is_asked_for(pty, sink, make_reader, sims, game):
    reader = make_reader("scanner", pty.path)
    sim = ScannerSimulator(pty, seed=7, speed=40, game=game, on_demand=True)
    sims.append(sim.start())
    sim.new_hand()
    asked = sim.deal("AS", "TD", count=3)
    assert asked == 5 and sim.wait_sent(asked)
    wait_until(lambda: len(sink.events_of(reader.name, CardRead)) >= 5)
    # the line is in order: had the scanner read anything by itself, it would come first
    read = [str(e.card) for e in sink.events_of(reader.name, CardRead)]
    assert read[:2] == ["AS", "TD"] and read == sim.deals[-1] and sim.sent == 5 and sim.idle
    if game == "holdem":   # a new hand is a fresh single deck: 52 distinct cards
        sim.new_hand()
        assert sim.wait_sent(sim.deal(count=52), timeout=60)
        assert len(set(sim.deals[-1])) == 52
