"""The pit boss cancels a running tournament in a real browser: picks the formula, sees what each
player left gets, confirms twice (reason, then the amounts), and the ledger pays exactly that."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from floor import ledger
from floor.models import Tournament
from floor.tournaments import clock, core, eliminations, registration
from tests.e2e.conftest import shot
from tests.floor.tournaments.helpers import HOUSE, manager, players, tables, tournament


def _arrange(url):
    engine = create_engine(url)
    s = Session(engine)
    start = datetime.now(timezone.utc) - timedelta(minutes=110)
    t = tournament(s, table_numbers=tables(s, (41,)))
    m = manager(s)
    ids = players(s, 5)
    for p in ids:
        registration.register(s, m, HOUSE, t.id, p, "cash", start)
    clock.start(s, m, t.id, start)
    a, b, c, d, e = core.entries(s, t, "seated")
    eliminations.bust(s, m, HOUSE, t.id, [{"entry_id": a.id, "chips_at_start": 100}], [b.id],
                      now=datetime.now(timezone.utc) - timedelta(minutes=1))
    for x, chips in zip((b, c, d, e), (40_000, 30_000, 20_000, 10_000)):
        x.chips = chips
    s.commit()
    out = t.id, [x.id for x in (b, c, d, e)], {x.id: x.player_id for x in (a, b, c, d, e)}, a.id
    s.close()
    engine.dispose()
    return out


def test_the_pit_boss_sees_the_settlement_confirms_and_it_is_paid(browser, live_server, sqlite_url):
    tid, left, player_of, out = _arrange(sqlite_url)
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=live_server.url)
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    page.goto("/login")
    page.fill("input[name=username]", "pitboss")
    page.fill("input[name=password]", "floorman-demo")
    page.click("button[type=submit]")
    page.wait_for_load_state("networkidle")
    page.goto("/tournaments")
    page.wait_for_selector("#live-dot.on")
    page.select_option("#tn-cancel-rule", "online_room")
    page.get_by_role("button", name="Show the settlement").click()
    page.wait_for_selector(".tn-settlement")
    totals = [page.inner_text(f".tn-settlement tr[data-entry='{i}'] .tn-amount").replace("\xa0", " ") for i in left]
    assert totals == ["CHF 152.38", "CHF 146.63", "CHF 140.87", "CHF 135.12"]
    shot(page, "tournament-cancel-settlement")
    page.on("dialog", lambda d: pytest.fail(f"a browser {d.type} dialog: the app asks in its own"))
    page.get_by_role("button", name="Confirm and pay").click()
    page.fill(".ask-dialog #ask-value", "fire alarm")
    page.click(".ask-dialog [data-action=confirm]")
    page.click(".confirm-dialog:not(.ask-dialog) [data-action=confirm]")
    page.wait_for_selector(".tn-clock[data-status='cancelled']")
    engine = create_engine(sqlite_url)
    with Session(engine) as s:
        t = s.get(Tournament, tid)
        assert t.status == "cancelled"
        got = [ledger.player_balance(s, player_of[i]) for i in left]
        assert got == [15_238, 14_663, 14_087, 13_512]
        assert ledger.player_balance(s, player_of[out]) == 0
    engine.dispose()
