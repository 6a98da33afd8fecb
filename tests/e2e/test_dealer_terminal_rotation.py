"""The dealer terminal in a real browser: the dealer identifies a player at a seat by his card, and
sees, live, the dealer coming to relieve him once the pit clocks one in."""
from __future__ import annotations

import requests

from tests.e2e.conftest import shot
from tests.servers import browser_login


def test_the_terminal_seats_a_player_and_shows_the_incoming_dealer(page_as, live_server):
    page = page_as("dealer", table=12)
    page.wait_for_selector("#dealer-relief:has-text('Dan Dealer')")
    assert "relieved by" not in page.inner_text("#dealer-relief")
    # Bruno's card at seat 4
    page.select_option("#identify-form select[name=seat]", "4")
    page.fill("#identify-form input[name=who]", "70000002")
    page.click("#identify-form button[type=submit]")
    page.wait_for_selector("#seated li[data-seat='4']:has-text('Bruno Keller')")
    # the pit clocks Dora in: she is the one to relieve Dan (or to take a table without a dealer)
    web = requests.Session()
    token = browser_login(web, live_server.url, "pitboss")
    board = web.get(live_server.url + "/api/rotation").json()
    dora = next(d["id"] for d in board["dealers"] if d["name"] == "Dora Dealer")
    for other in ("Dino Dealer", "Delia Dealer", "Dario Dealer"):
        did = next(d["id"] for d in board["dealers"] if d["name"] == other)
        table = {"Dino Dealer": 10, "Delia Dealer": 14, "Dario Dealer": 15}[other]
        assert web.post(f"{live_server.url}/api/rotation/dealers/{did}/table/{table}", json={},
                        headers={"X-CSRFToken": token}).status_code == 200
    assert web.post(f"{live_server.url}/api/rotation/dealers/{dora}/clock-in", json={},
                    headers={"X-CSRFToken": token}).status_code == 200
    page.wait_for_selector("#dealer-relief:has-text('Dora Dealer')")
    shot(page, "dealer-terminal-relief")


def test_the_pit_sees_the_rotation_live(page_as, live_server):
    page_as("dealer", table=12)                    # Dan takes the wheel
    pit = page_as("pitboss")
    pit.goto("/pit/rotation")
    pit.wait_for_selector("#rotation-tables tr[data-table='12']:has-text('Dan Dealer')")
    # the countdown to his break: 60 minutes from his login, ticking
    assert pit.inner_text("#rotation-tables tr[data-table='12'] .countdown").startswith(("in 59:", "in 60:"))
    pit.click("#rotation-staff li:has-text('Dora Dealer') button:has-text('Clock in')")
    pit.wait_for_selector("#rotation-breaks li:has-text('Dora Dealer')")
    # a table without a dealer gets her first
    pit.wait_for_selector("#rotation-tables tr:has-text('Dora Dealer')")
    shot(pit, "pit-rotation")


def test_the_next_card_read_while_a_player_is_identified_stays(page_as):
    """The dealer identifies one player and reads the next card before the answer comes back: the
    late answer clears the field only if it still holds what was sent."""
    page = page_as("dealer", table=12)
    page.wait_for_selector("#seated li")
    held = []
    page.route("**/api/tables/12/seats/*/player",
               lambda route: route.continue_() if held else held.append(route))
    page.select_option("#identify-form select[name=seat]", "4")
    page.fill("#identify-form input[name=who]", "70000002")
    with page.expect_request("**/api/tables/12/seats/4/player"):
        page.click("#identify-form button[type=submit]")
    page.fill("#identify-form input[name=who]", "70000001")    # the next card, read at once
    held[0].continue_()
    page.wait_for_selector("#seated li[data-seat='4']:has-text('Bruno Keller')")
    page.locator("#toasts .toast", has_text="Bruno Keller").wait_for()
    assert page.input_value("#identify-form input[name=who]") == "70000001"
    page.select_option("#identify-form select[name=seat]", "5")
    page.click("#identify-form button[type=submit]")
    page.wait_for_selector("#seated li[data-seat='5']:has-text('Alice Martin')")
    page.wait_for_function("document.querySelector('#identify-form input[name=who]').value === ''")
