"""The cage sells a rebuy from the tournament tablet while the structure offers it; the receipt lists
it; the floor manager's form for a new tournament takes the rebuy and add-on terms."""
from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from floor import ledger
from floor.games import tournament as rules
from floor.models import TournamentPurchase
from floor.tournaments import clock, core, registration
from tests.e2e.conftest import shot
from tests.floor.tournaments.helpers import HOUSE, manager, players, tables, tournament

STRUCTURE = rules.structure_to_data(dataclasses.replace(
    rules.DAILY_TURBO, rebuy=rules.Rebuys(price=5_000, fee=500, chips=20_000, until_level=3)))


def _arrange(url):
    engine = create_engine(url)
    s = Session(engine)
    start = datetime.now(timezone.utc) - timedelta(minutes=20)        # level 2: rebuys on sale
    t = tournament(s, table_numbers=tables(s, (41,)), structure=STRUCTURE)
    m = manager(s)
    for p in players(s, 4):
        registration.register(s, m, HOUSE, t.id, p, "cash", start)
    clock.start(s, m, t.id, start)
    s.commit()
    out = t.id, core.entries(s, t, "seated")[0].id
    s.close()
    engine.dispose()
    return out


def _page(browser, server, user):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=server.url)
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    page.goto("/login")
    page.fill("input[name=username]", user)
    page.fill("input[name=password]", "floorman-demo")
    page.click("button[type=submit]")
    page.wait_for_load_state("networkidle")
    return page


def test_the_cage_sells_a_rebuy_and_the_receipt_shows_it(browser, live_server, sqlite_url):
    tid, eid = _arrange(sqlite_url)
    cage = _page(browser, live_server, "cashier")
    cage.goto("/tournaments")
    cage.wait_for_selector("#live-dot.on")
    cage.on("dialog", lambda d: pytest.fail(f"a browser {d.type} dialog: the app asks in its own"))
    cage.click(f"tr[data-entry='{eid}'] .tn-rebuy")
    cage.fill(".ask-dialog #ask-value", "0")
    cage.click(".ask-dialog [data-action=confirm]")
    cage.wait_for_selector(f"tr[data-entry='{eid}'] .tn-bought")
    shot(cage, "tournament-rebuy")
    engine = create_engine(sqlite_url)
    with Session(engine) as s:
        (p,) = s.query(TournamentPurchase).all()
        assert (p.kind, p.price, p.fee, p.chips) == ("rebuy", 5_000, 500, 20_000)
        t = core.get(s, tid)
        assert ledger.balance(s, core.account(s, t, "prize_pool")) == 4 * 10_000 + 5_000
    engine.dispose()
    cage.goto(f"/tournaments/{tid}/entries/{eid}/receipt")
    assert "Rebuy" in cage.inner_text(".tr-purchase")
    shot(cage, "tournament-rebuy-receipt")
    floor = _page(browser, live_server, "manager")
    floor.goto("/tournaments")
    floor.click("#tn-create summary")
    floor.wait_for_selector("#tn-new-rebuy-price")
    shot(floor, "tournament-create-with-rebuys")
