"""The winning-number-only wheel: ``N:<number>:<CW|CCW>`` CR LF, one line per spin, nothing else."""
from __future__ import annotations

import threading

import pytest

from devices.events import FrameError, Refused, Silence
from devices.replay import replay
from devices.simulate.wheel_number import NumberWheelSimulator
from devices.wheel import WinningNumber
from devices.wheel_number import NumberInNoise, NumberWheelDecoder, encode_number
from tests.devices.helpers import wait_until


def numbers(events) -> list[tuple[int, int]]:
    return [(e.number, e.direction) for e in events if isinstance(e, WinningNumber)]


def errors(events) -> list[str]:
    return [e.reason for e in events if isinstance(e, FrameError)]


def test_a_line_is_the_number_and_the_rotor_direction():
    d = NumberWheelDecoder()
    events = d.feed(b"N:17:CW\r\nN:0:CCW\r\nN:36:CW\r\n", 100.0)
    assert events == [WinningNumber(17, 0, alone=True), WinningNumber(0, 1, alone=True),
                      WinningNumber(36, 0, alone=True)]
    assert encode_number(17, 0) == b"N:17:CW\r\n" and encode_number(0, 1) == b"N:0:CCW\r\n"
    assert (d.frames, d.errors, d.duplicates) == (3, 0, 0)


@pytest.mark.parametrize("line, reason", [
    (b"N:07:CW", "number not written plainly (leading zero)"),
    (b"N:00:CW", "number not written plainly (leading zero)"),
    (b"N:37:CW", "winning number outside 0-36"),
    (b"N:99:CCW", "winning number outside 0-36"),
    (b"N:17:cw", "not a number line"),
    (b"N:17:ACW", "not a number line"),
    (b"N:17", "not a number line"),
    (b"N::CW", "not a number line"),
    (b"17", "not a number line"),           # the SS2 wheel's bare number is not this wheel's line
    (b"*X;5;011;35", "not a number line"),
    (b"N:1 7:CW", "not a number line"),
    (b"N:17:CW ", "not a number line"),
])
def test_a_garbled_line_is_refused_and_never_a_number(line, reason):
    d = NumberWheelDecoder()
    events = d.feed(line + b"\r\nN:5:CW\r\n", 1.0)
    assert errors(events) == [reason]
    assert numbers(events) == [(5, 0)]   # the next good line is still read
    assert (d.frames, d.errors) == (1, 1)


def test_noise_and_line_ends_the_framer_refuses():
    d = NumberWheelDecoder()
    events = d.feed(b"\xfe\x01N:3:CW\r\nN:4:CW\nN:5:CW\rN:6:CCW\r\n" + b"x" * 40 + b"\r\nN:8:CW\r\n", 1.0)
    # noise before a line breaks only what came before it; LF alone and CR alone end nothing; a run
    # with no line end is refused
    assert numbers(events) == [(3, 0), (6, 1), (8, 0)]   # the byte after a lone CR starts the next line
    assert errors(events) == ["noise on the line", "line ended by LF alone", "CR without LF",
                              "no line end within 16 bytes", "not a number line"]


def test_a_number_line_run_into_by_printable_noise_is_refused_and_the_floor_hears_of_it():
    d = NumberWheelDecoder()
    [refused] = d.feed(b"%$#N:17:CW\r\n", 1.0)
    assert isinstance(refused, NumberInNoise) and isinstance(refused, Refused)
    assert refused.raw == b"%$#N:17:CW" and "run into by noise" in refused.reason
    assert d.frames == 0


def test_any_slicing_gives_the_same_results():
    stream = (b"N:17:CW\r\n\xffN:2:CCW\r\nN:17:CW\r\nN:31:CW\r\n")
    whole = NumberWheelDecoder().feed(stream, 1.0)
    d, one_by_one = NumberWheelDecoder(), []
    for i in range(len(stream)):
        one_by_one += d.feed(stream[i:i + 1], 1.0)
    assert one_by_one == whole
    assert numbers(whole) == [(17, 0), (2, 1), (17, 0), (31, 0)]


def test_a_partial_line_across_a_reconnect_is_dropped():
    d = NumberWheelDecoder()
    assert d.feed(b"N:1", 1.0) == []
    d.reconnected()
    events = d.feed(b"7:CW\r\nN:9:CW\r\n", 2.0)
    assert numbers(events) == [(9, 0)] and errors(events) == ["not a number line"]


