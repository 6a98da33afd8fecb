"""The live device page against a real server that reads a real device line (a pty): what a
technician sees when a frame comes in garbled, who may join the room the lines are published to (the
real Socket.IO client, every role), and what a technician may read at all (devices, never money or
players)."""
from __future__ import annotations

import threading

import pytest
import socketio

from devices.shoe import encode_card, encode_frame
from devices.simulate.base import PtyEnd
from floor import staff
from floor.actors import Actor
from floor.models import ROLES
from sqlalchemy.orm import Session
from tests.conftest import make_engine
from tests.devices.helpers import wait_until
from tests.e2e.conftest import IPAD, shot, stop_after_pages, watch
from tests.e2e.test_tablet_pages import AXE
from tests.servers import Server

USERS = {"admin": "admin", "technician": "tech", "floor_manager": "manager", "pit_boss": "pitboss",
         "cashier": "cashier", "display": "display", "dealer": "dealer"}


def _garbled(frame: bytes) -> bytes:
    return frame[:-2] + (b"00" if frame[-2:] != b"00" else b"11")


@pytest.fixture
def device_floor(request, sqlite_url, tmp_path):
    """A server (gunicorn, as `make run`) whose device readers own one smart shoe at table 10, on a pty
    this test writes to."""
    end = PtyEnd(link=str(tmp_path / "usb-shoe-10"))
    config = tmp_path / "floor.toml"
    config.write_text(f'[[devices]]\nname = "shoe-10"\ntable = 10\nkind = "shoe"\nport = "{end.path}"\n')
    server = Server(sqlite_url, tmp_path / "instance", FLOOR_CONFIG=str(config), FLOOR_APP_RUN_DEVICES="true").wait()
    server.end, server.db_url = end, sqlite_url
    yield server
    stop_after_pages(request, server)
    end.close()


def test_a_garbled_frame_shows_on_the_technicians_page_refused_with_its_reason(browser, device_floor):
    ctx = browser.new_context(**IPAD, base_url=device_floor.url)
    page = ctx.new_page()
    watch(page)
    page.set_default_timeout(60_000)   # a hang guard: the waits are on what the page shows
    page.goto("/login")
    page.fill("input[name=username]", "tech")
    page.fill("input[name=password]", "floorman-demo")
    page.click("button[type=submit]")
    page.wait_for_url("**/devices/live")
    page.locator("#tap-state[data-state=live]").wait_for()     # the device process publishes to this page now
    good, bad = encode_card(1, "player", 1, "AS"), _garbled(encode_card(2, "banker", 1, "KH"))
    device_floor.end.write(encode_frame(0, "S") + good + bad)
    device = page.locator('section.dl-device[data-device="shoe-10"]')
    refused = device.locator("tr.refused")
    refused.locator("mark.reason", has_text="bad BCC").wait_for()
    # hex and text side by side: the refused frame's bytes as they came
    assert refused.first.locator("td.hex").inner_text() == " ".join(f"{b:02X}" for b in bad)
    assert refused.first.locator("td.txt").inner_text() == "·2D···00"   # ENQ, SEQ, type, two data bytes, ETX, BCC
    device.locator("tr.event", has_text="card dealt").wait_for()
    device.locator("tr.sent", has_text="NAK 02").wait_for()      # the host's answer to the bad frame
    device.locator("tr.bytes").first.wait_for()
    device.locator(".dl-health .badge.ok").wait_for()
    shot(page, "device-live-refused")

    # pause: nothing new is shown until resumed; the page counts what came meanwhile
    page.click("#dl-pause")
    rows = device.locator("tr.event").count()
    device_floor.end.write(encode_frame(3, "C"))
    page.locator("#dl-paused-note", has_text="new item").wait_for()
    page.wait_for_function("!/\\b0\\b/.test(document.getElementById('dl-paused-note').textContent)")
    assert device.locator("tr.event").count() == rows
    page.click("#dl-pause")
    device.locator("tr.event", has_text="cut card").wait_for()

    # filter by kind: refusals only
    for kind in ("bytes", "event", "sent"):
        page.locator(f"input[name=show][value={kind}]").uncheck()
    assert device.locator("tr.event").first.is_hidden() and device.locator("tr.refused").first.is_visible()
    page.locator("input[name=device-kind][value=shoe]").uncheck()
    assert device.is_hidden()
    page.locator("input[name=device-kind][value=shoe]").check()
    page.locator("input[name=show][value=event]").check()

    # the last hour as a capture file
    with page.expect_download() as got:
        device.locator("a", has_text="Download the last hour").click()
    text = open(got.value.path(), encoding="utf-8").read()
    assert text.startswith('{"format": "floorman-capture", "version": 1, "kind": "shoe"') and bad.hex() in text

    # in French and German too
    for lang, words in (("fr", ("Appareils en direct", "refusé", "cylindre")), ("de", ("Geräte live", "abgelehnt", "Kessel"))):
        page.goto(f"/devices/live?lang={lang}")
        page.locator("#tap-state[data-state=live]").wait_for()
        device_floor.end.write(_garbled(encode_card(4, "player", 2, "2C")))
        page.locator("tr.refused mark.reason").first.wait_for()
        body = page.locator("body").inner_text()
        assert all(w in body for w in words), (lang, body[:600])
        _fits_and_reads(page, lang)
        shot(page, f"device-live-{lang}")
    page.goto("/devices/live?lang=en")
    page.locator("#tap-state[data-state=live]").wait_for()
    device_floor.end.write(_garbled(encode_card(5, "player", 2, "2C")))
    page.locator("tr.refused mark.reason").first.wait_for()
    _fits_and_reads(page, "en")
    ctx.close()


