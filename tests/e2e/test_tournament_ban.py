"""A ban made while a tournament runs, seen by the director on the tablet in German: the shift manager
bans a seated player from the floor's other tablet, and the director's players list shows him out,
banned, without a reload; the chips in play drop by his stack and the counts still add up."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import requests
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from floor.models import Player, TournamentEntry
from floor.tournaments import clock, core, registration
from tests.e2e.conftest import IPAD, shot
from tests.floor.tournaments.helpers import HOUSE, manager, players, tables, tournament
from tests.servers import browser_login


def _arrange(url) -> tuple[int, int, int, str]:
    """Four players at one table, the clock running, late registration closed."""
    engine = create_engine(url)
    with Session(engine) as s:
        now = datetime.now(timezone.utc)
        tables(s, (41,))
        ids = players(s, 4)
        t = tournament(s, name="Freitags-Turbo", table_numbers=[41])
        m = manager(s)
        for p in ids:
            registration.register(s, m, HOUSE, t.id, p, "cash", now - timedelta(minutes=5))
        clock.start(s, m, t.id, now - timedelta(minutes=1))
        t.registration_closed_at = now
        s.commit()
        banned = core.entries(s, t, "seated")[0]
        out = (t.id, banned.id, banned.player_id, s.execute(select(Player.name).where(Player.id == banned.player_id)).scalar_one())
    engine.dispose()
    return out


def test_the_director_sees_a_player_banned_mid_tournament_go_out(browser, live_server, sqlite_url):
    tid, entry_id, player_id, name = _arrange(sqlite_url)
    ctx = browser.new_context(**IPAD, base_url=live_server.url)
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    page.goto("/login?lang=de")
    page.fill("input[name=username]", "manager")
    page.fill("input[name=password]", "floorman-demo")
    with page.expect_navigation():
        page.click("button[type=submit]")
    page.goto("/tournaments")
    page.wait_for_selector("#live-dot.on")
    page.click(".tn-tabs button:has-text('Freitags-Turbo')")
    row = f"tr[data-entry='{entry_id}']"
    page.wait_for_selector(f"{row}[data-status='seated']")
    assert page.locator(".tn-count-ok").count() == 1

    floor = requests.Session()
    token = browser_login(floor, live_server.url, "manager")
    r = floor.post(f"{live_server.url}/api/conduct/bans", headers={"X-CSRFToken": token},
                   json={"player_id": player_id, "reason": "hat den Dealer bedroht"})
    assert r.status_code == 201, r.text

    page.wait_for_selector(f"{row}[data-status='out'] td.tn-banned")
    assert page.locator(f"{row} td.tn-banned").inner_text() == "ausgeschieden: gesperrt"
    assert name in page.locator(row).inner_text()
    assert page.locator(f"{row} input.tn-out").count() == 0        # nobody can record him out again
    assert page.locator(".tn-count-ok").count() == 1               # his chips left play with him
    shot(page, "tournament_ban_de")
    engine = create_engine(sqlite_url)
    with Session(engine) as s:
        e = s.get(TournamentEntry, entry_id)
        assert (e.status, e.place, e.seat) == ("out", 4, None)
    engine.dispose()
    ctx.close()
