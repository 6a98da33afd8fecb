"""Every page in French and German in a real browser: no English UI word left in what a person sees
(text, placeholders, labels, titles), screenshots kept for a person to look at, and the TV board
switching languages by itself without a reload. One server for the whole module."""
from __future__ import annotations

import re
from urllib.parse import urlparse

import pytest
import requests

from tests.conftest import template_copy
from tests.servers import Server, browser_login

# English words of the UI that have no place on a French or German page. Not here: words both
# languages use too (Table, Place, Total, Poker, Roulette, Ticket, Straddle, Board, Dealer, Drop, OK),
# card codes and the demo's names.
ENGLISH = ["Seat", "Seats", "seat", "seats", "Waiting", "waiting", "Open", "Close", "Closed", "closed",
           "Player", "Banker", "Round", "Rounds", "Bets", "Log out", "Log in", "None", "free", "Alerts",
           "Devices", "Warning", "Warnings", "Lift", "Back", "Away", "Next", "Shift", "Held", "held",
           "Status", "Result", "Staked", "Ended", "Today", "Amount", "Spot", "Stake", "Paid", "Confirm",
           "Busted", "Call", "Move", "Nobody", "Add", "Print", "Show", "Reason", "Void", "Settle",
           "Approve", "Reject", "Find", "Who", "Record", "Username", "Password", "the", "and", "of", "with",
           "no", "No", "by", "Timeline", "Nothing", "New hand", "bans",
           "Language", "live updates", "Missed", "Rulings", "Pots", "Hole cards", "Put in", "Folded", "Tie",
           "Hot", "Cold", "spins", "full", "Gaming day", "Played", "Voided"]
# English words that are that language's own word too: German says "Pots" for pots ("der Gewinner des Pots").
ALSO_OURS = {"de": {"Pots"}}
WORDS = re.compile(r"(?<![\w'’-])(" + "|".join(re.escape(w) for w in sorted(ENGLISH, key=len, reverse=True)) + r")(?![\w'’-])")
SEEN_BY = """() => {
  const bits = [document.title, document.body.innerText];
  for (const el of document.querySelectorAll("[placeholder],[aria-label],[title]")) {
    if (el.closest("[hidden]") || el.closest("template")) continue;
    for (const a of ["placeholder", "aria-label", "title"]) if (el.getAttribute(a)) bits.push(el.getAttribute(a));
  }
  for (const o of document.querySelectorAll("option")) bits.push(o.textContent);
  return bits.join("\\n");
}"""
# What each page shows once its data is in (never a fixed wait).
READY = {
    "/login": "form.login-card",
    "/dealer/1/login": "form.login-card",
    "/floor": "#fl-lists section.fl-list .fl-entry",
    "/board": "#board-lists article.board-list",
    "/dealer/1": "#pk-seats .pk-seat",
    "/dealer/10": "#round-view .bac-table",
    "/pit": "#recent-rounds tbody tr[data-round]",
    "/pit/shift": "#shift-table tbody tr",
    "/pit/conduct": "#bans-table tbody tr",
    "/pit/showdown": "#seat-rows tr",
    "/pit/rounds/1": "#timeline-table tbody tr",
    "/tournaments": ".tn-entries tbody tr[data-status='seated']",
    "/tournaments/1/clock": ".tc-time",
    "/tournaments/1/results": ".tr-standings tbody tr",
    "/tournaments/1/entries/2/receipt": ".tr-receipt .tr-seat",
}


