"""A pit boss exports a device's stored line from the pit console's devices panel, in a real browser
against a real server whose device process reads a smart shoe on a pty: the file downloaded is a capture
that decodes to the cards the shoe sent. A floor manager's console has the panel and no export."""
from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from devices import capture as cap
from devices.config import DeviceConfig
from devices.replay import replay
from devices.shoe import CardDealt, encode_card, encode_frame
from floor.models import DeviceChunk
from tests.conftest import make_engine
from tests.devices.helpers import wait_until
from tests.e2e.conftest import IPAD, shot, watch
from tests.e2e.test_device_live_page import device_floor  # noqa: F401  (the fixture)


def _login(browser, server, username):
    ctx = browser.new_context(**IPAD, base_url=server.url, accept_downloads=True)
    page = ctx.new_page()
    watch(page)
    page.set_default_timeout(60_000)   # a hang guard: the waits are on what the page shows
    page.goto("/login")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "floorman-demo")
    page.click("button[type=submit]")
    page.wait_for_load_state("networkidle")
    return ctx, page


def test_a_pit_boss_downloads_the_shoes_line_as_a_capture(browser, device_floor, tmp_path):  # noqa: F811
    frames = encode_frame(0, "S") + encode_card(1, "player", 1, "AS") + encode_card(2, "banker", 1, "KH")
    device_floor.end.write(frames)
    engine = make_engine(device_floor.db_url)

    def stored():
        with Session(engine) as s:   # a session a look: each sees what was committed since
            return s.execute(select(func.sum(func.length(DeviceChunk.data)))
                             .where(DeviceChunk.device == "shoe-10")).scalar()
    wait_until(lambda: stored() == len(frames), what="the shoe's bytes stored")
    engine.dispose()

    ctx, page = _login(browser, device_floor, "pitboss")
    page.goto("/pit")
    box = page.locator("#device-export")
    box.locator("summary").click()
    form = box.locator("form")
    form.locator('select[name=device] option[value="shoe-10"]').wait_for(state="attached")
    form.locator("select[name=device]").select_option("shoe-10")
    assert form.locator("input[name=from]").input_value() and form.locator("input[name=to]").input_value()
    shot(page, "pit-capture-export")
    with page.expect_download() as info:
        form.locator("button[type=submit]").click()
    download = info.value
    assert download.suggested_filename.startswith("shoe-10-") and download.suggested_filename.endswith(".capture.jsonl")
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    recording = cap.read(str(path))
    assert recording.header.kind == "shoe" and recording.header.port == device_floor.end.path
    config = DeviceConfig(name="shoe-10", table="10", kind="shoe", port=recording.header.port)
    assert [str(e.card) for e in replay(config, recording.stream()) if isinstance(e, CardDealt)] == ["AS", "KH"]
    ctx.close()

    ctx, page = _login(browser, device_floor, "manager")
    page.goto("/floor")   # the floor manager's console shows the same devices panel, without the export
    page.locator('#devices li[data-device="shoe-10"]').wait_for()
    assert page.locator("#device-export").count() == 0
    ctx.close()
