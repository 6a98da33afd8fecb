"""The smaller things users hit: the dealer's PIN pad and a wrong PIN, a closed table's terminal, the
cashier's pit console, the favicon, must-move labels only when someone is due."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from tests.e2e.conftest import DEALER, IPAD, shot
from tests.floor.poker_helpers import HOUSE, fill, manager, table
from floor.poker import mustmove


def test_dealer_logs_in_with_the_pin_pad_and_a_wrong_pin_keeps_his_name(browser, live_server):
    ctx = browser.new_context(**DEALER, base_url=live_server.url)
    page = ctx.new_page()
    page.goto("/dealer/1/login")
    page.fill("input[name=username]", "dealer")
    for key in "1235":
        page.click(f".pin-pad [data-key='{key}']")
    page.click("button[type=submit]")
    error = page.locator("p.error[role=alert]")
    error.wait_for()
    assert error.inner_text() == "wrong dealer name or PIN"
    assert page.input_value("input[name=username]") == "dealer"
    shot(page, "dealer_login_wrong_pin")
    for key in ("clear", "1", "2", "3", "5", "back", "4"):
        page.click(f".pin-pad [data-key='{key}']")
    assert page.input_value("input[name=pin]") == "1234"
    page.click("button[type=submit]")
    page.wait_for_selector("#pk-seats .pk-seat")
    ctx.close()


def test_the_terminal_of_a_closed_table_says_it_is_closed(page_as):
    page = page_as("dealer", table=2)
    page.wait_for_selector("#pk")
    assert "Table 2 is closed" in page.locator(".table-closed").inner_text()
    shot(page, "dealer_closed_table")


def test_the_cashier_opens_the_pit_console_without_a_refusal(page_as):
    refused = []
    page = page_as("cashier")
    page.on("response", lambda r: refused.append(r.url) if r.status >= 400 else None)
    page.goto("/pit")
    page.wait_for_selector("#recent-rounds tbody tr")
    page.wait_for_load_state("networkidle")
    assert refused == []
    assert page.locator("#toasts .toast").count() == 0


def test_every_page_has_a_favicon(page_as):
    page = page_as("manager")
    missing = []
    page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    page.goto("/floor")
    page.wait_for_load_state("networkidle")
    icon = page.evaluate("document.querySelector('link[rel=icon]')?.href")
    assert icon and page.request.get(icon).status == 200
    assert missing == []


def test_free_seats_of_the_main_table_say_must_move_only_when_someone_is_due(page_as, sqlite_url):
    engine = create_engine(sqlite_url, connect_args={"timeout": 30})
    now = datetime.now(timezone.utc)
    with Session(engine) as s:
        fill(s, table(s, 1), [1, 2, 4, 5, 6, 7, 8, 9, 10], now - timedelta(hours=1), seats=[1, 2, 4, 5, 6, 7, 8, 9, 10])
        mustmove.open_table(s, manager(s, "manager2"), HOUSE, table(s, 2), now=now - timedelta(minutes=5))
        fill(s, table(s, 2), [20, 21], now - timedelta(minutes=4))   # two at the must-move table: nobody due yet
        s.commit()
    page = page_as("manager", device=IPAD)
    page.wait_for_selector("#live-dot.on")
    seat3 = page.locator("article.fl-table[data-table='1'] .fl-seat[data-seat='3']")
    seat3.get_by_text("free").wait_for()
    shot(page, "floor_main_free_nobody_due")
    # Nine at the must-move table (more than the house keeps main full above): the first is due at main.
    with Session(engine) as s:
        fill(s, table(s, 2), [11, 12, 13, 14, 15, 16, 17], now, seats=[3, 4, 5, 6, 7, 8, 9])
        s.commit()
    engine.dispose()
    page.reload()                # the rows were written behind the server's back: no live update to wait for
    page.locator(".prompt.due").wait_for()
    seat3.get_by_text("must-move").wait_for()
