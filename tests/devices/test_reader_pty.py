"""Readers on real ptys: frames in, events out, replies back, whatever the line does."""
import os

import serial

from devices.events import FrameError
from devices.replay import replay
from devices.scanner import CardRead
from devices.scanner import encode_card as scan_card
from devices.shoe import (
    ACK,
    CardDealt,
    CoupStart,
    Reply,
    ShoeResult,
    encode_card,
    encode_nak,
    encode_result,
    encode_simple,
)
from devices.sink import RecordingSink
from devices.wheel import WheelStatus, WinningNumber, encode_number, encode_status
from devices.events import Silence
from floor.games.cards import Card
from floor.rounds.engines.wheel import Lock, Misspin, Open, Result
from tests.devices.helpers import read_from, wait_until, wheel_outcomes


def domain(sink, name):
    return [e for e in sink.events_of(name) if not isinstance(e, (Reply, FrameError))]


def assert_replay_matches(sink, reader):
    assert replay(reader.config, sink.stream(reader.name)) == sink.events_of(reader.name)


# --- wheel ---------------------------------------------------------------------------------

def test_wheel_frames_garbage_split_and_merged(pty, sink, make_reader):
    reader = make_reader("wheel", pty.path)
    pty.write(encode_status(2, 11, None))
    pty.write(b"\x00\xff\xfe garbage\r\n")
    half = encode_status(4, 11, None)
    pty.write(half[:7])
    wait_until(lambda: sink.stream(reader.name) and len(b"".join(b for _, b in sink.stream(reader.name))) >= 7 + 23)
    pty.write(half[7:] + encode_number(25) + encode_status(5, 11, 25) + b"37\r\n")  # merged, and 37 is no number
    wait_until(lambda: len(sink.events_of(reader.name)) >= 7)
    assert domain(sink, reader.name) == [WheelStatus(2, 11, None, 0, 0.0, 0), WheelStatus(4, 11, None, 0, 0.0, 0),
                                         WinningNumber(25), WheelStatus(5, 11, 25, 0, 0.0, 0)]
    errors = sink.events_of(reader.name, FrameError)
    # the noise breaks its line; what follows it on that line is read, and is no packet
    assert [e.reason for e in errors] == ["noise on the line", "not a packet", "winning number outside 0-36"]
    assert wheel_outcomes(sink.timed_events(reader.name)) == [Open(11), Lock(11, True), Result(25, 11)]
    h = reader.health()
    assert h.frames == 4 and h.frame_errors == 3 and h.last_frame_at is not None and h.connected
    assert_replay_matches(sink, reader)


def test_wheel_commands_are_written_and_the_reader_decides_no_game(pty, sink, make_reader):
    reader = make_reader("wheel", pty.path)
    assert reader.send("X")
    assert read_from(pty, 4) == b"*X\r\n"
    pty.write(encode_status(2, 3, None) + encode_status(3, 3, None, flags=2))
    wait_until(lambda: len(sink.events_of(reader.name)) == 2)
    # a misspin is the rounds' to answer (their engine asks for *R): the reader wrote nothing of its own
    # (had it, those bytes would come before the *R below)
    assert reader.health().bytes_out == 4
    assert wheel_outcomes(sink.timed_events(reader.name)) == [Open(3), Misspin(3, True)]
    assert reader.send(Misspin(3, True).command)
    assert read_from(pty, 4) == b"*R\r\n"
    wait_until(lambda: reader.health().bytes_out == 8)


def test_missing_heartbeat_mid_round_raises_lost(pty, sink, make_reader):
    reader = make_reader("wheel", pty.path, heartbeat_s=0.3)
    pty.write(encode_status(1, 1, None))  # idle: silence is fine
    wait_until(lambda: sink.events_of(reader.name))
    pty.write(encode_status(2, 1, None))   # mid-spin: now silence is a lost wheel
    # the reader marks itself lost, then tells the floor (the sink): the test waits for the floor's view
    wait_until(lambda: sink.healths(reader.name) and sink.healths(reader.name)[-1].lost)
    assert reader.health().lost
    [silence] = sink.events_of(reader.name, Silence)
    assert silence.seconds >= 0.3
    pty.write(encode_status(2, 1, None))  # back: the alert clears
    wait_until(lambda: not sink.healths(reader.name)[-1].lost)
    assert not reader.health().lost


