from devices.events import FrameError
from devices.wheel import (
    CommandReply,
    SelfTest,
    WheelDecoder,
    WheelStatus,
    WinningNumber,
    encode_command,
    encode_number,
    encode_status,
)


def feed_bytewise(data: bytes) -> list:
    d = WheelDecoder()
    return [e for b in data for e in d.feed(bytes([b]))]


def test_status_and_number_lines():
    d = WheelDecoder()
    events = d.feed(b"*X;4;011;23;0;165;1\r\n25\r\n7x\r\n 7\r\n 0\r\n*X;5;011;25;0;165;1\r\n")
    assert events[0] == WheelStatus(4, 11, 23, 0, 16.5, 1)
    assert events[1] == WinningNumber(25)
    assert isinstance(events[2], FrameError)
    assert events[3:5] == [WinningNumber(7), WinningNumber(0)]
    assert events[5] == WheelStatus(5, 11, 25, 0, 16.5, 1)
    assert d.frames == 5 and d.errors == 1


def test_status_before_first_spin_has_no_winning_number():
    assert WheelDecoder().feed(b"*X;1;001;  ;0;0;0\r\n") == [WheelStatus(1, 1, None, 0, 0.0, 0)]


def test_flags_are_hex():
    [st] = WheelDecoder().feed(b"*X;3;256; 7;C;300;0\r\n")
    assert st.flags == 12 and st.spin == 256


def test_numbers_outside_the_wheel_are_frame_errors():
    events = WheelDecoder().feed(b"37\r\n99\r\n00\r\n*X;5;011;40;0;165;1\r\n")
    assert all(isinstance(e, FrameError) for e in events) and len(events) == 4
    assert events[0].reason == "winning number outside 0-36"


def test_replies():
    events = WheelDecoder().feed(b"*P OK\r\n*F 0\r\n*F 11\r\n*F BUSY\r\n*V SS2 2.10\r\n")
    assert events == [CommandReply("P", "OK"), SelfTest(0), SelfTest(11), SelfTest("BUSY"),
                      CommandReply("V", "SS2 2.10")]


def test_noise_overlong_and_garbage():
    long_line = b"*X;" + b"9" * 200 + b"\r\n"
    data = b"\xff\xfe\r\n" + long_line + b"\x00\x81*X;2;003; 4;0;0;1\r\n" + b"hello\r\n\r\n" + b" 9\r\n"
    events = WheelDecoder().feed(data)
    kinds = [type(e).__name__ for e in events]
    assert kinds == ["FrameError", "FrameError", "FrameError", "FrameError", "WheelStatus", "FrameError",
                     "WinningNumber"]
    assert events[0].reason == "noise on the line"
    assert events[1].reason == "no line end within 48 bytes" and len(events[1].raw) <= 64
    assert events[4] == WheelStatus(2, 3, 4, 0, 0.0, 1)
    assert events[-1] == WinningNumber(9)


def test_slicing_does_not_matter():
    data = (encode_status(4, 11, 23, 0, 16.5, 1) + b"\xfe\xff\r\n" + encode_number(25)
            + encode_status(5, 11, 25) + b"x" * 100 + b"\r\n" + b"*F 2\r\n" + b"9\n\r7\r\n")
    assert feed_bytewise(data) == WheelDecoder().feed(data)


def test_only_cr_lf_ends_a_line():
    d = WheelDecoder()
    assert d.feed(b"12\n") == [FrameError("line ended by LF alone", b"12\n")]
    assert d.feed(b"*X;5;011;12;0;165;1\n") == [FrameError("line ended by LF alone", b"*X;5;011;12;0;165;1\n")]
    # a lone CR is no line end either: the bytes before it are refused, what follows is a new line
    assert d.feed(b" 9\r 7\r\n") == [FrameError("CR without LF", b" 9\r"), WinningNumber(7)]
    assert d.frames == 1 and d.errors == 3


def test_noise_without_a_line_end_does_not_swallow_the_next_line():
    noise = bytes(range(0x80, 0x80 + 60))   # longer than any line, and no line end in it
    events = WheelDecoder().feed(noise + encode_status(4, 11, None) + encode_number(9))
    assert events == [FrameError("noise on the line", noise), WheelStatus(4, 11, None, 0, 0.0, 0),
                      WinningNumber(9)]
    # printable garbage past the longest line: only the overflow is refused, the packet survives
    events = WheelDecoder().feed(b"x" * 100 + encode_status(4, 11, None))
    assert [type(e).__name__ for e in events] == ["FrameError", "FrameError", "WheelStatus"]
    assert events[-1] == WheelStatus(4, 11, None, 0, 0.0, 0)


def test_encoders_round_trip():
    assert encode_command("R") == b"*R\r\n" and encode_command("*P 1") == b"*P 1\r\n"
    assert encode_status(1, 1, None) == b"*X;1;001;  ;0;0;0\r\n"
    for n in range(37):
        assert WheelDecoder().feed(encode_number(n)) == [WinningNumber(n)]
