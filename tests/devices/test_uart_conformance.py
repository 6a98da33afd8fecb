"""The line model (devices/uart.py) and the conformance judge (devices/conformance.py), without ports:
bytes in, a verdict out."""
import pytest

from devices import wheel as w
from devices.conformance import Conformance, category
from devices.config import DeviceConfig
from devices.events import FrameError
from devices.scanner import encode_card as scan
from devices.shoe import SeqReused, encode_card, encode_result, encode_simple
from devices.uart import Line, garble, parse_line


def test_equal_settings_read_what_was_sent():
    data = bytes(range(256))
    assert garble(data, Line(9600), Line(9600)) == data
    # a parity bit where the host expects the stop bit: the data bytes still come through
    assert garble(b"*X;2;011;  ;0;0;0\r\n", Line(9600, 8, "E"), Line(9600)) == b"*X;2;011;  ;0;0;0\r\n"


def test_a_host_twice_as_fast_reads_the_start_bit_as_data():
    # 0xFF at 9600 read at 19200: the start bit lasts two of the host's bits, so its bit 0 reads low
    assert garble(b"\xff", Line(9600), Line(19200)) == b"\xfe"


def test_seven_bits_and_even_parity_read_as_eight_bits_set_bit_7_by_parity():
    # 'S' 0x53 has four ones (parity bit 0); 'C' 0x43 has three (parity bit 1, read as bit 7)
    assert garble(b"SC", Line(9600, 7, "E"), Line(9600)) == b"\x53\xc3"


def test_the_same_garbage_every_time():
    line = w.encode_status(3, 11, None, 0, 21.8, 0)
    once = garble(line, Line(19200), Line(9600))
    assert once != line and once == garble(line, Line(19200), Line(9600))


def test_line_settings_parse():
    assert parse_line("19200") == Line(19200) and str(parse_line("9600 7e1")) == "9600 7E1"
    with pytest.raises(ValueError):
        parse_line("fast")


def _judge(kind, writes, sent=None, received=None, **cfg):
    config = DeviceConfig(name="d", table="1", kind=kind, port="x", **cfg)
    judge = Conformance(config)
    received = received or Line(config.baudrate)
    for i, data in enumerate(writes):
        judge.feed(i * 0.5, garble(data, sent or received, received))
    return judge.report()


def _spin(spin, number):
    lines = [w.encode_status(s, spin, None, 0, 21.8 if s > 2 else 0, 0) for s in (1, 2, 2, 3, 3, 4, 4)]
    return lines + [w.encode_number(number), w.encode_status(5, spin, number, 0, 21.8, 0)]


def test_a_whole_spin_on_a_regular_heartbeat_conforms():
    report = _judge("wheel", _spin(11, 35) + _spin(12, 7))
    assert report["conforming"], report["problems"]
    assert report["whole"]["seen"] == 2 and report["whole"]["first"] == {"spin": 11, "number": 35}
    assert report["heartbeat"]["regular"] and report["frames"]["WinningNumber"] == 2


@pytest.mark.parametrize("speed", [4800, 19200, 38400, 57600, 115200])
def test_a_wheel_at_another_speed_is_named(speed):
    writes = [line for spin in range(1, 30) for line in _spin(spin, spin % 37)]
    report = _judge("wheel", writes, sent=Line(speed), received=Line(9600))
    assert not report["conforming"]
    fit = report["fit"]   # far from the host's speed, the framings may read alike: 8N1 first then
    assert (fit["fits_configured"], fit["baudrate"], fit["framing"]) == (False, speed, "8N1")
    assert f"{speed} 8N1 fits" in " ".join(report["problems"])


def test_a_scanner_on_seven_bits_even_parity_is_named():
    cards = [scan(c) for c in ["AS", "10H", "KD", "2C", "7S", "QH", "3D", "9C"] * 8]
    report = _judge("scanner", cards, sent=Line(9600, 7, "E"), received=Line(9600))
    assert report["fit"]["baudrate"] == 9600 and report["fit"]["framing"] == "7E1", report["fit"]


def test_a_bad_bcc_is_a_checksum_refusal_and_a_lost_frame_a_gap():
    coup = [encode_simple(0, "S"), encode_card(1, "player", 1, "9H"), encode_card(2, "banker", 1, "2C"),
            encode_card(3, "player", 2, "TS", corrupt_bcc=True), encode_card(3, "player", 2, "TS"),
            encode_card(4, "banker", 2, "3D"), encode_result(6, "player")]   # SEQ 5 never came
    report = _judge("shoe", coup)
    assert report["refused"]["checksum"] == 1 and report["gaps"] == ["SEQ 4 then 6"]
    assert report["whole"]["seen"] == 1 and not report["conforming"]
    assert report["replies"] == {"ACK": 6, "NAK 02": 1}


def test_a_result_the_host_would_not_reach_holds():
    coup = [encode_simple(0, "S"), encode_card(1, "player", 1, "9H"), encode_card(2, "banker", 1, "2C"),
            encode_card(3, "player", 2, "TS"), encode_card(4, "banker", 2, "3D"), encode_result(5, "banker")]
    report = _judge("shoe", coup)
    assert report["whole"]["seen"] == 0 and any("the shoe says banker, the host player" in p for p in report["problems"])


def test_refusals_fall_into_their_categories():
    assert category(FrameError("bad BCC", b"")) == "checksum"
    assert category(SeqReused("SEQ '3' repeated with new content: not a new frame", b"")) == "sequence"
    assert category(FrameError("bad card code", b"")) == "impossible card"
    assert category(FrameError("noise on the line", b"")) == "noise"
    assert category(FrameError("CR without LF", b"")) == "framing"


def test_the_tail_of_a_frame_sent_before_listening_is_left_out():
    report = _judge("wheel", [b";0;218;0\r\n"] + _spin(11, 35))
    assert report["conforming"] and report["lead_in_bytes"] > 0
