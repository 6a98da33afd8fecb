"""The live device page's download: the last hour of a device's line, from the stream the floor
stored, as a capture file that replays to the very events the page showed as they happened."""
from __future__ import annotations

import io
import threading

from devices import capture
from devices.config import DeviceConfig
from devices.replay import replay
from devices.shoe import encode_card, encode_frame, encode_result
from devices.tap import LineTap, event_item
from tests.conftest import Login
from tests.e2e_devices.conftest import wait


def _bad_bcc(frame: bytes) -> bytes:
    return frame[:-2] + (b"00" if frame[-2:] != b"00" else b"11")


def test_the_last_hour_downloads_as_a_capture_that_replays_to_the_events_the_page_showed(app, rig):
    shown, lock = [], threading.Lock()

    def room(event, payload, to):
        with lock:
            shown.extend(i for i in payload["items"] if i["kind"] in ("event", "refused"))
    tap = LineTap(room, lambda: True, interval=0.02, watch_every=0.02).start()
    try:
        wait(lambda: tap.watching, what="the page open")
        end, reader = rig.line("shoe", 10, bridge_kw={"tap": tap})
        frames = [encode_frame(1, "S"), encode_card(2, "player", 1, "9H"), _bad_bcc(encode_card(3, "banker", 1, "KD")),
                  encode_card(3, "banker", 1, "KD"), encode_card(4, "player", 2, "2C"), encode_card(5, "banker", 2, "3S"),
                  b"\x80\x81noise", encode_result(6, "player")]
        line = b"".join(frames)
        for i in range(0, len(line), 7):      # reads that split and merge frames
            end.write(line[i:i + 7])
        wait(lambda: any(e["type"] == "ShoeResult" for e in list(shown)), what="the result on the page")
        assert any(e["kind"] == "refused" and e["reason"] == "bad BCC" for e in shown)
        rig.bridges[-1].drain(30)
    finally:
        tap.stop()

    tech = Login(app.test_client())
    tech("tech")
    resp = tech.client.get("/devices/shoe-10/capture?minutes=60")
    assert resp.status_code == 200, resp.get_data(as_text=True)
    assert "attachment" in resp.headers["Content-Disposition"] and ".capture.jsonl" in resp.headers["Content-Disposition"]
    text = resp.get_data(as_text=True)
    head = text.split("\n", 1)[0]
    assert head.startswith('{"format": "floorman-capture", "version": 1, "kind": "shoe"')
    got = capture.read(io.StringIO(text))
    assert got.header.kind == "shoe" and got.header.baudrate == 4800
    assert got.chunks[0] == (0.0, b"")            # the port opened: the capture starts at a clean line
    assert b"".join(data for _, data in got.chunks) == line
    config = DeviceConfig(name="shoe-10", table="10", kind="shoe", port=got.header.port)
    replayed = [event_item("shoe-10", e, got.header.started_at) for e in replay(config, got.stream())
                if type(e).__name__ != "Reply"]
    strip = lambda items: [{k: v for k, v in i.items() if k != "at"} for i in items]  # noqa: E731
    assert strip(replayed) == strip(shown)


def test_the_download_is_for_technicians_and_admins_and_says_what_is_wrong(app, rig):
    end, reader = rig.line("shoe", 10)
    end.write(encode_frame(1, "S"))
    rig.bridges[-1].drain(30)
    for username, status in (("manager", 403), ("pitboss", 403), ("cashier", 403), ("display", 403),
                             ("admin", 200), ("tech", 200)):
        who = Login(app.test_client())
        who(username)
        resp = who.client.get("/devices/shoe-10/capture", headers={"Accept": "application/json"})
        assert resp.status_code == status, (username, resp.status_code)
    for query, status in (("?minutes=0", 400), ("?minutes=61", 400), ("?minutes=x", 400)):
        resp = who.client.get("/devices/shoe-10/capture" + query, headers={"Accept": "application/json"})
        assert resp.status_code == status and resp.get_json()["error"] == "bad_input", query
    resp = who.client.get("/devices/nothing-9/capture", headers={"Accept": "application/json"})
    assert resp.status_code == 404