def test_wheel_unplug_and_replug_through_the_symlink(pty, sink, make_reader):
    reader = make_reader("wheel", pty.path)
    first = [encode_status(2, 7, None), encode_status(3, 7, None)]
    pty.write(b"".join(first) + b"*X;4;0")  # a half line when the cable goes
    wait_until(lambda: len(sink.events_of(reader.name)) == 2)
    pty.unplug()
    wait_until(lambda: not reader.health().connected)
    assert not os.path.lexists(pty.path)   # unplugged: the by-id link is gone
    pty.replug()
    # the kernel may reuse the number; what matters is that the link points at the new device
    assert os.path.realpath(pty.path) == pty.slave_path
    wait_until(lambda: reader.health().connected and reader.health().reconnects == 1)
    pty.write(encode_status(4, 7, None) + encode_number(9) + encode_status(5, 7, 9))
    wait_until(lambda: len(sink.events_of(reader.name)) >= 5)
    assert domain(sink, reader.name) == [WheelStatus(2, 7, None, 0, 0, 0), WheelStatus(3, 7, None, 0, 0, 0),
                                         WheelStatus(4, 7, None, 0, 0, 0), WinningNumber(9),
                                         WheelStatus(5, 7, 9, 0, 0, 0)]
    assert sink.events_of(reader.name, FrameError) == []  # the half line was dropped at the break
    assert [o for o in wheel_outcomes(sink.timed_events(reader.name)) if isinstance(o, Result)] == [Result(9, 7)]
    h = reader.health()
    assert h.reconnects == 1 and h.io_errors >= 1 and h.last_error
    states = [(x.state, x.connected) for x in sink.healths(reader.name)]
    assert ("disconnected", False) in states and states[-1] == ("connected", True)
    assert_replay_matches(sink, reader)


def test_a_port_held_by_another_process_is_retried(pty, sink, make_reader):
    blocker = serial.Serial(pty.path, exclusive=True)
    try:
        reader = make_reader("wheel", pty.path, wait_connected=False)
        wait_until(lambda: reader.health().io_errors >= 2)
        assert not reader.health().connected
        assert "lock" in reader.health().last_error.lower()
    finally:
        blocker.close()
    wait_until(lambda: reader.health().connected)
    pty.write(encode_number(4))
    wait_until(lambda: sink.events_of(reader.name) == [WinningNumber(4)])


def test_a_vanished_port_is_retried_until_it_appears(tmp_path, sink, make_reader):
    from devices.simulate.base import PtyEnd
    link = str(tmp_path / "not-yet")
    reader = make_reader("scanner", link, wait_connected=False)
    wait_until(lambda: reader.health().io_errors >= 2)
    end = PtyEnd(link)
    try:
        wait_until(lambda: reader.health().connected)
        end.write(scan_card("AS"))
        wait_until(lambda: sink.events_of(reader.name) == [CardRead(Card.parse("AS"))])
    finally:
        end.close()


class FlakySink(RecordingSink):
    """Fails on every other events() call, and once on health()."""

    def __post_init__(self):
        super().__post_init__()
        self.calls = 0
        self.health_failed = False

    def events(self, device, events, arrived_at):
        self.calls += 1
        if self.calls % 2:
            raise RuntimeError("database is down")
        super().events(device, events, arrived_at)

    def health(self, device, snapshot):
        if not self.health_failed and snapshot.sink_errors:
            self.health_failed = True
            raise RuntimeError("socket.io is down too")
        super().health(device, snapshot)


def test_the_reader_survives_a_failing_sink(pty, make_reader):
    flaky = FlakySink()
    reader = make_reader("wheel", pty.path, sink_=flaky)
    for n in range(6):
        pty.write(encode_number(n))
        wait_until(lambda: flaky.calls == n + 1)
    assert reader.alive and reader.health().connected
    assert flaky.events_of(reader.name) == [WinningNumber(1), WinningNumber(3), WinningNumber(5)]
    assert len(flaky.stream(reader.name)) >= 7  # raw bytes all kept, plus the connect marker
    h = wait_until(lambda: [x for x in flaky.healths(reader.name) if x.sink_errors >= 2])[-1]
    assert "database is down" in h.last_error
    assert reader.health().sink_errors >= 4  # three events() failures and one health() failure


# --- shoe ----------------------------------------------------------------------------------

def test_shoe_triplicated_frames_are_one_event_and_each_copy_is_acked(pty, sink, make_reader):
    reader = make_reader("shoe", pty.path)
    pty.write(encode_simple(0, "S") * 3)
    assert read_from(pty, 3) == bytes([ACK]) * 3
    card = encode_card(1, "player", 1, "AS")
    pty.write(card[:4])
    pty.write(card[4:] + card + card[:2])
    pty.write(card[2:] + encode_result(2, "player") * 3)
    assert read_from(pty, 6) == bytes([ACK]) * 6
    wait_until(lambda: len(domain(sink, reader.name)) == 3)
    assert domain(sink, reader.name) == [CoupStart(), CardDealt("player", 1, Card.parse("AS")),
                                         ShoeResult("player", False, False)]
    wait_until(lambda: reader.health().bytes_out == 9)
    h = reader.health()
    assert h.frames == 3 and h.duplicates == 6
    assert_replay_matches(sink, reader)


