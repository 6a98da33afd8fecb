"""The poker dealer terminal in a real browser: a few hands with a player sitting out and coming back,
then a warning; the floor tablet's conduct panel follows live."""
from __future__ import annotations

import requests
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from floor.actors import Actor
from floor.models import Table
from floor.poker import seating
from floor.settings import HouseSettings
from tests.e2e.conftest import shot
from tests.servers import browser_login

PLAYERS = {1: 1, 3: 2, 4: 3, 6: 4, 8: 5, 9: 6}   # seat -> player id (Alice, Bruno, Chloé, David, Elena, Fabian)


def seat_players(db_url: str) -> None:
    engine = create_engine(db_url)
    with Session(engine) as s:
        table = s.execute(select(Table).where(Table.number == 1)).scalar_one()
        for number, player in PLAYERS.items():
            seating.sit(s, Actor.system("test"), HouseSettings(), table, number, player, 50_000)
        s.commit()
    engine.dispose()


def seat(page, n):
    return page.locator(f".pk-seat[data-seat='{n}']")


def badges(page, n) -> list[str]:
    return seat(page, n).locator(".pk-badge").all_inner_texts()


def new_hand(page, number: int) -> None:
    page.click("#pk-new-hand")
    page.wait_for_function(f"document.getElementById('pk-hand').textContent === 'Hand #{number}'")


def button_on_seat_3(page_as, db_url: str):
    """The six players seated, the dealer's terminal open, the button put on seat 3 (Bruno)."""
    seat_players(db_url)
    page = page_as("dealer", table=1)
    page.wait_for_selector("#live-dot.on")
    seat(page, 3).click()
    page.click("text=Put the button here")
    page.wait_for_function("document.querySelector(\".pk-seat[data-seat='3'] .pk-badge.button\") !== null")
    return page


def test_dealer_terminal_through_hands_with_a_player_sitting_out_and_returning(page_as, live_server, sqlite_url):
    seat_players(sqlite_url)
    page = page_as("dealer", table=1)
    assert page.url.endswith("/dealer/1")
    page.wait_for_selector("#live-dot.on")
    assert seat(page, 1).locator(".pk-name").inner_text() == "Alice Martin"
    assert "free" in seat(page, 2).inner_text()
    assert page.locator("#pk-hand").inner_text() == "No hand yet"

    # The draw puts the button on seat 3 (Bruno): the terminal previews SB 4, BB 6.
    seat(page, 3).click()
    page.click("text=Put the button here")
    page.wait_for_function("document.querySelector(\".pk-seat[data-seat='3'] .pk-badge.button\") !== null")
    assert badges(page, 4) == ["SB"] and badges(page, 6) == ["BB"]
    assert "SB 2.00" in seat(page, 4).inner_text()
    new_hand(page, 1)                                   # D3 S4 B6
    assert badges(page, 3) == ["D"] and badges(page, 4) == ["SB"] and badges(page, 6) == ["BB"]
    assert "SB 2.00" in seat(page, 4).inner_text() and "BB 5.00" in seat(page, 6).inner_text()
    assert "Next: D 4 · SB 6 · BB 8" in page.locator("#pk-center").inner_text()
    shot(page, "dealer_poker_hand1")

    # Elena (seat 8, big blind next) steps away: the big blind skips her, nobody posts for her.
    seat(page, 8).click()
    page.click("[data-action=away]")
    page.wait_for_selector(".pk-seat.away[data-seat='8']")
    assert "Away 0:0" in seat(page, 8).inner_text()
    assert "Next: D 4 · SB 6 · BB 9" in page.locator("#pk-center").inner_text()
    assert "Seat 8 Elena Rossi misses the big blind → ticket" in page.locator("#pk-next").inner_text()
    new_hand(page, 2)                                   # D4 S6 B9: the big blind passed her -> ticket 1
    assert seat(page, 8).locator(".pk-tix i.on").count() == 1
    assert badges(page, 9) == ["BB"] and badges(page, 8) == []
    new_hand(page, 3)                                   # D6 S9 B1: the small blind passed her -> ticket 2
    assert seat(page, 8).locator(".pk-tix i.on").count() == 2
    new_hand(page, 4)                                   # D9 S1 B3
    assert "owes 5.00 live + 2.00 dead" in seat(page, 8).inner_text()
    shot(page, "dealer_poker_away")

    # She comes back: she posts big live + small dead on the next hand.
    seat(page, 8).click()
    assert "missed both blinds" in page.locator("#pk-sheet").inner_text()
    shot(page, "dealer_poker_seat_sheet")
    page.click("[data-action=back]")
    page.wait_for_function("!document.querySelector(\".pk-seat[data-seat='8']\").classList.contains('away')")
    assert "next: Posts 5.00 + dead SB 2.00" in seat(page, 8).inner_text()
    assert "Seat 8 Elena Rossi · Posts 5.00" in page.locator("#pk-next").inner_text()
    new_hand(page, 5)                                   # D1 S3 B4, seat 8 posts 5 live + 2 dead
    assert "Posts 5.00 + dead SB 2.00" in seat(page, 8).inner_text()
    other = requests.Session()
    token = browser_login(other, live_server.url, "manager")
    last = other.get(f"{live_server.url}/api/poker/tables/1").json()["last_hand"]
    assert {(p["kind"], p["amount"], p["live"]) for p in last["postings"] if p["seat"] == 8} == {
        ("entry", 500, True), ("dead_small", 200, False)}
    new_hand(page, 6)                                   # D3 S4 B6: she plays on, owing nothing
    assert "in the hand" in seat(page, 8).inner_text()
    assert seat(page, 8).locator(".pk-tix i.on").count() == 2   # tickets stay for her stay at the table

    # A straddle for this hand, then a warning for showing cards too early.
    page.click("#pk-straddle")
    page.wait_for_function("document.querySelector('#pk-center').textContent.includes('straddled')")
    assert badges(page, 8) == ["STR"]
    seat(page, 4).click()
    page.click("[data-action=warning]")
    page.click("[data-reason=cards_shown_early]")
    page.wait_for_function("document.querySelector(\".pk-seat[data-seat='4'] .pk-warn\") !== null")
    assert "⚠ 1/3" in seat(page, 4).inner_text()
    shot(page, "dealer_poker_warning")

    # The floor tablet shows the warning; two more from the floor ban him and free his seat, live.
    floor = page_as("manager")
    floor.wait_for_selector("#conduct-warnings li[data-warning]")
    assert "Chloé Favre" in floor.locator("#conduct-warnings").inner_text()
    for reason in ("electronic_device", "left_without_word"):
        r = other.post(f"{live_server.url}/api/conduct/warnings", headers={"X-CSRFToken": token},
                       json={"player_id": 3, "reason": reason, "ban_confirmed": reason == "left_without_word"})
        assert r.status_code == 201
    assert r.json()["banned"] is True
    floor.wait_for_selector("#conduct-bans li.ban")
    assert "Chloé Favre" in floor.locator("#conduct-bans").inner_text()
    page.wait_for_function("document.querySelector(\".pk-seat[data-seat='4']\").textContent.includes('free')")
    shot(floor, "floor_conduct_panel")
    shot(page, "dealer_poker_after_ban")


