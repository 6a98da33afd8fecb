"""The floor tablet and the TV board in a real browser: a manager adds a player, calls and seats him;
the board follows live, without a reload."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import requests
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from floor.actors import Actor
from floor.models import Table
from floor.poker import mustmove, queries, seating, waitlist
from floor.settings import HouseSettings
from tests.e2e.conftest import shot
from tests.floor.poker_helpers import HOUSE, fill, manager


def _arrange(sqlite_url: str) -> None:
    """Main table 1 full but seat 3, a must-move table 2, Omaha with a list, a player away."""
    engine = create_engine(sqlite_url)
    now = datetime.now(timezone.utc)
    with Session(engine) as s:
        m = manager(s, "manager2")
        t = {n: s.query(Table).filter_by(number=n).one() for n in (1, 2, 3)}
        fill(s, t[1], [1, 2, 4, 5, 6, 7, 8, 9, 10], now - timedelta(hours=2), seats=[1, 2, 4, 5, 6, 7, 8, 9, 10])
        mustmove.open_table(s, m, HOUSE, t[2], now=now - timedelta(minutes=50))
        fill(s, t[2], [13, 14, 15, 16, 17], now - timedelta(minutes=45))
        fill(s, t[3], [18, 19, 20, 21, 22, 23, 24, 12, 11], now - timedelta(minutes=90))
        seating.leave(s, Actor.system("test"), HouseSettings(), queries.open_assignment(s, t[3].id, 9), "left", 0, now - timedelta(minutes=5))
        seating.mark_away(s, m, HOUSE, t[3], 2, now - timedelta(minutes=7))
        for pid in (3, 5):
            waitlist.add(s, m, 2, pid, now - timedelta(minutes=20))
        s.commit()
    engine.dispose()


def test_add_call_seat_and_the_board_follows_live(page_as, sqlite_url):
    _arrange(sqlite_url)
    board = page_as("display")
    board.goto("/board")
    board.wait_for_selector("#live-dot.on")
    board.evaluate("window.__marker = 42")
    nlh_board = board.locator(".board-list[data-game='1']")
    assert "No waiting list" in nlh_board.inner_text()
    assert "Chloé F." in board.locator(".board-list[data-game='2']").inner_text()

    page = page_as("manager")
    assert page.url.endswith("/floor")
    page.wait_for_selector("#live-dot.on")
    page.wait_for_selector("article.fl-table[data-table='1'] .fl-seat[data-seat='3']")
    page.evaluate("window.__marker = 7")
    nlh = page.locator(".fl-list[data-game='1']")

    # Add Karin Huber (here in person) to the Hold'em list.
    nlh.locator("[data-action=add-player]").click()
    page.fill("#fl-sheet input[name=q]", "Karin")
    page.locator("#fl-sheet .search-results[data-query='Karin'] button[data-player='11']").click()
    entry = nlh.locator("li.fl-entry[data-player='11']")
    entry.wait_for()
    page.wait_for_selector("#fl-sheet", state="hidden")   # the live list can come before the answer closes it
    # Main's free seat is filled by must-move, so Karin is proposed for the must-move table 2.
    nlh_board.locator(".board-entry", has_text="Karin H.").wait_for()
    assert "Huber" not in board.content()

    entry.locator("[data-action=call]").click()
    held = page.locator("article.fl-table[data-table='2'] .fl-seat.held")
    held.wait_for()
    assert "Karin H." in held.inner_text()
    page.wait_for_function("document.querySelector('.fl-seat.held .countdown').textContent.match(/^[45]:\\d\\d$/)")
    nlh_board.locator(".board-entry.called", has_text="called · table 2").wait_for()
    shot(page, "floor_tablet_called")
    shot(board, "board_called")

    held.locator("[data-action=seat-called]").click()
    page.wait_for_selector("#fl-sheet[open] input[name=buy_in]")
    page.fill("#fl-sheet input[name=buy_in]", "400")
    page.locator("#fl-sheet [data-action=seat-confirm]").click()
    seat = page.locator("article.fl-table[data-table='2'] .fl-seat.taken", has_text="Karin H.")
    seat.wait_for()
    nlh_board.locator(".board-entry").first.wait_for(state="detached")
    assert page.evaluate("window.__marker") == 7 and board.evaluate("window.__marker") == 42
    shot(page, "floor_tablet")
    shot(board, "board")


def test_must_move_due_shows_on_the_tablet_and_one_tap_moves_him(page_as, sqlite_url, live_server):
    _arrange(sqlite_url)
    page = page_as("manager")
    page.wait_for_selector("#live-dot.on")
    # Main has 9 of 10, MM1 has 5 (<= 8): main >= 8, nobody moves yet.
    assert page.locator(".prompt.due").count() == 0
    # The dealer terminal of table 1 frees two seats (third missed-blind tickets): main at 7 < 8.
    dealer = requests.Session()
    html = dealer.get(f"{live_server.url}/dealer/1/login").text
    token = html.split('name="csrf-token" content="', 1)[1].split('"', 1)[0]
    r = dealer.post(f"{live_server.url}/dealer/1/login", data={"username": "dealer", "pin": "1234", "csrf_token": token},
                    allow_redirects=False)
    assert r.status_code == 302
    html = dealer.get(f"{live_server.url}/dealer/1").text
    token = html.split('name="csrf-token" content="', 1)[1].split('"', 1)[0]
    for seat in (4, 5):
        r = dealer.post(f"{live_server.url}/api/seating/tables/1/seats/{seat}/leave", json={"reason": "missed_blinds"},
                        headers={"X-CSRFToken": token})
        assert r.status_code == 200, r.text
    prompt = page.locator(".prompt.due")
    prompt.wait_for()
    assert "Marie Dubois (table 2, seat 1) → table 1" in prompt.inner_text()
    assert page.locator("article.fl-table[data-table='2'] .fl-seat.due").count() == 1
    shot(page, "floor_tablet_mustmove")
    prompt.locator("[data-action=mm-move]").click()
    page.locator("article.fl-table[data-table='1'] .fl-seat.taken", has_text="Marie D.").wait_for()
    page.locator(".prompt.due").wait_for(state="detached")
