"""Line defects met on the floor, each from the bytes that showed it: what the decoders take, what
they refuse and what they make sure the floor hears of."""
from __future__ import annotations

import pytest

from devices.config import load
from devices.events import FrameError
from devices.scanner import CardInNoise, CardRead, ScannerDecoder
from devices.shoe import CardDealt, CardDrawn, Reply, SeqReused, ShoeDecoder, encode_card, encode_drawn, encode_result, encode_simple
from devices.wheel import WheelDecoder, WheelStatus, WinningNumber, encode_status
from floor import rounds
from floor.models import Alert, Round, RoundCard
from tests.floor.rounds.helpers import DEALER, HOUSE, at, event, tid


def _numbers(events):
    return [e.number for e in events if isinstance(e, WinningNumber)]


@pytest.mark.parametrize("line", [b"6\r\n", b"06\r\n", b"\xe26\r\n", b" 06\r\n", b"6 \r\n", b"00\r\n"])
def test_the_wheel_takes_no_winning_number_but_the_space_padded_two_characters(line):
    events = WheelDecoder().feed(line)
    assert _numbers(events) == [] and events and all(isinstance(e, FrameError) for e in events)


def test_the_wheels_winning_numbers_as_the_protocol_writes_them():
    assert _numbers(WheelDecoder().feed(b" 6\r\n 0\r\n36\r\n10\r\n")) == [6, 0, 36, 10]
    # a status line's win field is the same two characters
    assert WheelDecoder().feed(b"*X;5;011;6;0;218;0\r\n")[0].reason == "unknown packet"


def test_noise_on_the_wheel_line_never_makes_a_number():
    noise = bytes([0x36, 0xE2, 0x36, 0x0D, 0x0A, 0x30, 0x36, 0x0D, 0x0A, 0x36, 0x0D, 0x0A])
    events = WheelDecoder().feed(noise + encode_status(5, 11, 25))
    assert _numbers(events) == [] and events[-1] == WheelStatus(5, 11, 25, 0, 0.0, 0)


def test_the_wheels_flags_are_named_by_the_decoder():
    events = WheelDecoder().feed(b"*X;3;044;12;F;218;0\r\n*X;4;044;12;1;218;0\r\n*X;3;044;12;2;218;0\r\n")
    assert [sorted(e.flag_names) for e in events] == [["failed_launch", "fault", "misspin", "no_ball"],
                                                     ["no_ball"], ["misspin"]]
    assert (events[1].no_ball, events[1].misspin, events[1].fault, events[1].failed_launch) == (True, False, False, False)


@pytest.mark.parametrize("noise", [45, 52, 60])
def test_a_card_run_into_by_line_noise_is_reported_not_lost_in_silence(noise):
    junk = bytes(0x21 + (i * 7) % 90 for i in range(noise))   # printable noise, no line end
    junk = junk.replace(b"S", b"x").replace(b"H", b"x").replace(b"D", b"x").replace(b"C", b"x")
    events = ScannerDecoder().feed(junk + b"SA\r\nH7\r\n", now=0)
    lost = [e for e in events if isinstance(e, CardInNoise)]
    assert [e.reason for e in lost] == ["card AS after line noise: not read"]
    assert [str(e.card) for e in events if isinstance(e, CardRead)] == ["7H"]   # the next card is read


def test_a_card_after_noise_with_a_prefix_is_reported_too():
    events = ScannerDecoder(prefix=b"]C").feed(b"zz%]CH10\r\n", now=0)
    assert [e.reason for e in events] == ["card TH after line noise: not read"]