@pytest.fixture(scope="module")
def server(sqlite_template, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("languages")
    srv = Server(template_copy(sqlite_template, tmp), tmp / "instance", FLOOR_HOUSE_BOARD_LANGUAGES='"de,fr"',
                 FLOOR_HOUSE_BOARD_LANGUAGE_SECONDS="4").wait()
    # Something on every page beyond the demo floor's seated players: a waiting list, a round, a warning.
    s = requests.Session()
    token = browser_login(s, srv.url, "manager")
    h = {"X-CSRFToken": token}
    for seat, player in ((4, 5), (7, 6)):
        resp = s.post(f"{srv.url}/api/seating/tables/1/seats/{seat}/sit", json={"player_id": player, "buy_in": 20_000},
                      headers=h)
        assert resp.status_code in (200, 201), resp.text
    assert s.post(f"{srv.url}/api/waitlists/1/entries", json={"player_id": 3}, headers=h).status_code == 201
    assert s.post(f"{srv.url}/api/conduct/warnings", json={"player_id": 5, "reason": "electronic_device", "note": ""},
                  headers=h).status_code in (200, 201)
    # a tournament running on tables 2 and 3, one player out
    r = s.post(f"{srv.url}/api/tournaments", headers=h, json={
        "name": "Daily Turbo", "game_id": 1, "buy_in": 10_000, "fee": 1_500, "bounty_kind": "knockout",
        "bounty": 2_000, "seats_per_table": 9, "table_numbers": [2, 3]})
    assert r.status_code == 201, r.text
    for player in range(8, 20):
        assert s.post(f"{srv.url}/api/tournaments/1/entries", json={"player_id": player}, headers=h).status_code == 201
    seated = [e for e in s.post(f"{srv.url}/api/tournaments/1/start", headers=h).json()["entries"]]
    mate = next(e for e in seated if e["table"] == seated[0]["table"] and e["id"] != seated[0]["id"])
    assert s.post(f"{srv.url}/api/tournaments/1/busts", headers=h, json={
        "busts": [{"entry_id": seated[0]["id"], "chips_at_start": 5_000}], "winners": [mate["id"]]}).status_code == 201
    p = requests.Session()
    ptoken = browser_login(p, srv.url, "pitboss")
    for step in ("shoe", "round/open"):    # a new shoe confirmed, then betting opens: round 1
        resp = p.post(f"{srv.url}/api/tables/10/{step}", json={}, headers={"X-CSRFToken": ptoken})
        assert resp.status_code in (200, 201), resp.text
    yield srv
    srv.stop(wait=False)


def _context(browser, server, lang, viewport=(1280, 800)):
    ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, base_url=server.url)
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    page.goto(f"/login?lang={lang}")          # pins this terminal to the language
    return ctx, page


def _login(page, username, table=None):
    if table is None:
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", "floorman-demo")
    else:
        page.goto(f"/dealer/{table}/login")
        page.fill("input[name=username]", username)
        page.fill("input[name=pin]", "1234")
    page.click("button[type=submit]")
    page.wait_for_load_state("networkidle")


def _check(page, path, lang, shots):
    if urlparse(page.url).path != path:
        page.goto(path)
    page.wait_for_selector(READY[path])
    if path == "/board":     # the board takes the house's languages in turn: wait for this one's turn
        page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=lang)
    assert page.evaluate("document.documentElement.lang") == lang
    text = page.evaluate(SEEN_BY)
    left = sorted({m.group(1) for m in WORDS.finditer(text)} - ALSO_OURS.get(lang, set()))
    name = path.strip("/").replace("/", "-") or "root"
    page.screenshot(path=str(shots / f"{lang}-{name}.png"), full_page=True)
    assert not left, f"{path} in {lang} still shows English: {left}\n---\n{text[:3000]}"


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_every_page_speaks_the_language(browser, server, lang, tmp_path_factory):
    shots = tmp_path_factory.mktemp(f"shots-{lang}")
    print(f"screenshots: {shots}")
    ctx, page = _context(browser, server, lang)
    _check(page, "/login", lang, shots)
    _check(page, "/dealer/1/login", lang, shots)
    page.goto("/login")
    _login(page, "manager")
    for path in ("/floor", "/board", "/tournaments", "/tournaments/1/clock", "/tournaments/1/results",
                 "/tournaments/1/entries/2/receipt"):
        _check(page, path, lang, shots)
    ctx.close()

    ctx, page = _context(browser, server, lang)
    _login(page, "pitboss")
    for path in ("/pit", "/pit/shift", "/pit/conduct", "/pit/showdown", "/pit/rounds/1", "/dealer/10"):
        _check(page, path, lang, shots)
    ctx.close()

    ctx, page = _context(browser, server, lang)
    _login(page, "dealer", table=1)
    _check(page, "/dealer/1", lang, shots)
    ctx.close()


def test_the_board_alternates_languages_without_a_reload(browser, server):
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, base_url=server.url)
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    page.goto("/login?lang=de")
    _login(page, "display")
    page.wait_for_selector("#board-lists article.board-list")
    title = page.locator(".board-lists-panel h1")
    assert title.inner_text() == "Wartelisten"
    page.evaluate("window.__marker = 7")
    # The house shows the board in German then French, four seconds each: the page switches itself.
    page.wait_for_function("document.querySelector('.board-lists-panel h1').textContent === \"Listes d'attente\"")
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert "en attente" in page.locator("#board-lists footer").first.inner_text()
    page.wait_for_function("document.querySelector('.board-lists-panel h1').textContent === 'Wartelisten'")
    assert page.evaluate("window.__marker") == 7
    ctx.close()
