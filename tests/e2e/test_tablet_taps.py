"""One tap, one request, on every page; refusals show above the sheet, and the sheet shows the floor
as it is after a refusal."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from floor.poker import waitlist
from tests.e2e.conftest import DEALER, IPAD, shot
from tests.floor.poker_helpers import fill, manager, table


def _db(sqlite_url):
    return create_engine(sqlite_url, connect_args={"timeout": 30})


def _double_tap(page, locator) -> None:
    """Two taps 30 ms apart at the same spot, as a finger does (no waiting for the button in between)."""
    box = locator.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(30)   # the gap between the taps themselves, not a wait for a result
    page.touchscreen.tap(x, y)


def _posts(page, fragment: str) -> list[str]:
    sent = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" and fragment in r.url else None)
    return sent


def test_a_double_tap_on_seat_seats_once(page_as, sqlite_url):
    engine = _db(sqlite_url)
    with Session(engine) as s:
        waitlist.add(s, manager(s, "manager2"), 1, 3, datetime.now(timezone.utc) - timedelta(minutes=5))
        s.commit()
    engine.dispose()
    page = page_as("manager", device=IPAD)
    page.wait_for_selector("#live-dot.on")
    entry = page.locator(".fl-list[data-game='1'] li.fl-entry[data-player='3']")
    calls = _posts(page, "/call")
    _double_tap(page, entry.locator("[data-action=call]"))
    entry.locator("[data-action=seat-called]").wait_for()
    assert len(calls) == 1
    entry.locator("[data-action=seat-called]").tap()
    page.wait_for_selector("#fl-sheet[open] input[name=buy_in]")
    seats = _posts(page, "/seat")
    _double_tap(page, page.locator("#fl-sheet [data-action=seat-confirm]"))
    page.locator(".fl-seat.taken", has_text="Chloé F.").wait_for()
    assert len(seats) == 1
    page.locator("#toasts .toast", has_text="Chloé Favre seated").wait_for()
    assert page.locator("#toasts .toast.warning, #toasts .toast.error").count() == 0


def test_a_double_tap_on_open_betting_opens_once(page_as):
    page = page_as("dealer", table=12, device=DEALER)
    page.wait_for_selector("#live-dot.on")
    opens = _posts(page, "/round/open")
    page.locator("#btn-open").dblclick()
    page.wait_for_selector(".round-status.betting")
    page.wait_for_load_state("networkidle")
    assert len(opens) == 1
    assert page.locator("#toasts .toast.warning, #toasts .toast.error").count() == 0


def test_a_refusal_shows_above_the_sheet_which_then_offers_what_is_free(page_as, sqlite_url):
    engine = _db(sqlite_url)
    with Session(engine) as s:
        fill(s, table(s, 3), [18], datetime.now(timezone.utc) - timedelta(minutes=30))
        s.commit()
    page = page_as("manager", device=IPAD)
    page.wait_for_selector("#live-dot.on")
    page.locator("article.fl-table[data-table='3'] .fl-seat.taken[data-seat='1']").tap()
    sheet = page.locator("#fl-sheet[open]")
    seat4 = sheet.get_by_role("button", name="Seat 4", exact=True)
    seat4.wait_for()
    assert "null" not in sheet.inner_text()
    # Meanwhile another tablet seats someone in seat 4.
    with Session(engine) as s:
        fill(s, table(s, 3), [19], datetime.now(timezone.utc), seats=[4])
        s.commit()
    engine.dispose()
    seat4.tap()
    refusal = page.locator("#toasts .toast", has_text="seat 4 at table 3 is taken")
    refusal.wait_for()
    box = refusal.bounding_box()
    # Taps pass through a message (pointer-events: none), which hit-testing skips too: asked with
    # them on for a moment, the hit test says what is painted on top at the message's centre.
    on_top = page.evaluate("""([x, y]) => {
        const box = document.getElementById('toasts'), was = box.style.pointerEvents;
        box.style.pointerEvents = 'auto';
        try { return !!document.elementFromPoint(x, y).closest('#toasts'); } finally { box.style.pointerEvents = was; }
    }""", [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
    assert on_top, "the refusal is hidden under the sheet"
    page.wait_for_function("!Array.from(document.querySelectorAll('#fl-sheet button')).some(b => b.textContent === 'Seat 4')")
    assert sheet.get_by_role("button", name="Seat 5", exact=True).is_visible()
    shot(page, "tablet_refusal_above_sheet")
