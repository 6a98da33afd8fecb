"""Every tournament page fits an iPad's width, landscape (1,024 px) and portrait (768 px), in English,
French and German: nothing wider than the screen (the document's scrollWidth), every touch target at
least 44 x 44 px, and no serious or critical accessibility violation (axe-core from npm). One server
for the module, with a tournament running (one player out, a move made) on it."""
from __future__ import annotations

import pytest
import requests

from tests.conftest import template_copy
from tests.e2e.conftest import IPAD, IPAD_PORTRAIT, shot
from tests.e2e.test_tablet_pages import AXE, SMALL_TARGETS
from tests.servers import Server, browser_login

# (user, path, what shows once its data is in)
PAGES = [
    ("manager", "/tournaments", ".tn-entries tbody tr[data-status='seated']"),
    ("manager", "/tournaments/1/results", ".tr-standings tbody tr"),
    ("cashier", "/tournaments/1/entries/2/receipt", ".tr-receipt .tr-seat"),
    ("display", "/tournaments/1/clock", ".tc-time"),
    ("pitboss", "/dealer/2", "#td .tn-entries tbody tr"),
]
NOT_TOUCHED = ("/tournaments/1/clock",)     # the TV clock is read, never tapped
WIDTHS = {"1024": IPAD, "768": IPAD_PORTRAIT}


@pytest.fixture(scope="module")
def server(sqlite_template, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tournament-widths")
    srv = Server(template_copy(sqlite_template, tmp), tmp / "instance").wait()
    s = requests.Session()
    h = {"X-CSRFToken": browser_login(s, srv.url, "manager")}
    r = s.post(f"{srv.url}/api/tournaments", headers=h, json={
        "name": "Tournoi hebdomadaire Deep Stack", "game_id": 1, "buy_in": 10_000, "fee": 1_500,
        "bounty_kind": "knockout", "bounty": 2_000, "guarantee": 500_000, "seats_per_table": 9,
        "table_numbers": [2, 3]})
    assert r.status_code == 201, r.text
    for player in range(9, 21):
        assert s.post(f"{srv.url}/api/tournaments/1/entries", json={"player_id": player}, headers=h).status_code == 201
    seated = s.post(f"{srv.url}/api/tournaments/1/start", headers=h).json()["entries"]
    mate = next(e for e in seated if e["table"] == seated[0]["table"] and e["id"] != seated[0]["id"])
    assert s.post(f"{srv.url}/api/tournaments/1/busts", headers=h, json={
        "busts": [{"entry_id": seated[0]["id"], "chips_at_start": 5_000}], "winners": [mate["id"]]}).status_code == 201
    yield srv
    srv.stop(wait=False)


@pytest.fixture(scope="module")
def logins() -> dict:
    return {}


def _page(browser, server, logins, user, device, lang):
    ctx = browser.new_context(**device, base_url=server.url, storage_state=logins.get((user, lang)))
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    if (user, lang) not in logins:
        page.goto(f"/login?lang={lang}")      # pins this terminal to the language
        page.fill("input[name=username]", user)
        page.fill("input[name=password]", "floorman-demo")
        with page.expect_navigation():
            page.click("button[type=submit]")
        logins[(user, lang)] = ctx.storage_state()
    return ctx, page


@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_every_tournament_page_fits_the_tablet(browser, server, logins, lang, width):
    assert AXE.exists(), "npm ci installs axe-core (package.json devDependencies)"
    device = WIDTHS[width]
    problems = []
    for user, path, ready in PAGES:
        ctx, page = _page(browser, server, logins, user, device, lang)
        page.goto(path)
        page.wait_for_selector(ready)
        page.wait_for_load_state("networkidle")
        assert page.evaluate("document.documentElement.lang") == lang
        if path == "/tournaments":           # the form for a new tournament, open: its rows fit too
            page.click("#tn-create summary")
            page.wait_for_selector("#tn-new-rebuy-price")
        wide = page.evaluate("""() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth,
          over: [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1
            && getComputedStyle(e).position !== 'fixed' && !e.closest('[hidden]')).slice(0, 4).map(e => e.outerHTML.slice(0, 80)) })""")
        if wide["doc"] > wide["view"]:
            problems.append(f"{path}: {wide['doc']} px wide at {wide['view']} ({wide['over']})")
        if path not in NOT_TOUCHED:
            small = page.evaluate(SMALL_TARGETS)
            if small:
                problems.append(f"{path}: {len(small)} targets under 44 px: {small[:4]}")
        shot(page, f"tournament-{lang}-{width}-{path.strip('/').replace('/', '-')}")
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("() => axe.run(document, { resultTypes: ['violations'] })")
        bad = [(v["id"], v["impact"], v["nodes"][0]["target"]) for v in result["violations"]
               if v["impact"] in ("serious", "critical")]
        if bad:
            problems.append(f"{path}: accessibility {bad}")
        ctx.close()
    assert not problems, "\n".join(problems)
