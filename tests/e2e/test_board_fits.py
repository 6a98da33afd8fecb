"""The TV board fits its screen (1920x1080 and 1280x720) with no scrolling at any list length: a
list longer than its column shows in pages that take turns, and a long name is cut with an ellipsis."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from floor.actors import Actor
from floor.models import Player
from floor.poker import waitlist
from floor.tables import table_by_number
from tests.e2e.conftest import TV, TV_720, shot
from tests.e2e.test_rounds_pages import _spin
from tests.conftest import template_copy
from tests.servers import Server

LONG = "Maximiliana-" + "Konstantina" * 9 + " Vanderbilt"     # 120 characters: the column's width


@pytest.fixture(scope="module")
def crowded(sqlite_template, tmp_path_factory):
    """Thirty-five on the Hold'em list (one with a 120-character name), twelve on Omaha, 30 spins of roulette."""
    tmp = tmp_path_factory.mktemp("board")
    url = template_copy(sqlite_template, tmp)
    engine = create_engine(url)
    now = datetime.now(timezone.utc)
    actor = Actor.system("test")
    with Session(engine) as s:
        extra = [Player(name=LONG if i == 0 else f"Guest{i:02d} Player", card_number=f"9100{i:04d}") for i in range(30)]
        s.add_all(extra)
        s.flush()
        ids = [p.id for p in extra] + [1, 2, 3, 4, 5]
        for k, pid in enumerate(ids):
            waitlist.add(s, actor, 1, pid, now - timedelta(minutes=60 - k))
        for k, pid in enumerate(range(6, 18)):
            waitlist.add(s, actor, 2, pid, now - timedelta(minutes=40 - k))
        s.commit()
        wheel = table_by_number(s, 12).id
        for i in range(30):
            _spin(s, wheel, 100 + i, (i * 7) % 37, now - timedelta(minutes=90 - i))
    engine.dispose()
    srv = Server(url, tmp / "instance", FLOOR_HOUSE_BOARD_PAGE_SECONDS="2").wait()
    yield srv
    srv.stop(wait=False)


def _board(browser, server, device):
    ctx = browser.new_context(**device, base_url=server.url)
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    page.goto("/login")
    page.fill("input[name=username]", "display")
    page.fill("input[name=password]", "floorman-demo")
    page.click("button[type=submit]")
    page.wait_for_selector("#board-lists article.board-list .board-entry")
    page.wait_for_load_state("networkidle")
    return ctx, page


@pytest.mark.parametrize("device", [TV, TV_720], ids=["1920x1080", "1280x720"])
def test_the_board_fits_the_screen_and_pages_through_long_lists(browser, crowded, device):
    ctx, page = _board(browser, crowded, device)
    width, height = device["viewport"]["width"], device["viewport"]["height"]
    size = f"{width}x{height}"
    shot(page, f"board-{size}")
    dims = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert dims[0] <= width and dims[1] <= height, f"the board needs {dims} on a {size} screen"
    # Every panel is on the screen: lists, open tables, live games.
    for sel in (".board-lists-panel", ".board-tables-panel", "#board-games"):
        box = page.locator(sel).bounding_box()
        assert box and box["y"] + box["height"] <= height + 1 and box["x"] + box["width"] <= width + 1, sel
    # Nothing inside a panel is cut off at the bottom: every entry shown is whole.
    cut = page.evaluate("""[...document.querySelectorAll('.board-entry, .board-table, .bg-panel')].filter(e => {
        const r = e.getBoundingClientRect(), box = e.parentElement.getBoundingClientRect();
        return r.bottom > Math.min(innerHeight, box.bottom) + 1 || r.right > Math.min(innerWidth, box.right) + 1; })
        .map(e => e.className)""")
    assert cut == [], f"cut off at the edge of their panel: {cut}"
    # The long list takes turns: page after page, all 35 places are shown. The page itself records each
    # page of the list as it is drawn (a test reading it now and then could miss one on a busy machine),
    # until the turns come back to a page already shown.
    page.evaluate("""() => {
        const shown = () => [...document.querySelectorAll(".board-list[data-game='1'] .board-entry")].map(e => +e.dataset.place);
        window.__pages = [shown()];
        new MutationObserver(() => {
            const now = shown(), last = window.__pages[window.__pages.length - 1];
            if (now.length && now.join() !== last.join()) window.__pages.push(now);
        }).observe(document.getElementById("board-lists"), {childList: true, subtree: true});
    }""")
    pages = page.wait_for_function("""() => {
        const p = window.__pages, last = p[p.length - 1].join();
        return p.length > 1 && p.slice(0, -1).some(x => x.join() === last) && p;
    }""").json_value()
    assert all(0 < len(p) < 35 for p in pages), pages
    seen = {place for p in pages for place in p}
    assert seen == set(range(1, 36))
    ctx.close()


def test_a_long_name_is_cut_with_an_ellipsis(browser, crowded):
    ctx, page = _board(browser, crowded, TV)
    # Found and measured in one step in the page: the list turns its pages every 2 s, and an entry found
    # in one step and measured in the next can be gone by then (a detached node measures nothing).
    style = page.wait_for_function("""() => {
        const e = document.querySelector(".board-list[data-game='1'] .board-entry[data-place='1'] .name");
        return e && [getComputedStyle(e).textOverflow, e.scrollWidth > e.clientWidth, e.getBoundingClientRect().width];
    }""").json_value()
    shot(page, "board-long-name")
    ctx.close()
    assert style[0] == "ellipsis" and style[1], style
    assert style[2] < 900