def test_an_older_answer_arriving_late_never_steps_the_terminal_back(page_as, sqlite_url):
    """A refresh asked before the dealer's tap can be answered after it, with the table as it was: the
    terminal keeps showing the newer state (a terminal that stepped back would, for one, ask to deal a
    hand that frees the seat of a player who is back)."""
    page = button_on_seat_3(page_as, sqlite_url)

    # From here every refresh of the table is answered by the server at once, and the answer waits
    # until the test lets it reach the page, in the order the test chooses.
    held = []

    def hold(route) -> None:
        if route.request.method != "GET":
            route.continue_()
        else:
            held.append((route, route.fetch()))
    page.route("**/api/poker/tables/1", hold)

    def until_held(count: int, what: str) -> None:
        for _ in range(1200):   # a hang guard of a minute or more; what is waited on is the request
            if len(held) >= count:
                return
            page.wait_for_timeout(50)   # lets the page's requests reach the route meanwhile
        raise AssertionError(f"never asked: {what}")

    def let_go(route, answer) -> None:
        before = page.evaluate("Number(document.documentElement.dataset.answers || 0)")
        route.fulfill(response=answer)
        page.wait_for_function("(n) => Number(document.documentElement.dataset.answers) > n", arg=before)

    seat(page, 8).click()
    page.click("[data-action=away]")
    page.wait_for_selector(".pk-seat.away[data-seat='8']")       # the answer to the tap
    until_held(1, "the refresh after the live update")          # asked after the tap's answer
    assert next(x for x in held[0][1].json()["seats"] if x["number"] == 8)["away"]   # it says she is away
    asked_before = len(held)   # counted before the tap: the refresh it brings can be held before its answer shows
    seat(page, 8).click()
    page.click("[data-action=back]")
    page.wait_for_function("!document.querySelector(\".pk-seat[data-seat='8']\").classList.contains('away')")
    until_held(asked_before + 1, "the refresh once she is back")
    # The answers come in the reverse order of their asking: the one that says she is away, last.
    for route, answer in reversed(held):
        let_go(route, answer)
    assert "away" not in (seat(page, 8).get_attribute("class") or "")
    assert "Away" not in seat(page, 8).inner_text()
    page.unroute("**/api/poker/tables/1")
    new_hand(page, 1)
    assert badges(page, 8) == [] and "in the hand" in seat(page, 8).inner_text()


def test_a_live_update_keeps_the_buttons_it_does_not_change(page_as, live_server, sqlite_url):
    """The table is redrawn on every live update; a button whose part of the terminal did not change
    stays the same button, so a tap in progress during an update still lands on it."""
    page = button_on_seat_3(page_as, sqlite_url)
    new_hand(page, 1)
    page.evaluate("window.__newHand = document.getElementById('pk-new-hand')")

    # The floor warns Chloé (seat 4): her seat shows it, the centre of the table is as it was.
    floor = requests.Session()
    token = browser_login(floor, live_server.url, "manager")
    r = floor.post(f"{live_server.url}/api/conduct/warnings", headers={"X-CSRFToken": token},
                   json={"player_id": 3, "reason": "electronic_device"})
    assert r.status_code == 201, r.text
    page.wait_for_function("document.querySelector(\".pk-seat[data-seat='4'] .pk-warn\") !== null")
    assert "⚠ 1/3" in seat(page, 4).inner_text()
    assert page.evaluate("window.__newHand === document.getElementById('pk-new-hand') && window.__newHand.isConnected")

    # A new hand changes the centre: the terminal shows the new one, and the tap worked on the kept button.
    new_hand(page, 2)
    assert "Hand #2" in page.locator("#pk-center").inner_text()