def test_copies_of_a_line_within_the_window_are_one_result():
    d = NumberWheelDecoder(repeat_window_s=5.0)
    first = d.feed(b"N:17:CW\r\nN:17:CW\r\n", 100.0) + d.feed(b"N:17:CW\r\n", 101.0)
    assert numbers(first) == [(17, 0)] and d.duplicates == 2
    # the window slides (a wheel repeating itself is one result); past it the same number is a new spin
    assert d.feed(b"N:17:CW\r\n", 105.5) == []
    assert numbers(d.feed(b"N:17:CW\r\n", 140.0)) == [(17, 0)]
    # another line (number or direction) is another result at once
    assert numbers(d.feed(b"N:17:CCW\r\nN:4:CCW\r\n", 140.1)) == [(17, 1), (4, 1)]
    assert (d.frames, d.duplicates) == (4, 3)


def test_the_repeat_window_counts_by_arrival_time_so_a_replay_gives_the_same_results():
    from datetime import datetime, timedelta, timezone

    from devices.config import DeviceConfig
    t0 = datetime(2026, 1, 1, tzinfo=timezone.utc)
    cfg = DeviceConfig(name="wheel-12", table="12", kind="wheel", port="loop://", protocol="wheel-number-v1")
    stream = [(t0, b"N:5:CW\r\n"), (t0 + timedelta(seconds=1), b"N:5:CW\r\n"),
              (t0 + timedelta(seconds=40), b"N:5:CCW\r\nN:5:C"), (t0 + timedelta(seconds=41), b"CW\r\n")]
    assert numbers(replay(cfg, stream)) == [(5, 0), (5, 1)]


def test_on_a_pty_through_the_real_reader_with_the_simulator_and_no_heartbeat_to_miss(pty, sink, make_reader):
    """The reader reads the simulated wheel's results; between them the line is silent, and silence is
    never a lost wheel: the reader's clock is moved a minute on between results (the SS2 wheel is lost
    after 2 s without a status line mid-spin) and nothing is raised."""
    now = [1000.0]
    lock = threading.Lock()

    def clock() -> float:
        with lock:
            return now[0]
    reader = make_reader("wheel", pty.path, protocol="wheel-number-v1", reader_kw={"clock": clock})
    sim = NumberWheelSimulator(pty, seed=3, paced=True, copies=2).start()
    try:
        for spin in range(1, 4):
            wait_until(lambda: sim.waiting, 60, "the ball in the rim")
            sim.land()
            wait_until(lambda: len(sink.events_of(reader.name, WinningNumber)) == spin, 60, f"result {spin}")
            with lock:
                now[0] += 60.0   # a minute of silence on the line's clock
        h = reader.health()      # before the simulator's end closes the line
    finally:
        sim.stop()
    got = sink.events_of(reader.name, WinningNumber)
    assert [(e.number, e.direction) for e in got] == sim.results
    assert [e.direction for e in got] == [0, 1, 0]   # the rotor alternates
    assert all(e.alone for e in got)
    assert (h.frames, h.duplicates, h.frame_errors) == (3, 3, 0)   # each line was sent twice: one result
    assert not h.lost and h.connected and h.last_frame_at is not None
    assert not sink.events_of(reader.name, Silence)
    assert not any(x.lost for x in sink.healths(reader.name))


def test_each_number_alone_closes_betting_on_the_line_for_every_spin():
    """The wheel controller's line closes betting at "no more bets" and opens again at "place bets";
    a number-only wheel has no state that opens it again, so each of its numbers is the lock of its
    spin (a bet placed after it is refunded, never paid)."""
    from devices.protocols import line_locks
    from devices.wheel import WheelStatus
    d = NumberWheelDecoder()
    locked = False
    for t in (100.0, 140.0, 180.0):
        locks, locked = line_locks(d.feed(encode_number(int(t) % 37), t), locked)
        assert locks == ["result"]
    # the wheel controller's bare number after its state 4 is not a second lock of the spin
    status = [WheelStatus(2, 1, None, 0, 0.0, 0), WheelStatus(4, 1, None, 0, 0.0, 0), WinningNumber(5)]
    assert line_locks(status, False) == (["no_more_bets"], True)
