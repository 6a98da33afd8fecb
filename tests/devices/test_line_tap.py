"""The live device page's tap on a real reader and pty: while someone watches, the bytes, the decoded
events, the refusals with their reason, what the host wrote and the health reach the page's room; while
nobody watches, nothing is published; a full buffer drops, it never holds the reader up."""
from __future__ import annotations

import threading

from devices.shoe import ACK, encode_card, encode_command, encode_frame, encode_result
from devices.sink import RecordingSink
from devices.tap import ROOM, LineTap
from tests.devices.helpers import read_from, wait_until


class TapSink(RecordingSink):
    """A sink that hands everything to the tap as the bridge does (the bridge's other work aside)."""

    def __init__(self, tap: LineTap) -> None:
        super().__init__()
        self.tap = tap

    def raw(self, device, data, arrived_at):
        self.tap.chunk(device, data, arrived_at)
        super().raw(device, data, arrived_at)

    def events(self, device, events, arrived_at):
        self.tap.events(device, events, arrived_at)
        super().events(device, events, arrived_at)

    def written(self, device, data, at):
        self.tap.written(device, data, at)

    def health(self, device, snapshot):
        self.tap.health(device, snapshot)
        super().health(device, snapshot)


class Room:
    def __init__(self) -> None:
        self.emits: list[tuple[str, dict, str]] = []
        self.lock = threading.Lock()

    def __call__(self, event, payload, room):
        with self.lock:
            self.emits.append((event, payload, room))

    def items(self, kind=None) -> list[dict]:
        with self.lock:
            return [i for _, p, _ in self.emits for i in p["items"] if kind is None or i["kind"] == kind]


def bad_bcc(frame: bytes) -> bytes:
    return frame[:-2] + (b"00" if frame[-2:] != b"00" else b"11")


def test_a_watched_line_reaches_the_devices_room_bytes_events_refusals_writes_and_health(pty, make_reader):
    room, watching = Room(), threading.Event()
    watching.set()
    tap = LineTap(room, watching.is_set, interval=0.02, watch_every=0.02).start()
    try:
        sink = TapSink(tap)
        wait_until(lambda: tap.watching, 10, "the tap to see a watcher")
        reader = make_reader("shoe", pty.path, sink_=sink)
        wait_until(lambda: room.items("health"), 10, "the reader's health on the page")
        good, garbled = encode_card(1, "player", 1, "AS"), bad_bcc(encode_card(2, "banker", 1, "KH"))
        pty.write(good + garbled)
        read_from(pty, 4)   # ACK, then NAK 02 for the bad BCC
        wait_until(lambda: len(b"".join(bytes.fromhex(s["hex"]) for s in room.items("sent"))) >= 4
                   and room.items("refused"), 10, "the refusal and the replies on the page")
        assert {room_ for _, _, room_ in room.emits} == {ROOM}
        assert "".join(i["hex"] for i in room.items("bytes")) == (good + garbled).hex()
        refused = room.items("refused")
        assert [(r["reason"], bytes.fromhex(r["hex"])) for r in refused] == [("bad BCC", garbled)]
        events = room.items("event")
        assert [(e["type"], e["fields"]["card"]) for e in events] == [("CardDealt", "AS")]
        assert b"".join(bytes.fromhex(s["hex"]) for s in room.items("sent")) == bytes([ACK]) + b"\x15" + b"02"
        # on the page in the order of the line: the frames, then the replies written to them
        kinds = [i["kind"] for i in room.items() if i["kind"] != "health"]
        assert kinds.index("refused") < kinds.index("sent")
        assert room.items("health")[-1]["health"]["name"] == reader.name
        # a command given to the device (the pit's "lock the shoe") shows as written, like the replies
        lock = encode_command("LK", 2)
        assert reader.send(lock)
        read_from(pty, len(lock))
        wait_until(lambda: any(bytes.fromhex(s["hex"]) == lock for s in room.items("sent")), 10, "the command on the page")
    finally:
        tap.stop()


def test_nobody_watching_nothing_is_published_and_a_late_page_first_gets_each_devices_health(pty, make_reader):
    room, watching = Room(), threading.Event()
    tap = LineTap(room, watching.is_set, interval=0.02, watch_every=0.02).start()
    try:
        sink = TapSink(tap)
        reader = make_reader("shoe", pty.path, sink_=sink)
        pty.write(encode_card(1, "player", 1, "AS") + encode_result(2, "player"))
        wait_until(lambda: len(sink.events_of(reader.name)) >= 4, 10, "the reader to decode both frames")
        assert room.emits == [] and tap.unwatched > 0
        watching.set()
        wait_until(lambda: room.emits, 10, "the page's first batch")
        event, first, _ = room.emits[0]
        assert event == "device.line" and first["hello"] is True
        assert [i["kind"] for i in first["items"]] == ["health"] and first["items"][0]["device"] == reader.name
        pty.write(encode_frame(3, "C"))
        wait_until(lambda: any(e["type"] == "CutCard" for e in room.items("event")), 10, "the cut card on the page")
        watching.clear()
        wait_until(lambda: not tap.watching, 10, "the tap to see nobody watches")
        count = len(room.emits)
        pty.write(encode_frame(4, "P"))
        wait_until(lambda: any(type(e).__name__ == "Standby" for e in sink.events_of(reader.name)), 10, "standby decoded")
        assert len(room.emits) == count
    finally:
        tap.stop()


def test_a_full_buffer_drops_and_says_how_many():
    room = Room()
    tap = LineTap(room, lambda: True, buffer=3, interval=3600)   # its thread never runs: the buffer fills
    tap.watching = True
    from datetime import datetime, timezone
    now = datetime.now(timezone.utc)
    for i in range(10):
        tap.chunk("shoe-1", bytes([i]), now)
    assert len(tap._buf) == 3 and tap.dropped == 7 == tap.dropped_total
    tap._flush()
    (_, payload, _), = room.emits
    assert payload["dropped"] == 7 and [i["hex"] for i in payload["items"]] == ["00", "01", "02"]
