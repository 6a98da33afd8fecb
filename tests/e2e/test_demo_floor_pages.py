"""The demo floor in a browser while it plays by itself: the dealer terminals show live rounds from
the devices, the board shows roulette's numbers and baccarat's roads (screenshots to look at)."""
from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from tests.e2e.conftest import shot
from tests.e2e_devices.conftest import make_engine
from tests.e2e_devices.test_demo_floor import start_demo, wait_for_every_game


@pytest.fixture
def demo_server(sqlite_url, tmp_path):
    server = start_demo(sqlite_url, tmp_path / "instance")
    engine = make_engine(sqlite_url)
    yield server, engine
    server.stop(wait=False)
    engine.dispose()


def _page(browser, base_url: str, username: str, table: int | None = None, pin: str = "1234",
          viewport: dict | None = None):
    ctx = browser.new_context(viewport=viewport or {"width": 1280, "height": 800}, base_url=base_url)
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    if table is not None:
        page.goto(f"/dealer/{table}/login")
        page.fill("input[name=username]", username)
        page.fill("input[name=pin]", pin)
    else:
        page.goto("/login")
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", "floorman-demo")
    page.click("button[type=submit]")
    page.wait_for_load_state("networkidle")
    return ctx, page


def _wait_text(page, selector: str, test: str, arg=None, timeout: float = 90.0) -> str:
    """Wait until the text of ``selector`` (lowercased: shown in capitals by CSS) passes ``test``, a
    JavaScript expression of ``t`` (the text) and ``arg``, as the page's own live updates change it."""
    page.wait_for_function("""([sel, arg]) => {
        const el = document.querySelector(sel);
        if (!el) return false;
        const t = el.innerText.trim().toLowerCase();
        return %s;
    }""" % test, arg=[selector, arg], timeout=timeout * 1000)
    return page.locator(selector).inner_text().strip().lower()


def test_the_demo_floor_pages_show_live_rounds(browser, demo_server):
    server, engine = demo_server
    contexts = []
    try:
        # every terminal and the board open at once: the games play side by side, so the pages wait together
        pages = {}
        for table in (12, 10, 14, 15):
            ctx, page = _page(browser, server.url, "dealer", table=table)
            contexts.append(ctx)
            assert page.url.endswith(f"/dealer/{table}")
            pages[table] = (page, _wait_text(page, "#round-no", "t.startsWith('round')"))
        ctx, board = _page(browser, server.url, "display", viewport={"width": 1920, "height": 1080})   # the TV
        contexts.append(ctx)
        board.goto("/board")
        for table, (page, first) in pages.items():
            # the round number moves on by itself as the devices play (live updates, no reload)
            _wait_text(page, "#round-no", "t.startsWith('round') && t !== arg", first)
            if table in (14, 15):   # a hand being dealt: cards read by the scanner on the terminal
                _wait_text(page, "#round-status", "t === 'dealing'")
                page.wait_for_selector("#round-view .pcard")
            else:
                _wait_text(page, "#round-status", "t === 'settled' || t === 'result'")
            shot(page, f"demo-dealer-{table}")
        board.wait_for_selector(".bg-panel.roulette .last-numbers .ball")
        board.wait_for_selector(".bg-panel.baccarat .bead-plate .bead")
        assert board.locator(".bg-panel.roulette .last-numbers .ball").count() >= 1
        shot(board, "demo-board")
    finally:
        for ctx in contexts:
            ctx.close()
    done = wait_for_every_game(engine)
    with Session(engine) as s:
        from floor import ledger
        assert ledger.check(s).ok
    assert set(done) >= {"roulette", "baccarat", "blackjack", "casino_holdem"}
