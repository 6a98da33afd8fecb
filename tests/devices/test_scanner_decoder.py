from devices.events import FrameError
from devices.scanner import CardRead, ScannerDecoder, encode_card
from floor.games.cards import Card


def cards(events):
    return [str(e.card) for e in events if isinstance(e, CardRead)]


def test_cards_and_tens():
    events = ScannerDecoder().feed(b"SA\r\nH10\r\nDT\r\nC2\r\n", now=0)
    assert cards(events) == ["AS", "TH", "TD", "2C"]


def test_bad_lines_are_frame_errors():
    events = ScannerDecoder().feed(b"XA\r\nS1\r\nS11\r\nsa\r\n\xff\xfe\r\n" + b"S" * 100 + b"\r\nSK\r\n", now=0)
    # the overlong run: its overflow refused, then the 40 bytes kept are no card
    assert [type(e) for e in events] == [FrameError] * 7 + [CardRead]


def test_noise_without_a_line_end_does_not_swallow_the_next_card():
    noise = b"\xfe" * 50 + b"\x00" * 10
    events = ScannerDecoder().feed(b"SA\r\n" + noise + b"H7\r\nDK\n" + b"C2\r\n", now=0)
    assert cards(events) == ["AS", "7H", "2C"]
    assert [e.reason for e in events if isinstance(e, FrameError)] == ["noise on the line", "line ended by LF alone"]


def test_prefix_and_suffix():
    d = ScannerDecoder(prefix=b"\x02", suffix=b";")
    events = d.feed(encode_card("QD", b"\x02", b";") + b"DQ;\r\n", now=0)
    assert cards(events) == ["QD"] and isinstance(events[1], FrameError)


def test_duplicate_window_uses_the_given_time():
    d = ScannerDecoder()
    assert cards(d.feed(b"S9\r\n", now=10.0)) == ["9S"]
    assert cards(d.feed(b"S9\r\n", now=10.2)) == []  # within 300 ms
    assert cards(d.feed(b"S9\r\n", now=10.45)) == []  # still held over the reader (sliding)
    assert cards(d.feed(b"S9\r\n", now=11.0)) == ["9S"]
    assert cards(d.feed(b"H9\r\n", now=11.1)) == ["9H"]  # another card is never a repeat
    assert d.duplicates == 2


def test_injected_clock():
    t = [0.0]
    d = ScannerDecoder(clock=lambda: t[0])
    assert cards(d.feed(b"SA\r\nSA\r\n")) == ["AS"]
    t[0] = 1.0
    assert cards(d.feed(b"SA\r\n")) == ["AS"]


def test_encode_round_trip():
    for code in ("AS", "TD", "2C", "KH"):
        assert ScannerDecoder().feed(encode_card(code), now=0) == [CardRead(Card.parse(code))]


def test_a_player_card_is_read_too():
    from devices.scanner import PlayerCardRead, encode_player_card
    d = ScannerDecoder(prefix=b"\x02")
    events = d.feed(encode_player_card("70000002", b"\x02") + b"\x02SA\r\n\x02P\r\n\x02P7000-2\r\n", now=0)
    assert events[:2] == [PlayerCardRead("70000002"), CardRead(Card.parse("AS"))]
    assert [type(e) for e in events[2:]] == [FrameError, FrameError]     # no number; not letters and digits
    again = ScannerDecoder()
    assert again.feed(encode_player_card("70000002") * 2, now=0) == [PlayerCardRead("70000002")]   # one read
