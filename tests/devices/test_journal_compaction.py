"""The journal grows past its size while the floor is behind: the compaction keeps every record the
floor has not handled (and the few before them), never only the last few."""
from __future__ import annotations

from devices import journal
from devices.scanner import CardRead
from devices.scanner import encode_card as scan_card
from devices.sink import RecordingSink
from tests.devices.helpers import wait_until

CARDS = ["AS", "2H", "3D", "4C", "5S", "6H", "7D", "8C", "9S", "TH", "JD", "QC"]


class MarkedSink(RecordingSink):
    """A floor that has handled the events up to the chunk at ``mark`` (None: nothing yet)."""

    mark = None

    def handled_until(self, device):
        return self.mark


def _read_cards(pty, sink, cards):
    for i, card in enumerate(cards, start=len(sink.events_of("scanner-1", CardRead)) + 1):
        pty.write(scan_card(card))   # one chunk a card: each read before the next is written
        wait_until(lambda: len(sink.events_of("scanner-1", CardRead)) >= i, what=f"card {card} read")


def test_a_full_journal_keeps_what_the_floor_has_not_handled(pty, make_reader, tmp_path, monkeypatch):
    monkeypatch.setattr(journal, "MAX_BYTES", 60)   # compacted every few chunks
    monkeypatch.setattr(journal, "KEEP", 2)
    sink = MarkedSink()
    make_reader("scanner", pty.path, sink_=sink, reader_kw={"journal_dir": str(tmp_path / "j")})
    path = tmp_path / "j" / "scanner-1.journal"
    _read_cards(pty, sink, CARDS[:6])
    # nothing handled yet: every card is still in the journal, however often it was compacted
    assert b"".join(d for _, d in journal.read(path)) == b"".join(scan_card(c) for c in CARDS[:6])

    # the floor catches up to the fourth card: the records from it on stay, and the two before it
    sink.mark = next(at for at, d in journal.read(path) if d == scan_card(CARDS[3]))
    _read_cards(pty, sink, CARDS[6:])
    kept = [d for _, d in journal.read(path)]
    assert b"".join(kept) == b"".join(scan_card(c) for c in CARDS[1:])
