"""Registering a player on the floor's iPad in one sheet, warned of a likely duplicate, and picking
players by part of a name or card number (lists and warnings)."""
from __future__ import annotations

from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from floor.models import Player
from tests.e2e.conftest import IPAD, shot


def _players_named(sqlite_url: str, name: str) -> list[str]:
    engine = create_engine(sqlite_url)
    with Session(engine) as s:
        cards = list(s.execute(select(Player.card_number).where(Player.name == name).order_by(Player.id)).scalars())
    engine.dispose()
    return cards


def test_register_a_player_read_from_his_card_with_a_duplicate_warning(page_as, sqlite_url):
    page = page_as("manager", device=IPAD)
    page.wait_for_selector("#live-dot.on")
    nlh = page.locator(".fl-list[data-game='1']")
    nlh.locator("[data-action=add-player]").tap()
    page.locator("#fl-sheet [data-action=register]").tap()
    card = page.locator("#fl-sheet input[name=card_number]")
    card.wait_for()
    # The card reader types like a keyboard: the stripe's sentinels, the number, Enter.
    assert page.evaluate("document.activeElement.name") == "card_number"
    page.keyboard.type(";99000123=4711?")
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.name === 'name'")
    assert card.input_value() == "99000123"
    page.keyboard.type("alice martin")
    page.fill("#fl-sheet input[name=phone]", "+41 79 555 12 12")
    page.locator("#fl-sheet [data-action=use-registered]", has_text="70000001").wait_for()

    page.locator("#fl-sheet [data-action=register-confirm]").tap()
    warning = page.locator("#fl-sheet .duplicate-warning")
    warning.get_by_text("already registered").wait_for()
    assert "70000001" in warning.inner_text()
    shot(page, "tablet_register_duplicate_warning")
    assert _players_named(sqlite_url, "Alice Martin") == ["70000001"]

    page.locator("#fl-sheet [data-action=register-anyway]").tap()
    page.wait_for_selector("#fl-sheet", state="hidden")
    nlh.locator("li.fl-entry", has_text="alice martin").wait_for()
    assert _players_named(sqlite_url, "alice martin") == ["99000123"]


def test_the_registered_player_is_added_instead_of_a_copy(page_as, sqlite_url):
    page = page_as("manager", device=IPAD)
    page.wait_for_selector("#live-dot.on")
    page.locator("#fl-register").tap()
    page.fill("#fl-sheet input[name=card_number]", "70000011")
    page.locator("#fl-sheet [data-action=use-registered]", has_text="Karin Huber").wait_for()
    shot(page, "tablet_register_known_card")


def test_players_are_found_by_part_of_a_name_or_card(page_as):
    page = page_as("manager", device=IPAD)
    page.wait_for_selector("#live-dot.on")
    nlh = page.locator(".fl-list[data-game='1']")
    nlh.locator("[data-action=add-player]").tap()
    page.fill("#fl-sheet input[name=q]", "hub kar")
    # The sheet lists every player until the answer to what was typed comes: the tap waits for it.
    page.locator("#fl-sheet .search-results[data-query='hub kar'] button", has_text="Karin Huber").tap()
    nlh.locator("li.fl-entry", has_text="Karin Huber").wait_for()
    # The live list can show her before the answer closes the sheet; while the sheet is open the page
    # behind it takes no typing.
    page.wait_for_selector("#fl-sheet", state="hidden")

    # A warning: part of the name is enough when it finds one player; a tap picks among several.
    panel = page.locator("#conduct-panel")
    panel.locator("input[name=player]").fill("huber")
    panel.locator("select[name=reason]").select_option("electronic_device")
    # The search's results come in above the button and push it down: tapped before they are there,
    # the tap would land on a result (as a person's finger would), not on the button.
    panel.locator(".search-results[data-query='huber'] button", has_text="Karin Huber").wait_for()
    panel.locator("button[type=submit]").tap()
    page.locator("#conduct-warnings li", has_text="Karin Huber").wait_for()
    panel.locator("input[name=player]").fill("0000001")
    panel.locator(".search-results[data-query='0000001'] button", has_text="Alice Martin").tap()
    assert panel.locator("input[name=player]").input_value() == "Alice Martin · 70000001"
    shot(page, "tablet_warning_picker")


def test_the_next_player_typed_while_a_warning_is_on_its_way_stays(page_as):
    """A manager gives a warning and starts typing the next player at once: the answer to the first
    warning, arriving after, clears the form only if it still holds what was sent."""
    page = page_as("manager", device=IPAD)
    page.wait_for_selector("#live-dot.on")
    held = []
    # the first warning's request waits here until the test lets it go; later ones go straight on
    page.route("**/api/conduct/warnings", lambda route: route.continue_() if held else held.append(route))
    panel = page.locator("#conduct-panel")
    panel.locator("input[name=player]").fill("huber")
    panel.locator("select[name=reason]").select_option("electronic_device")
    panel.locator(".search-results[data-query='huber'] button", has_text="Karin Huber").wait_for()   # the button in its place
    with page.expect_request("**/api/conduct/warnings"):
        panel.locator("button[type=submit]").tap()
    panel.locator("input[name=player]").fill("0000001")
    panel.locator(".search-results[data-query='0000001'] button", has_text="Alice Martin").wait_for()
    held[0].continue_()                                   # now the warning goes, and its answer comes
    page.locator("#toasts .toast", has_text="Karin Huber").wait_for()
    page.locator("#conduct-warnings li", has_text="Karin Huber").wait_for()
    assert panel.locator("input[name=player]").input_value() == "0000001"
    panel.locator(".search-results[data-query='0000001'] button", has_text="Alice Martin").tap()
    assert panel.locator("input[name=player]").input_value() == "Alice Martin · 70000001"
    panel.locator("button[type=submit]").tap()
    page.locator("#conduct-warnings li", has_text="Alice Martin").wait_for()
    # this answer came to a form nobody had touched since: cleared for the next one
    page.wait_for_function("document.querySelector('#conduct-panel input[name=player]').value === ''")