def _fits_and_reads(page, lang: str) -> None:
    """No horizontal scroll on a tablet or a desk, and axe finds nothing serious or critical."""
    for width in (1024, 1280):
        page.set_viewport_size({"width": width, "height": 800})
        page.wait_for_function("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("() => axe.run(document, { resultTypes: ['violations'] })")
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"][:3]])
           for v in result["violations"] if v["impact"] in ("serious", "critical")]
    assert not bad, (lang, bad)


def _client(url: str, token: str, heard: list) -> socketio.Client:
    c = socketio.Client(reconnection=False)
    c.on("device.line", lambda data: heard.append(data), namespace="/live")
    c.connect(url, namespaces=["/live"], auth={"token": token}, transports=["websocket"], wait_timeout=20)
    return c


def test_only_admins_and_technicians_may_join_the_device_room_the_real_client_as_every_role(device_floor):
    engine = make_engine(device_floor.db_url)
    with Session(engine) as s:
        tokens = {role: staff.create_token(s, Actor.system("test"), user, "live",
                                           table_number=10 if role == "dealer" else None) for role, user in USERS.items()}
        s.commit()
    engine.dispose()
    assert set(USERS) == set(ROLES)
    heard: dict[str, list] = {role: [] for role in USERS}
    clients = {role: _client(device_floor.url, token, heard[role]) for role, token in tokens.items()}
    try:
        for role, c in clients.items():
            ack = c.call("join_devices", {}, namespace="/live", timeout=20)
            if role in ("admin", "technician"):
                assert ack == {"ok": True, "room": "devices"}, (role, ack)
            else:
                assert ack["error"] == "wrong_role", (role, ack)
        done = threading.Event()

        def refused(role):
            return any(i["kind"] == "refused" for p in list(heard[role]) for i in p["items"])
        # the device process starts publishing once it sees a watcher: write until both hear a refusal
        seq = 0
        while not (refused("admin") and refused("technician")):
            device_floor.end.write(_garbled(encode_card(seq % 10, "player", 1, "AS")))
            seq += 1
            done.wait(0.2)
            assert seq < 300, "the device room heard no refusal"
        for role in ("floor_manager", "pit_boss", "cashier", "display", "dealer"):
            assert heard[role] == [], role
        # leaving the room: nothing more for that page
        assert clients["admin"].call("leave_devices", {}, namespace="/live", timeout=20) == {"ok": True}
        n = len(heard["admin"])
        before = len(heard["technician"])
        device_floor.end.write(encode_frame(seq % 10, "C"))
        wait_until(lambda: any(i["kind"] == "event" and i["type"] == "CutCard" for p in heard["technician"][before:]
                               for i in p["items"]), 60, "the cut card in the technician's room")
        assert len(heard["admin"]) == n
    finally:
        for c in clients.values():
            c.disconnect()
