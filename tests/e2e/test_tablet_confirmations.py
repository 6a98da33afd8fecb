"""Taps that cannot be taken back ask first on the floor's iPad (close a table, take a player off a
list, cancel a call, the warning that bans); closing a table with a round running is refused with
the reason, shown above everything."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from floor import rounds
from floor.actors import Actor
from floor.models import Table
from floor.poker import conduct, waitlist
from floor.rounds import bets
from floor.settings import HouseSettings
from floor.tables import table_by_number
from tests.e2e.conftest import IPAD, shot
from tests.floor.poker_helpers import HOUSE, manager

DEALER = Actor.system("test dealer")


def _arrange(sqlite_url: str) -> None:
    """Blackjack 14 dealing a round with three bets; two players on the Hold'em list; Iris with two warnings."""
    engine = create_engine(sqlite_url, connect_args={"timeout": 30})
    now = datetime.now(timezone.utc)
    with Session(engine) as s:
        m = manager(s, "manager2")
        t14 = table_by_number(s, 14).id
        rounds.open_betting(s, DEALER, t14, now, house=HouseSettings())
        for seat in (1, 2, 3):
            bets.place(s, DEALER, t14, spot="bet", amount=1_000, seat=seat, source="dealer", at=now, house=HOUSE)
        rounds.close_betting(s, DEALER, t14, now)
        for pid in (3, 5):
            waitlist.add(s, m, 1, pid, now - timedelta(minutes=20))
        for reason in ("cards_shown_early", "electronic_device"):
            conduct.give_warning(s, m, 9, reason, HOUSE, now=now - timedelta(minutes=30))
        s.commit()
    engine.dispose()


def _status(sqlite_url: str, number: int) -> str:
    engine = create_engine(sqlite_url)
    with Session(engine) as s:
        status = s.query(Table).filter_by(number=number).one().status
    engine.dispose()
    return status


def test_destructive_taps_ask_first_and_a_running_round_keeps_its_table(page_as, sqlite_url):
    _arrange(sqlite_url)
    page = page_as("manager", device=IPAD)
    page.wait_for_selector("#live-dot.on")
    confirm = page.locator("dialog.confirm-dialog[open]")

    # Close, then think again: the table stays open.
    page.locator("article.fl-table[data-table='12'] [data-action=close-table]").tap()
    confirm.wait_for()
    assert "Close table 12?" in confirm.inner_text()
    shot(page, "tablet_confirm_close")
    confirm.locator("[data-action=cancel]").tap()
    confirm.wait_for(state="detached")
    assert _status(sqlite_url, 12) == "open"
    page.locator("article.fl-table[data-table='12'] [data-action=close-table]").tap()
    confirm.locator("[data-action=confirm]").tap()
    page.locator("article.fl-table[data-table='12'] [data-action=open-table]").wait_for()
    assert _status(sqlite_url, 12) == "closed"

    # Blackjack 14 is dealing with three bets on the layout: refused, with the reason.
    page.locator("article.fl-table[data-table='14'] [data-action=close-table]").tap()
    confirm.locator("[data-action=confirm]").tap()
    toast = page.locator("#toasts .toast", has_text="round 1 running")
    toast.wait_for()
    assert "dealing" in toast.inner_text() and "3" in toast.inner_text()
    assert _status(sqlite_url, 14) == "open"
    shot(page, "tablet_close_refused")

    # Take a player off the list: asked, and kept on "Cancel".
    entry = page.locator(".fl-list[data-game='1'] li.fl-entry[data-player='3']")
    entry.locator("[data-action=remove]").tap()
    assert "Take Chloé Favre off the list?" in confirm.inner_text()
    confirm.locator("[data-action=cancel]").tap()
    confirm.wait_for(state="detached")
    assert entry.is_visible()
    entry.locator("[data-action=remove]").tap()
    confirm.locator("[data-action=confirm]").tap()
    entry.wait_for(state="detached")

    # The third warning says what it does before it does it.
    panel = page.locator("#conduct-panel")
    panel.locator("input[name=player]").fill("Iris")
    panel.locator("select[name=reason]").select_option("electronic_device")
    panel.locator(".search-results[data-query='Iris'] button", has_text="Iris Müller").wait_for()   # then the button stays put
    panel.locator("button[type=submit]").tap()
    confirm.wait_for()
    assert "Warn and ban Iris Müller?" in confirm.inner_text() and "warning 3" in confirm.inner_text()
    shot(page, "tablet_confirm_third_warning")
    confirm.locator("[data-action=cancel]").tap()
    confirm.wait_for(state="detached")
    assert page.locator("#conduct-bans li", has_text="Iris").count() == 0
    panel.locator("button[type=submit]").tap()
    confirm.locator("[data-action=confirm]").tap()
    page.locator("#conduct-bans li", has_text="Iris Müller").wait_for()
