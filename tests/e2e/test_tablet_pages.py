"""Every page as its user sees it, at the device's own viewport: no raw data on screen, touch targets
of 44 px at least, and no serious or critical accessibility violation (axe-core from npm). One
server for the module, with something on every page."""
from __future__ import annotations

import re

import pytest
import requests

from tests.e2e.conftest import DEALER, IPAD, IPAD_PORTRAIT, TV, shot
from tests.conftest import template_copy
from tests.servers import ROOT, Server, browser_login

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"

# What each page shows once its data is in (never a fixed wait).
READY = {
    "/floor": "#fl-lists section.fl-list .fl-entry",
    "/board": "#board-lists article.board-list",
    "/dealer/1": "#pk-seats .pk-seat",
    "/dealer/10": "#round-view .bac-table",
    "/pit": "#recent-rounds tbody tr[data-round]",
    "/pit/showdown": "#seat-rows tr",
    "/tournaments": ".tn-entries tbody tr[data-status='seated']",
    "/tournaments/1/clock": ".tc-time",
    "/tournaments/1/results": ".tr-standings tbody tr",
    "/tournaments/1/entries/2/receipt": ".tr-receipt .tr-seat",
    "/dealer/2": "#td .tn-entries tbody tr",
    "/pit/shift": "#shift-table tbody tr",
    "/pit/conduct": "#bans-table tbody tr",
    "/pit/rounds/1": "#timeline-table tbody tr",
    "/login": "form.login-card",
    "/pit/ratings": "main table",
    "/pit/wheels": "main",
    "/pit/rotation": "#rotation-tables tbody tr",
    "/pit/players/1": "#player-ratings",
    "/dealer/12": "#seat-players #seated li",
    "/dealer/1/login": "form.login-card",
    "/admin/floor": "#la-tables li[data-table]",
    "/dealer/12/money": "#tm-figures dd",
    "/pit/tables/12/money": "#tm-slips li[data-serial]",
    "/cage": "#cage-queue li[data-serial]",
    "/slips/1/print": ".slip .slip-chips tbody tr",
}
# (user, path, device): each page on the device it is used on.
PAGES = [
    ("manager", "/floor", IPAD), ("manager", "/floor", IPAD_PORTRAIT),
    ("dealer", "/dealer/1", DEALER), ("pitboss", "/dealer/10", DEALER),
    ("pitboss", "/pit", IPAD), ("pitboss", "/pit/showdown", IPAD),
    ("display", "/board", TV),
    ("manager", "/tournaments", IPAD), ("manager", "/tournaments", IPAD_PORTRAIT),
    ("display", "/tournaments/1/clock", TV), ("manager", "/tournaments/1/results", IPAD),
    ("cashier", "/tournaments/1/entries/2/receipt", IPAD), ("pitboss", "/dealer/2", DEALER),
    ("pitboss", "/pit/shift", IPAD), ("pitboss", "/pit/conduct", IPAD), ("pitboss", "/pit/rounds/1", IPAD),
    (None, "/login", IPAD), (None, "/dealer/1/login", DEALER),
    ("pitboss", "/pit/ratings", IPAD), ("pitboss", "/pit/wheels", IPAD),
    ("pitboss", "/pit/rotation", IPAD), ("pitboss", "/dealer/12", DEALER), ("pitboss", "/pit/players/1", IPAD),
    ("pitboss", "/dealer/12/money", DEALER), ("pitboss", "/pit/tables/12/money", IPAD),
    ("cashier", "/cage", IPAD), ("cashier", "/slips/1/print", IPAD),
    ("admin", "/admin/floor", IPAD), ("admin", "/admin/floor", IPAD_PORTRAIT),
]
SEEN_BY = """() => {
  const bits = [document.title, document.body.innerText];
  for (const el of document.querySelectorAll("[placeholder],[aria-label],[title]")) {
    if (el.closest("[hidden]") || el.closest("template")) continue;
    for (const a of ["placeholder", "aria-label", "title"]) if (el.getAttribute(a)) bits.push(el.getAttribute(a));
  }
  for (const o of document.querySelectorAll("option")) bits.push(o.textContent);
  return bits.join("\\n");
}"""
# Raw data: a JSON null, a code with underscores, cents, a 12-hour clock, an ISO timestamp.
RAW = re.compile(r"\bnull\b|\bundefined\b|\bNaN\b|\b[a-z]+_[a-z_]+\b|\bcents?\b|\b\d{1,2}:\d\d\s?[AP]M\b"
                 r"|\d{4}-\d\d-\d\dT\d\d:\d\d")
