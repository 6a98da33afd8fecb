"""The admin's floor layout page on a tablet, in English, French and German: a game and a table made
and changed with taps, a wrong amount refused in the page's language with nothing saved, no horizontal
scroll, every target 44 px at least."""
from __future__ import annotations

import pytest
import requests
from sqlalchemy import select
from sqlalchemy.orm import Session

from floor.models import AuditRecord, Game, Table
from tests.conftest import make_engine
from tests.e2e.conftest import IPAD, IPAD_PORTRAIT, shot

pytestmark = pytest.mark.e2e

SMALL_TARGETS = """() => [...document.querySelectorAll("button, a[href], select, input:not([type=hidden])")]
  .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden")
  .map(el => { const r = el.getBoundingClientRect(); return [el.outerHTML.slice(0, 80), Math.round(r.width), Math.round(r.height)]; })
  .filter(([, w, h]) => w < 44 || h < 44)"""
REFUSED = {"en": "the minimum bet is above zero and no more than the maximum",
           "fr": "la mise minimale est au-dessus de zéro et pas plus que la maximale",
           "de": "der Mindesteinsatz ist über null und nicht höher als der Höchsteinsatz"}
HEADING = {"en": "Floor layout", "fr": "Plan de la salle", "de": "Saalplan"}


def _admin(browser, live_server, lang: str, device=IPAD):
    ctx = browser.new_context(**device, base_url=live_server.url)
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    page.goto(f"/login?lang={lang}")
    page.fill("input[name=username]", "admin")
    page.fill("input[name=password]", "floorman-demo")
    with page.expect_navigation():
        page.click("button[type=submit]")
    page.goto("/admin/floor")
    page.wait_for_selector("#la-tables li[data-table]")
    return ctx, page


@pytest.mark.parametrize("lang, number", [("en", 41), ("fr", 42), ("de", 43)])
def test_an_admin_makes_a_game_and_a_table_on_the_tablet(browser, live_server, sqlite_url, lang, number):
    ctx, page = _admin(browser, live_server, lang)
    assert page.locator("h1").inner_text() == HEADING[lang]
    name = f"Baccarat 25-2500 {lang}"
    form = page.locator("#la-game-form")
    form.locator("input[name=name]").fill(name)
    form.locator("select[name=kind]").select_option("baccarat")
    form.locator("input[name=min_bet]").fill("2500")
    form.locator("input[name=max_bet]").fill("25")
    form.locator("button[type=submit]").click()
    error = form.locator(".error")
    error.wait_for(state="visible")
    assert error.inner_text() == REFUSED[lang]          # the server's refusal, in the page's language
    form.locator("input[name=min_bet]").fill("25")
    form.locator("input[name=max_bet]").fill("2500,50")
    form.locator("button[type=submit]").click()
    page.wait_for_selector(f"#la-games li:has-text('{name}')")

    tform = page.locator("#la-table-form")
    tform.locator("input[name=number]").fill(str(number))
    tform.locator("input[name=name]").fill("Baccarat salon")
    tform.locator("input[name=seats]").fill("9")
    game_id = tform.locator("select[name=game_id] option", has_text=name).get_attribute("value")
    tform.locator("select[name=game_id]").select_option(game_id)
    tform.locator("button[type=submit]").click()
    row = page.locator(f"#la-tables li[data-table='{number}']")
    row.wait_for()
    # changed: renamed and one seat fewer, through the row's own button
    row.locator("button").click()
    tform.locator("input[name=name]").fill("Baccarat privé")
    tform.locator("input[name=seats]").fill("8")
    tform.locator("button[type=submit]").click()
    page.wait_for_selector(f"#la-tables li[data-table='{number}']:has-text('Baccarat privé')")

    for device, label in ((IPAD, "landscape"), (IPAD_PORTRAIT, "portrait")):
        page.set_viewport_size(device["viewport"])
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "horizontal scroll"
        assert page.evaluate(SMALL_TARGETS) == []
        shot(page, f"admin-floor-{lang}-{label}")
    ctx.close()

    engine = make_engine(sqlite_url)
    with Session(engine) as s:
        game = s.execute(select(Game).where(Game.name == name)).scalar_one()
        assert (game.kind, game.min_bet, game.max_bet) == ("baccarat", 2500, 250050)
        table = s.execute(select(Table).where(Table.number == number)).scalar_one()
        assert (table.name, table.seat_count, table.status, table.game_id) == ("Baccarat privé", 8, "closed", game.id)
        actions = s.execute(select(AuditRecord.action).where(AuditRecord.subject.in_(
            (f"game:{game.id}", f"table:{table.id}"))).order_by(AuditRecord.id)).scalars().all()
        assert actions == ["game.create", "table.create", "table.change"]
    engine.dispose()


def test_only_an_admin_changes_the_layout(live_server):
    s = requests.Session()
    from tests.servers import browser_login
    token = browser_login(s, live_server.url, "manager")
    assert s.get(live_server.url + "/admin/floor").status_code == 403
    resp = s.post(live_server.url + "/api/layout/tables", json={"number": 50, "name": "x", "game_id": 1, "seats": 7},
                  headers={"X-CSRFToken": token})
    assert resp.status_code == 403
