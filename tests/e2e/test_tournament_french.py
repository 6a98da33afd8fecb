"""A tournament of 30 played to its last hand through the tablet's pages only, in French, as a director
on an iPad plays it: the weekly event saved as a template and made from it, 30 players registered by the
player picker, the seats drawn, late registration closed by the director, each player out in two taps
(the player, then the pot's winner at his table), the moves made as proposed, the chip counts entered at
the final table, an ICM deal among the last three agreed player by player on the page and its payouts approved by
a second floor manager on his tablet (the director's own tap refused), the winner placed; the results
page and CSV list 30 places whose prizes add up to the prize pool, to the cent.
Every step waits on what the page shows, never on time."""
from __future__ import annotations

import csv
import io

from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from floor import ledger
from floor.models import Player, Tournament
from floor.tournaments import core
from tests.e2e.conftest import IPAD, shot
from tests.floor.tournaments.helpers import players, tables

COUNT_TAPS = """() => { window.__taps = 0;
  if (!window.__counting) { window.__counting = true; document.addEventListener("pointerdown", () => { window.__taps += 1; }, true); } }"""


def _floor(url) -> dict[int, str]:
    """The card room as it stands before the event: three 10-seat tables and 30 members."""
    engine = create_engine(url)
    with Session(engine) as s:
        tables(s)
        ids = players(s, 30)
        s.commit()
        names = dict(s.execute(select(Player.id, Player.name).where(Player.id.in_(ids))).all())
    engine.dispose()
    return names


def _confirm(page):
    page.click("dialog.confirm-dialog[open] [data-action=confirm]")
    page.wait_for_selector("dialog.confirm-dialog", state="detached")


def _make_moves(page):
    while page.locator("li[data-move] button").count():
        move = page.locator("li[data-move]").first.get_attribute("data-move")
        page.locator(f"li[data-move='{move}'] button").click()
        page.wait_for_selector(f"li[data-move='{move}']", state="detached")