SMALL_TARGETS = """() => [...document.querySelectorAll("button, a[href], select, input:not([type=hidden]), [role=button]")]
  .filter(el => { const s = getComputedStyle(el); return s.visibility !== "hidden" && s.display !== "none" && el.getClientRects().length; })
  .map(el => { const r = el.getBoundingClientRect(); return [el.outerHTML.slice(0, 90), Math.round(r.width), Math.round(r.height)]; })
  .filter(([, w, h]) => w < 44 || h < 44)"""


@pytest.fixture(scope="module")
def server(sqlite_template, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("pages")
    srv = Server(template_copy(sqlite_template, tmp), tmp / "instance").wait()
    s = requests.Session()
    h = {"X-CSRFToken": browser_login(s, srv.url, "manager")}
    for seat, player in ((4, 5), (7, 6)):
        assert s.post(f"{srv.url}/api/seating/tables/1/seats/{seat}/sit", json={"player_id": player, "buy_in": 20_000},
                      headers=h).status_code in (200, 201)
    for player in (3, 8):
        assert s.post(f"{srv.url}/api/waitlists/1/entries", json={"player_id": player}, headers=h).status_code == 201
    assert s.post(f"{srv.url}/api/conduct/warnings", json={"player_id": 5, "reason": "electronic_device"},
                  headers=h).status_code == 201
    # a tournament running on tables 2 and 3, one player out
    r = s.post(f"{srv.url}/api/tournaments", headers=h, json={
        "name": "Daily Turbo", "game_id": 1, "buy_in": 10_000, "fee": 1_500, "bounty_kind": "knockout",
        "bounty": 2_000, "seats_per_table": 9, "table_numbers": [2, 3]})
    assert r.status_code == 201, r.text
    for player in range(9, 21):
        assert s.post(f"{srv.url}/api/tournaments/1/entries", json={"player_id": player}, headers=h).status_code == 201
    seated = s.post(f"{srv.url}/api/tournaments/1/start", headers=h).json()["entries"]
    mate = next(e for e in seated if e["table"] == seated[0]["table"] and e["id"] != seated[0]["id"])
    assert s.post(f"{srv.url}/api/tournaments/1/busts", headers=h, json={
        "busts": [{"entry_id": seated[0]["id"], "chips_at_start": 5_000}], "winners": [mate["id"]]}).status_code == 201
    p = requests.Session()
    ph = {"X-CSRFToken": browser_login(p, srv.url, "pitboss")}
    for step in ("shoe", "round/open"):
        assert p.post(f"{srv.url}/api/tables/10/{step}", json={}, headers=ph).status_code in (200, 201)
    # table 12's chips: an opening count waiting for a second person, a fill waiting for the cage
    assert p.post(f"{srv.url}/api/tables/12/counts", json={"kind": "opening", "chips": {"10000": 100}},
                  headers=ph).status_code == 201
    assert p.post(f"{srv.url}/api/tables/12/slips", json={"kind": "fill", "chips": {"10000": 5, "2500": 4}},
                  headers=ph).status_code == 201
    yield srv
    srv.stop(wait=False)


@pytest.fixture(scope="module")
def logins(server) -> dict:
    """The cookies of each user's login on the module's server."""
    return {}


def _page(browser, server, user, device, logins: dict | None = None):
    """A page of a new context, logged in as ``user``: with ``logins``, each user logs in once for the
    module and every later context starts with that login's cookies."""
    logins = {} if logins is None else logins
    ctx = browser.new_context(**device, base_url=server.url, storage_state=logins.get(user))
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    if user is None or user in logins:
        return ctx, page
    if user == "dealer":
        page.goto("/dealer/1/login")
        page.fill("input[name=username]", "dealer")
        page.fill("input[name=pin]", "1234")
    else:
        page.goto("/login")
        page.fill("input[name=username]", user)
        page.fill("input[name=password]", "floorman-demo")
    with page.expect_navigation():
        page.click("button[type=submit]")
    logins[user] = ctx.storage_state()
    return ctx, page


def _open(page, path):
    if not page.url.endswith(path):
        page.goto(path)
    page.wait_for_selector(READY[path])
    page.wait_for_load_state("networkidle")


def _name(path, device):
    return f"{path.strip('/').replace('/', '-')}-{device['viewport']['width']}x{device['viewport']['height']}"


NOT_TOUCHED = ("/board", "/tournaments/1/clock")   # screens on the wall, read and never tapped


@pytest.mark.parametrize("user,path,device", PAGES, ids=[_name(p, d) for _, p, d in PAGES])
def test_the_page_is_fit_for_its_device(browser, server, logins, user, path, device):
    """What a person at the device would see: no raw data (a null, a code, cents, a 12-hour clock), no
    touch target under 44x44 px, and no serious or critical accessibility violation (axe-core)."""
    assert AXE.exists(), "npm ci installs axe-core (package.json devDependencies)"
    ctx, page = _page(browser, server, user, device, logins)
    _open(page, path)
    text = page.evaluate(SEEN_BY)
    small = [] if path in NOT_TOUCHED else page.evaluate(SMALL_TARGETS)
    shot(page, "raw-" + _name(path, device))
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("() => axe.run(document, { resultTypes: ['violations'] })")
    ctx.close()
    problems = []
    raw = sorted({m.group(0) for m in RAW.finditer(text)})
    if raw:
        problems.append(f"shows raw data: {raw}")
    if small:
        problems.append(f"{len(small)} targets under 44x44 px: {small[:12]}")
    bad = [(v["id"], v["impact"], len(v["nodes"]), v["nodes"][0]["target"]) for v in result["violations"]
           if v["impact"] in ("serious", "critical")]
    if bad:
        problems.append(f"accessibility: {bad}")
    assert not problems, f"{path}: " + "; ".join(problems)


def test_portrait_floor_shows_the_waiting_lists_before_the_tables(browser, server):
    ctx, page = _page(browser, server, "manager", IPAD_PORTRAIT)
    _open(page, "/floor")
    add = page.locator(".fl-list[data-game='1'] [data-action=add-player]").bounding_box()
    first_table = page.locator("article.fl-table").first.bounding_box()
    shot(page, "floor-portrait")
    ctx.close()
    assert add["y"] + add["height"] <= 1024, "the waiting list is below the first screen"
    assert add["y"] < first_table["y"]


def test_empty_alerts_and_rulings_say_so(browser, server):
    ctx, page = _page(browser, server, "manager", IPAD)
    _open(page, "/floor")
    assert page.locator("#alerts").inner_text().strip() == "No alerts."
    ctx.close()
    ctx, page = _page(browser, server, "pitboss", IPAD)
    _open(page, "/pit/showdown")
    assert page.locator("#rulings").inner_text().strip() == "No ruling yet."
    ctx.close()


SHEETS = [
    ("seat", "article.fl-table[data-table='1'] .fl-seat.taken[data-seat='4']", "#fl-sheet[open]"),
    ("register", "#fl-register", "#fl-sheet[open] input[name=card_number]"),
    ("add", ".fl-list[data-game='1'] [data-action=add-player]", "#fl-sheet[open] .search-results button"),
    ("confirm", ".fl-list[data-game='1'] li.fl-entry [data-action=remove]", "dialog.confirm-dialog[open]"),
]


@pytest.mark.parametrize("name,opener,ready", SHEETS, ids=[s[0] for s in SHEETS])
def test_sheets_have_44_px_targets_and_no_serious_violation(browser, server, name, opener, ready):
    ctx, page = _page(browser, server, "manager", IPAD)
    _open(page, "/floor")
    page.locator(opener).first.tap()
    page.wait_for_selector(ready)
    scope = "dialog[open]"
    small = page.evaluate(SMALL_TARGETS.replace("document.querySelectorAll(", f"document.querySelector('{scope}').querySelectorAll("))
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(f"() => axe.run(document.querySelector('{scope}'), {{ resultTypes: ['violations'] }})")
    shot(page, f"sheet-{name}")
    ctx.close()
    assert not small, f"{name}: targets under 44x44 px: {small[:8]}"
    bad = [(v["id"], v["impact"], v["nodes"][0]["target"]) for v in result["violations"] if v["impact"] in ("serious", "critical")]
    assert not bad, f"{name}: {bad}"
