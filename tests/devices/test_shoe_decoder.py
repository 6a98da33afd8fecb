import pytest

from devices.events import FrameError
from devices.shoe import (
    ACK,
    ENQ,
    ETX,
    CardDealt,
    CardDrawn,
    CardRepeated,
    CoupStart,
    CutCard,
    LockStatus,
    Reply,
    SeqReused,
    ShoeDecoder,
    ShoeError,
    ShoeErrorCleared,
    ShoeResult,
    Standby,
    bcc,
    encode_card,
    encode_command,
    encode_drawn,
    encode_error,
    encode_frame,
    encode_lock,
    encode_nak,
    encode_result,
    encode_simple,
)
from floor.games.cards import Card

ACKED = Reply(bytes([ACK]))


def domain(events):
    return [e for e in events if not isinstance(e, Reply)]


def replies(events):
    return [e.data for e in events if isinstance(e, Reply)]


def test_card_frame_layout_matches_the_spec():
    frame = encode_card("3", "player", 1, "AS")
    b1, b2 = 0x80 | 1 << 4 | 1, 0x80 | 3 << 4 | 1
    body = b"3D" + bytes([b1, b2, ETX])
    assert frame == bytes([ENQ]) + body + f"{bcc(body):02X}".encode()
    assert ShoeDecoder().feed(frame) == [ACKED, CardDealt("player", 1, Card.parse("AS"))]


def test_every_report_type():
    frames = [encode_simple(0, "S"), encode_card(1, "banker", 2, "KH"), encode_card(2, "burn", 1, "TD"),
              encode_drawn(3, "5C"), encode_result(4, "tie", True, False), encode_result(5, "banker", False, True),
              encode_error(6, 2), encode_simple(7, "e"), encode_simple(8, "C"), encode_simple(9, "P"),
              encode_lock(0, True), encode_card(1, "player", 3, "2S", letter="R")]
    events = domain(ShoeDecoder().feed(b"".join(frames)))
    assert events == [CoupStart(), CardDealt("banker", 2, Card.parse("KH")), CardDealt("burn", 1, Card.parse("TD")),
                      CardDrawn(Card.parse("5C")), ShoeResult("tie", True, False), ShoeResult("banker", False, True),
                      ShoeError(2), ShoeErrorCleared(), CutCard(), Standby(), LockStatus(True),
                      CardRepeated("player", 3, Card.parse("2S"))]


def test_repeats_are_acknowledged_but_decoded_once():
    d = ShoeDecoder()
    frame = encode_card(4, "banker", 1, "9D")
    events = d.feed(frame * 3)
    assert replies(events) == [bytes([ACK])] * 3
    assert domain(events) == [CardDealt("banker", 1, Card.parse("9D"))]
    assert d.frames == 1 and d.duplicates == 2
    # the next frame with another SEQ is new, even with the same card (8 decks)
    assert domain(d.feed(encode_card(5, "banker", 1, "9D"))) == [CardDealt("banker", 1, Card.parse("9D"))]


def test_bad_bcc_is_naked_02_and_the_good_copy_is_kept():
    d = ShoeDecoder()
    good = encode_card(1, "player", 1, "QS")
    events = d.feed(encode_card(1, "player", 1, "QS", corrupt_bcc=True) + good + good)
    assert replies(events) == [encode_nak(2), bytes([ACK]), bytes([ACK])]
    assert [type(e) for e in domain(events)] == [FrameError, CardDealt]


def test_bcc_with_start_byte_is_a_device_option():
    frame = encode_card(1, "player", 1, "QS", bcc_includes_start=True)
    assert replies(ShoeDecoder().feed(frame)) == [encode_nak(2)]
    assert domain(ShoeDecoder(bcc_includes_start=True).feed(frame)) == [CardDealt("player", 1, Card.parse("QS"))]


@pytest.mark.parametrize("frame, code", [
    (encode_frame(1, "D", bytes([0x91])), 11),  # one data byte short
    (encode_frame(1, "D", bytes([0x11, 0xB1])), 1),  # data byte without bit 7
    (encode_frame(1, "Z"), 13),  # unknown report type
    (bytes([ENQ]) + b"1D" + bytes([0x91] * 20), 3),  # no ETX within the longest frame
])
def test_naks(frame, code):
    events = ShoeDecoder().feed(frame)
    assert replies(events) == [encode_nak(code)]
    assert isinstance(domain(events)[0], FrameError)


def test_a_cut_short_frame_is_naked_and_the_next_frame_still_decodes():
    cut = encode_card(1, "player", 1, "QS")[:5]
    events = ShoeDecoder().feed(cut + encode_simple(2, "S"))
    assert replies(events) == [encode_nak(3), bytes([ACK])]
    assert domain(events)[1:] == [CoupStart()]


def test_garbage_before_start_byte_is_one_error():
    events = ShoeDecoder().feed(b"\x00\xffnoise\r\n" + encode_simple(1, "S"))
    assert [type(e) for e in events] == [FrameError, Reply, CoupStart]
    assert events[0].reason == "garbage before start byte"


def test_valid_frame_with_impossible_card_is_acked_and_reported():
    frame = encode_frame(1, "D", bytes([0x91, 0x8E]))  # rank 14 does not exist
    events = ShoeDecoder().feed(frame)
    assert events[0] == ACKED and isinstance(events[1], FrameError)


def test_slicing_does_not_matter():
    data = (b"junk" + encode_simple(0, "S") * 3 + encode_card(1, "player", 1, "AS", corrupt_bcc=True)
            + encode_card(1, "player", 1, "AS") * 2 + encode_result(2, "player") + b"\x05\x05")
    whole = ShoeDecoder().feed(data)
    d = ShoeDecoder()
    assert [e for b in data for e in d.feed(bytes([b]))] == whole


def test_host_command_encoding():
    cmd = encode_command("LK", 1)
    assert cmd[:6] == b"\x02OPLK0" and cmd[7] == ETX and len(cmd) == 10


def test_a_recent_seq_is_never_a_new_frame():
    d = ShoeDecoder()
    first = encode_card(1, "player", 1, "3H")
    events = d.feed(first + encode_card(2, "banker", 1, "6D") + first)   # a late copy after another frame
    assert [e for e in events if not isinstance(e, Reply)] == [CardDealt("player", 1, Card.parse("3H")),
                                                              CardDealt("banker", 1, Card.parse("6D"))]
    events = d.feed(encode_card(1, "player", 2, "9D"))   # SEQ '1' again, with new content
    assert events[0] == Reply(bytes([ACK]))
    assert [type(e) for e in events] == [Reply, SeqReused] and isinstance(events[1], FrameError)
    assert events[1].reason == "SEQ '1' repeated with new content: not a new frame"
    assert d.frames == 2 and d.duplicates == 1 and d.errors == 1
    # SEQ cycles: once five other frames came, '1' is new again
    for seq in (3, 4, 5, 6, 7):
        d.feed(encode_simple(seq, "P"))
    assert d.feed(encode_card(1, "player", 2, "9D"))[1] == CardDealt("player", 2, Card.parse("9D"))