def test_thirty_players_in_french_from_a_template_to_the_last_hand(browser, live_server, sqlite_url):
    names = _floor(sqlite_url)
    ctx = browser.new_context(**IPAD, base_url=live_server.url)
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    page.on("dialog", lambda d: d.dismiss())      # a browser prompt would be dismissed: the flow would stop
    page.goto("/login?lang=fr")
    page.fill("input[name=username]", "manager")
    page.fill("input[name=password]", "floorman-demo")
    with page.expect_navigation():
        page.click("button[type=submit]")
    page.goto("/tournaments")
    page.wait_for_selector("#live-dot.on")
    assert page.evaluate("document.documentElement.lang") == "fr"

    # the weekly event, saved as a template, then made from it in one tap
    page.click("#tn-create summary")
    page.fill("#tn-new-name", "Turbo du vendredi")
    page.fill("#tn-new-buyin", "100")
    page.fill("#tn-new-fee", "15")
    page.fill("#tn-new-reentries", "0")
    page.fill("#tn-new-seats", "10")
    page.fill("#tn-new-tables", "41, 42, 43")
    page.click(".tn-save-template")
    page.fill("dialog.ask-dialog #ask-value", "Vendredi")
    page.click("dialog.ask-dialog [data-action=confirm]")
    page.click(".tn-templates .tn-from-template:has-text('Vendredi')")
    page.wait_for_selector(".tn-clock[data-status='registering'] h2:has-text('Turbo du vendredi')")

    # 30 players by the picker: part of the name, one tap on the player
    for pid, name in names.items():
        page.fill("#tn-player", name)
        page.click(f".tn-register .search-results[data-query='{name}'] button[data-player='{pid}']")
        page.wait_for_selector(f"#tn-receipt:has-text('{name} ·')")
    page.click(".tn-start")
    page.wait_for_function("document.querySelectorAll(\".tn-entries tr[data-status='seated']\").length === 30")

    # the director closes late registration: from now on each player out is placed as he goes
    page.click(".tn-close-registration")
    _confirm(page)
    page.wait_for_selector(".tn-close-registration", state="detached")
    shot(page, "fr-tournament-running")

    # 27 out, each in two taps: the player, then the winner among the players at his table
    page.evaluate(COUNT_TAPS)
    taps = []
    while page.locator(".tn-entries tr[data-status='seated']").count() > 3:
        _make_moves(page)
        victim = page.locator(".tn-out").last.get_attribute("value")
        page.evaluate("() => { window.__taps = 0; }")
        page.click(f".tn-out[value='{victim}']")
        page.click(".tn-bust .tn-winner >> nth=0")
        page.wait_for_selector(f".tn-entries tr[data-entry='{victim}'][data-status='out']")
        taps.append(page.evaluate("window.__taps"))
        place = page.inner_text(f".tn-entries tr[data-entry='{victim}'] td:nth-child(7)")
        assert place.strip(), "a player out with late registration closed is placed at once"
    _make_moves(page)
    assert taps == [2] * 27

    # the final table's chip counts: kept, adding up to the 600,000 chips in play
    left = [page.locator(".tn-out").nth(i).get_attribute("value") for i in range(3)]
    for entry, chips in zip(left, (300_000, 200_000, 100_000)):
        page.fill(f".tn-chips[data-entry='{entry}']", str(chips))
    page.click(".tn-save-count")
    page.wait_for_selector(".tn-count-ok")
    shot(page, "fr-tournament-final-table")

    # an ICM deal among the last three, agreed on the page player by player
    page.select_option("#tn-deal-method", "icm")
    page.click(".tn-deal-compute")
    page.wait_for_function("document.querySelectorAll('.tn-deal tr[data-entry]').length === 3")
    shot(page, "fr-tournament-deal")
    for entry in left:
        page.click(f".tn-deal tr[data-entry='{entry}'] .tn-agree")
        page.wait_for_selector(f".tn-deal tr[data-entry='{entry}'] .tn-agree", state="detached")
    # the deal's money waits for a second person: the director who recorded the agreements cannot pay it
    page.wait_for_selector(".tn-deal-waiting")
    page.click(".tn-deal-approve")
    page.wait_for_selector("#toasts .toast.error")
    assert page.locator(".tn-clock[data-status='running']").count() == 1
    second = browser.new_context(**IPAD, base_url=live_server.url)
    other = second.new_page()
    other.set_default_timeout(60_000)
    other.goto("/login?lang=fr")
    other.fill("input[name=username]", "manager2")
    other.fill("input[name=password]", "floorman-demo")
    with other.expect_navigation():
        other.click("button[type=submit]")
    other.goto("/tournaments")
    other.wait_for_selector("#live-dot.on")
    other.click(".tn-deal-approve")
    other.wait_for_selector(".tn-clock[data-status='finished']")
    shot(other, "fr-tournament-deal-approved")
    second.close()
    page.wait_for_selector(".tn-clock[data-status='finished']")

    engine = create_engine(sqlite_url)
    with Session(engine) as s:
        t = s.execute(select(Tournament).where(Tournament.name == "Turbo du vendredi")).scalar_one()
        tid, pool = t.id, core.prize_pool(s, t)
        entries = core.entries(s, t)
        assert t.status == "finished" and pool == 30 * 10_000
        assert sorted(e.place for e in entries) == list(range(1, 31))
        by_stack = sorted((e for e in entries if str(e.id) in left), key=lambda e: e.place)
        assert [e.chips for e in by_stack] == [300_000, 200_000, 100_000]     # the deal placed them by chips
        assert ledger.balance(s, core.account(s, t, "prize_pool")) == 0
    engine.dispose()

    page.goto(f"/tournaments/{tid}/results")
    page.wait_for_function("document.querySelectorAll('.tr-standings tbody tr').length === 30")
    shot(page, "fr-tournament-results")
    answer = page.request.get(f"/api/tournaments/{tid}/results.csv")
    assert answer.status == 200
    rows = list(csv.DictReader(io.StringIO(answer.text())))
    assert sorted(int(r["place"]) for r in rows) == list(range(1, 31))
    assert sum(int(r["prize_cents"]) for r in rows) == pool
    ctx.close()