def test_two_shoes_on_one_table_are_refused():
    entries = [{"name": "shoe-a", "table": "10", "kind": "shoe", "port": "/dev/ttyUSB0"},
               {"name": "shoe-b", "table": "10", "kind": "shoe", "port": "/dev/ttyUSB1"}]
    with pytest.raises(ValueError, match="table 10 has two shoes"):
        load(entries)
    with pytest.raises(ValueError, match="table 12 has two wheels"):
        load([{"name": "w1", "table": "12", "kind": "wheel", "port": "a"}, {"name": "w2", "table": "12", "kind": "wheel", "port": "b"}])
    # a shoe on each of two tables, and a scanner beside a shoe, are fine
    assert len(load(entries[:1] + [{**entries[1], "table": "11"}, {"name": "sc", "table": "10", "kind": "scanner", "port": "c"}])) == 3


def test_a_new_shoe_numbers_its_frames_afresh():
    d = ShoeDecoder()
    old = [encode_simple(0, "S"), encode_card(1, "player", 1, "3H"), encode_card(2, "banker", 1, "6D"),
           encode_card(3, "player", 2, "9D"), encode_result(4, "banker")]
    for frame in old:
        d.feed(frame)
    # the dealer confirmed a new shoe: standby, then the burn, from SEQ 0 again
    fresh = encode_simple(0, "P") * 3 + encode_drawn(1, "8S") * 3 + encode_drawn(2, "2D") + encode_card(3, "burn", 1, "5C")
    events = [e for e in d.feed(fresh) if not isinstance(e, Reply)]
    assert [type(e).__name__ for e in events] == ["Standby", "CardDrawn", "CardDrawn", "CardDealt"]
    assert not any(isinstance(e, SeqReused) for e in events)
    # and a reused SEQ within the new shoe is still caught
    assert isinstance([e for e in d.feed(encode_drawn(2, "KS")) if not isinstance(e, Reply)][0], SeqReused)


def test_a_new_shoe_is_not_kept_locked_by_the_last_one(session):
    table = tid(session, 10)
    rounds.new_shoe(session, DEALER, table, at(0), house=HOUSE)
    session.commit()
    event(session, rounds.shoe_lock, table, True, at(1), device="shoe-10")   # the old shoe, locked
    rounds.new_shoe(session, DEALER, table, at(2), house=HOUSE)
    session.commit()
    r = rounds.open_betting(session, DEALER, table, at(3), house=HOUSE)
    session.commit()
    event(session, rounds.coup_start, table, at(5))
    event(session, rounds.card, table, "3H", "shoe", "player", at(6), index=1, device="shoe-10", house=HOUSE)
    session.expire_all()
    assert session.get(Round, r.id).status == "dealing"
    assert [c.card for c in session.query(RoundCard).filter_by(round_id=r.id, accepted=True)] == ["3H"]
    assert session.query(Alert).filter(Alert.table_id == table).count() == 0
    # the new shoe saying it is locked still refuses its cards
    event(session, rounds.shoe_lock, table, True, at(7), device="shoe-10")
    event(session, rounds.card, table, "6D", "shoe", "banker", at(8), index=1, device="shoe-10", house=HOUSE)
    session.expire_all()
    assert session.get(Round, r.id).status == "held"


def test_a_card_lost_in_scanner_noise_reaches_the_pit_as_an_alert(session):
    from datetime import datetime, timezone

    from devices.dispatch import RoundsDispatch
    table = tid(session, 14)
    [lost] = [e for e in ScannerDecoder().feed(b"#%&x!" * 10 + b"SA\r\n", now=0) if isinstance(e, CardInNoise)]
    dispatch = RoundsDispatch(lambda: session, HOUSE)
    dispatch.event(session, table, "scanner-14", "scanner", lost, datetime.now(timezone.utc))
    session.commit()
    [alert] = session.query(Alert).filter_by(table_id=table, kind="device_frame_refused").all()
    assert "card AS after line noise: not read" in alert.message


def test_the_demo_dealers_use_only_public_functions_of_floor_dealers():
    import ast
    from pathlib import Path

    import devices.demo
    tree = ast.parse(Path(devices.demo.__file__).read_text())
    used = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
            and n.value.id == "dealers"}
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module == "floor.dealers"
                for a in n.names}
    assert used and not [name for name in used | imported if name.startswith("_")]
