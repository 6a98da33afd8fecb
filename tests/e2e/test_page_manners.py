"""Small things a person notices on the pages: the TV is a kiosk (no language menu, no log out), a
refused tap is a message and not a page error, and messages never cover the buttons of the last rows."""
from __future__ import annotations

from tests.e2e.conftest import DEALER, IPAD, TV, shot


def test_the_tv_is_a_kiosk_without_language_menu_or_log_out(page_as):
    tv = page_as("display", device=TV)
    tv.wait_for_selector("#board-lists article.board-list")
    assert tv.locator("select[name=lang]").count() == 0
    assert tv.locator("form[action$='/logout'], form[action*='logout']").count() == 0
    assert "Log out" not in tv.locator("header.topbar").inner_text()
    shot(tv, "board-kiosk")
    # a person at a tablet keeps both
    manager = page_as("manager", device=IPAD)
    manager.goto("/board")
    manager.wait_for_selector("#board-lists article.board-list")
    assert manager.locator("select[name=lang]").count() == 1
    assert manager.get_by_role("button", name="Log out").count() == 1


def test_open_betting_during_a_round_is_a_message_not_a_page_error(page_as):
    page = page_as("dealer", table=12, device=DEALER)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.wait_for_selector("#live-dot.on")
    page.click("#btn-open")
    page.wait_for_selector(".round-status.betting")
    page.click("#btn-open")                  # a round runs: the server answers 409
    page.locator("#toasts .toast.error").wait_for()
    page.wait_for_load_state("networkidle")
    page.evaluate("() => new Promise(r => setTimeout(r, 0))")    # a macrotask: pending rejections are reported
    assert errors == []


def test_messages_leave_the_last_rows_buttons_free(page_as, live_server):
    import requests

    from tests.servers import browser_login
    s = requests.Session()
    token = browser_login(s, live_server.url, "manager")
    for player in range(20, 25):
        assert s.post(f"{live_server.url}/api/waitlists/1/entries", json={"player_id": player},
                      headers={"X-CSRFToken": token}).status_code == 201
    page = page_as("manager", device={**IPAD, "viewport": {"width": 1024, "height": 600}})
    page.wait_for_selector("#live-dot.on")
    page.wait_for_selector(".fl-list[data-game='1'] .fl-entry >> nth=4")
    last = page.locator(".fl-list[data-game='1'] .fl-entry").last
    last.scroll_into_view_if_needed()
    page.evaluate("""async () => {
      const { toast } = await import('/static/js/live.js');
      for (const m of ['Seat 3 is taken', 'Nothing to call', 'The list changed', 'One more message']) toast(m, 'error');
    }""")
    page.locator("#toasts .toast >> nth=2").wait_for()
    shot(page, "toasts-and-rows")
    covered = page.evaluate("""() => {
      const box = document.getElementById('toasts').getBoundingClientRect();
      const out = [];
      for (const entry of [...document.querySelectorAll(".fl-list[data-game='1'] .fl-entry")].slice(-2))
        for (const b of entry.querySelectorAll('button')) {
          const r = b.getBoundingClientRect();
          if (r.bottom <= 0 || r.top >= innerHeight) continue;
          const hit = !(r.right <= box.left || r.left >= box.right || r.bottom <= box.top || r.top >= box.bottom);
          const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          if (hit || !b.contains(top)) out.push(b.textContent.trim());
        }
      return out;
    }""")
    assert covered == []
    assert page.locator("#toasts .toast").count() == 3       # the newest three, never a wall


def test_the_german_dealer_reads_the_seat_forfeit_alert_in_german(page_as):
    """The alert reaches every tablet as one emit in the house's language, with its template and
    values: the dealer's terminal says it in its own language."""
    page = page_as("dealer", table=1, device=DEALER)
    page.goto("/dealer/1?lang=de")
    page.wait_for_selector("#pk-seats .pk-seat")
    said = page.evaluate("""async () => {
      const { say } = await import('/static/js/i18n.js');
      return say({ template: "Table {table} seat {seat}: {player} gave up the seat ({count} missed-blind tickets). "
                             + "Seat free for the next player.",
                   params: { table: 1, seat: 5, player: "Chloé Favre", count: 3 } }, "English as sent");
    }""")
    assert said.startswith("Tisch 1 Platz 5: Chloé Favre"), said