def test_shoe_bad_bcc_is_answered_nak_02(pty, sink, make_reader):
    reader = make_reader("shoe", pty.path)
    pty.write(b"\xff\x00" + encode_card(3, "banker", 1, "KD", corrupt_bcc=True))
    assert read_from(pty, 3) == encode_nak(2)
    pty.write(encode_card(3, "banker", 1, "KD"))
    assert read_from(pty, 1) == bytes([ACK])
    wait_until(lambda: domain(sink, reader.name) == [CardDealt("banker", 1, Card.parse("KD"))])
    assert [e.reason for e in sink.events_of(reader.name, FrameError)] == ["garbage before start byte", "bad BCC"]
    assert reader.health().frame_errors == 2 and reader.health().last_error == "frame: bad BCC"


def test_shoe_bcc_with_start_byte_per_device(pty, sink, make_reader):
    make_reader("shoe", pty.path, bcc_includes_start=True)
    pty.write(encode_simple(5, "C", bcc_includes_start=True))
    assert read_from(pty, 1) == bytes([ACK])


def test_shoe_unplug_between_copies_loses_and_doubles_nothing(pty, sink, make_reader):
    reader = make_reader("shoe", pty.path)
    frame = encode_card(4, "banker", 2, "7C")
    pty.write(frame)
    assert read_from(pty, 1) == bytes([ACK])
    pty.unplug()
    wait_until(lambda: not reader.health().connected)
    pty.replug()
    wait_until(lambda: reader.health().connected)
    pty.write(frame * 2 + encode_card(5, "player", 3, "7C") * 3)  # the shoe's remaining copies, then more
    assert read_from(pty, 5) == bytes([ACK]) * 5
    wait_until(lambda: len(sink.raws) and reader.health().duplicates == 4)
    wait_until(lambda: len(domain(sink, reader.name)) >= 2)
    assert domain(sink, reader.name) == [CardDealt("banker", 2, Card.parse("7C")),
                                         CardDealt("player", 3, Card.parse("7C"))]
    assert reader.health().reconnects == 1
    assert_replay_matches(sink, reader)


# --- scanner -------------------------------------------------------------------------------

def test_scanner_heartbeat_is_optional(pty, sink, make_reader):
    reader = make_reader("scanner", pty.path, heartbeat_s=0.2)
    wait_until(lambda: reader.health().lost)
    pty.write(scan_card("2C"))
    wait_until(lambda: not reader.health().lost)


def test_scanner_cards_split_noise_and_double_reads(pty, sink, make_reader):
    reader = make_reader("scanner", pty.path, prefix=b"[", suffix=b"]")
    pty.write(scan_card("AS", b"[", b"]") + b"\xfe\xfe\r\n" + scan_card("10H", b"[", b"]")[:3])
    wait_until(lambda: sink.events_of(reader.name, CardRead))
    pty.write(scan_card("10H", b"[", b"]")[3:] + scan_card("10H", b"[", b"]") + b"[H7")
    pty.write(b"]\r\n[XX]\r\n")
    wait_until(lambda: len(sink.events_of(reader.name)) == 5)
    assert [str(e.card) for e in sink.events_of(reader.name, CardRead)] == ["AS", "TH", "7H"]
    assert len(sink.events_of(reader.name, FrameError)) == 2
    assert reader.health().duplicates == 1
    assert_replay_matches(sink, reader)


def test_manager_starts_stops_and_reports_every_device(tmp_path, sink):
    from devices.config import load
    from devices.reader import DeviceManager
    from devices.simulate.base import PtyEnd
    ends = [PtyEnd(str(tmp_path / f"dev{i}")) for i in range(3)]
    try:
        configs = load([{"name": f"d{i}", "table": "BJ1", "kind": k, "port": e.path}
                        for i, (k, e) in enumerate(zip(("wheel", "shoe", "scanner"), ends))]
                       + [{"name": "gone", "table": "BJ2", "kind": "scanner", "port": str(tmp_path / "none")}])
        manager = DeviceManager(configs, sink, backoff_initial=0.02, backoff_max=0.2).start()
        try:
            wait_until(lambda: sum(h.connected for h in manager.health()) == 3)
            assert {h.name: h.connected for h in manager.health()} == {"d0": True, "d1": True, "d2": True,
                                                                        "gone": False}
            assert manager.send("d0", "V")
            assert read_from(ends[0], 4) == b"*V\r\n"
        finally:
            manager.stop()
        assert all(h.state == "stopped" for h in manager.health())
        assert not any(r.alive for r in manager.readers.values())
    finally:
        for e in ends:
            e.close()
