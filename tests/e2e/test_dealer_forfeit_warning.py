"""Before a missed-blind ticket costs a seat, the floor is told (one ticket short) and the dealer's
terminal asks before dealing the hand that frees it: a player away at a four-handed table."""
from __future__ import annotations

from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from floor.actors import Actor
from floor.models import Table
from floor.poker import seating
from floor.settings import HouseSettings
from tests.e2e.conftest import DEALER, IPAD, shot
from tests.e2e.test_dealer_poker import seat


def _four_handed(db_url: str) -> None:
    engine = create_engine(db_url)
    with Session(engine) as s:
        table = s.execute(select(Table).where(Table.number == 1)).scalar_one()
        for number, player in {1: 1, 3: 2, 5: 3, 7: 4}.items():
            seating.sit(s, Actor.system("test"), HouseSettings(), table, number, player, 50_000)
        s.commit()
    engine.dispose()


def _hand_no(page) -> str:
    return page.locator("#pk-hand").inner_text()


def test_the_floor_and_the_dealer_are_warned_before_a_ticket_costs_the_seat(page_as, sqlite_url):
    _four_handed(sqlite_url)
    floor = page_as("manager", device=IPAD)
    floor.wait_for_selector("#live-dot.on")
    page = page_as("dealer", table=1, device=DEALER)
    page.wait_for_selector("#live-dot.on")
    seat(page, 1).click()
    page.click("text=Put the button here")
    page.wait_for_function("document.querySelector(\".pk-seat[data-seat='1'] .pk-badge.button\") !== null")
    seat(page, 5).click()                    # Chloé steps away
    page.click("[data-action=away]")
    page.wait_for_selector(".pk-seat.away[data-seat='5']")

    hands = 0
    while not page.locator(".pk-forfeit").count():
        assert hands < 8, "no hand ever threatened the seat"
        before = _hand_no(page)
        page.click("#pk-new-hand")
        page.wait_for_function("(before) => document.getElementById('pk-hand').textContent !== before", arg=before)
        hands += 1
    # One ticket short: the floor was told while she could still come back.
    assert seat(page, 5).locator(".pk-tix i.on").count() == 2
    floor.locator("#alerts li", has_text="the next one costs the seat").wait_for()
    assert "Chloé Favre" in floor.locator("#alerts").inner_text()
    warning = page.locator(".pk-forfeit").inner_text()
    assert "Seat 5: Chloé Favre gets missed-blind ticket 3 with this hand and loses the seat." == warning
    shot(page, "dealer_forfeit_warning")

    # "New hand" asks first; "Cancel" deals nothing.
    before = _hand_no(page)
    page.click("#pk-new-hand")
    confirm = page.locator("dialog.confirm-dialog[open]")
    confirm.wait_for()
    shot(page, "dealer_forfeit_confirm")
    confirm.locator("[data-action=cancel]").click()
    confirm.wait_for(state="detached")
    assert _hand_no(page) == before and seat(page, 5).locator(".pk-name").inner_text() == "Chloé Favre"
    page.click("#pk-new-hand")
    confirm.locator("[data-action=confirm]").click()
    page.wait_for_function("(before) => document.getElementById('pk-hand').textContent !== before", arg=before)
    page.wait_for_function("document.querySelector(\".pk-seat[data-seat='5']\").textContent.includes('free')")
    floor.locator("#alerts li", has_text="gave up the seat").wait_for()
