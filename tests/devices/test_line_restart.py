"""The device process going away and coming back, on real ptys: what the devices sent meanwhile is
read when the port opens again, never flushed."""
from __future__ import annotations

from devices.scanner import CardRead
from devices.scanner import encode_card as scan_card
from devices.shoe import CardDealt, CoupStart, encode_card, encode_simple
from devices.sink import RecordingSink
from tests.devices.helpers import wait_until


def _cards(sink, name):
    return [str(e.card) for e in sink.events_of(name, (CardRead, CardDealt))]


def test_cards_sent_while_the_reader_was_away_are_read_when_it_comes_back(pty, sink, make_reader):
    first = make_reader("scanner", pty.path)
    for card in ("AS", "TH", "KD", "9C"):
        pty.write(scan_card(card))
    wait_until(lambda: _cards(sink, "scanner-1") == ["AS", "TH", "KD", "9C"])
    first.stop()   # the device process killed mid-hand
    for card in ("2C", "7H"):
        pty.write(scan_card(card))   # the dealer goes on dealing
    again = RecordingSink()
    make_reader("scanner", pty.path, sink_=again)   # restarted: it opens the port afresh
    wait_until(lambda: _cards(again, "scanner-1") == ["2C", "7H"], what="the cards dealt meanwhile")


def test_a_shoes_frames_sent_during_a_restart_are_read_and_acknowledged(pty, sink, make_reader):
    first = make_reader("shoe", pty.path)
    pty.write(encode_simple(0, "S") + encode_card(1, "player", 1, "3H"))
    wait_until(lambda: _cards(sink, "shoe-1") == ["3H"])
    first.stop()
    pty.write(encode_card(2, "banker", 1, "6D") + encode_card(3, "player", 2, "9D"))
    again = RecordingSink()
    make_reader("shoe", pty.path, sink_=again)
    wait_until(lambda: _cards(again, "shoe-1") == ["6D", "9D"], what="the frames sent meanwhile")
    assert not again.events_of("shoe-1", CoupStart)
