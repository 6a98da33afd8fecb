"""Every page in French and German with a floor that has something of each kind to show (alerts of
the pit and the poker room, a held round, a void waiting for a second pit boss, a ban for three
warnings, a coup's timeline with its cards, transfers and frames): no sentence of the catalog left in
English, no raw {placeholder}, no card code ("JH") and no horizontal scroll at 1,024, 1,280 and 1,440
px; and axe finds nothing serious or critical on any page in English, French or German."""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
import requests
from babel.messages.pofile import read_po
from sqlalchemy import create_engine, insert
from sqlalchemy.orm import Session

from floor import rounds
from floor.errors import Msg
from floor.models import DeviceFrame, Round
from floor.pit import game_pace
from floor.settings import HouseSettings
from floor.tables import table_by_number
from tests.conftest import template_copy
from tests.e2e.conftest import SHOTS
from tests.e2e.test_tablet_pages import AXE, READY, SEEN_BY
from tests.servers import ROOT, Server, browser_login

WIDTHS = (1024, 1280, 1440)
# (who, page): every page of the floor, as the person who uses it.
PAGES = [(None, "/login"), (None, "/dealer/1/login"),
         ("manager", "/floor"), ("manager", "/board"), ("manager", "/tournaments"), ("manager", "/tournaments/1/clock"),
         ("manager", "/tournaments/1/results"), ("manager", "/tournaments/1/entries/2/receipt"),
         ("pitboss", "/pit"), ("pitboss", "/pit/shift"), ("pitboss", "/pit/conduct"), ("pitboss", "/pit/showdown"),
         ("pitboss", "/pit/rounds/1"), ("pitboss", "/pit/rounds/2"), ("pitboss", "/pit/ratings"), ("pitboss", "/pit/wheels"),
         ("pitboss", "/pit/rotation"), ("pitboss", "/pit/players/1"), ("pitboss", "/dealer/10"), ("pitboss", "/dealer/12"),
         ("pitboss", "/dealer/2"), ("dealer", "/dealer/1")]
READY = {**READY, "/pit/rounds/2": "#timeline-table tbody tr"}
CARD_CODE = re.compile(r"(?<![\w#])(?:[2-9TJQKA][SHDC])(?![\w])")
PLACEHOLDER = re.compile(r"\{[a-z_]+\d?\}|%\([a-z_]+\)[sd]")
# What a person reads, without the hints of fields where a card is typed as its code ("e.g. AS KD").
READ = SEEN_BY.replace('"placeholder", ', "").replace("[placeholder],", "")


def _english_sentences() -> list[str]:
    """The catalog's English sentences that French and German both say otherwise: whole ones (three
    words or more) and the fixed text of those with values (three words or more between values)."""
    found = {}
    for lang in ("fr", "de"):
        with open(ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
            found[lang] = {m.id: m.string for m in read_po(f) if isinstance(m.id, str) and m.id}
    out = set()
    for mid, fr in found["fr"].items():
        if fr == mid or found["de"].get(mid) == mid:
            continue
        for chunk in re.split(r"\{[^}]*\}|%\([^)]*\)[sd]", mid):
            chunk = chunk.strip(" .:;,()—-")
            if len(chunk.split()) >= 3 and len(chunk) >= 14:
                out.add(chunk)
    return sorted(out, key=len, reverse=True)


@pytest.fixture(scope="module")
def server(sqlite_template, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("every-language")
    url = template_copy(sqlite_template, tmp)
    srv = Server(url, tmp / "instance").wait()
    s = requests.Session()
    h = {"X-CSRFToken": browser_login(s, srv.url, "manager")}
    for seat, player in ((4, 5), (7, 6)):
        assert s.post(f"{srv.url}/api/seating/tables/1/seats/{seat}/sit", json={"player_id": player, "buy_in": 20_000},
                      headers=h).status_code in (200, 201)
    # the button on seat 4: the poker terminal shows its blind badges (SB, BB) for the next hand
    resp = s.post(f"{srv.url}/api/poker/tables/1/button", json={"seat": 4, "new_game": True}, headers=h)
    assert resp.status_code == 200, resp.text
    for player in (3, 8):
        assert s.post(f"{srv.url}/api/waitlists/1/entries", json={"player_id": player}, headers=h).status_code == 201
    for _ in range(3):         # three warnings: a ban, and its alert
        assert s.post(f"{srv.url}/api/conduct/warnings", headers=h, json={
            "player_id": 7, "reason": "electronic_device", "ban_confirmed": True}).status_code == 201
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
    # the pit: a baccarat coup typed at the terminal and voided above the threshold (a second pit boss
    # is needed), a card with no round, a coup left dealing, a wheel round held by a device fault
    p = requests.Session()
    ph = {"X-CSRFToken": browser_login(p, srv.url, "pitboss")}

    def pit(path, body=None, ok=(200, 201)):
        resp = p.post(f"{srv.url}{path}", json=body or {}, headers=ph)
        assert resp.status_code in ok, (path, resp.text)
        return resp
    pit("/api/tables/10/shoe")
    pit("/api/tables/10/round/open")
    pit("/api/tables/10/bets", {"spot": "player", "amount": 100_000, "seat": 1})
    pit("/api/tables/10/bets", {"spot": "tie", "amount": 8_500, "seat": 2})
    pit("/api/tables/10/round/close")
    for card in ("2D", "5C", "TH", "9S", "KD", "3H"):     # the last one comes after the coup: no round
        pit("/api/tables/10/round/card", {"card": card})
    pit("/api/pit/rounds/1/rulings", {"kind": "void", "reason": "misdeal"})
    pit("/api/tables/10/round/open")
    engine = create_engine(url)
    now = datetime.now(timezone.utc)
    with Session(engine) as db:
        for summary in ("coup start", "card 2D from shoe to player1", "shoe locked"):
            db.add(DeviceFrame(device="shoe", table_id=table_by_number(db, 10).id, round_id=1, raw=b"x",
                               summary=summary, arrived_at=now))
        wheel = table_by_number(db, 12).id
        rounds.open_betting(db, rounds.core.SYSTEM, wheel, now, house=HouseSettings())
        rounds.device_fault(db, wheel, Msg("wheel lost (no status line for {seconds} s mid-round)", seconds=6))
        # table 14 dealt slowly for the last hour: the pace alert
        bj = table_by_number(db, 14).id
        db.execute(insert(Round.__table__), [
            {"table_id": bj, "number": 100 + i, "kind": "blackjack", "status": "settled", "opened_at": t,
             "result_at": t, "ended_at": t, "result": {}, "device": {}, "steps": 0, "version": 3}
            for i, t in enumerate(now - timedelta(minutes=m) for m in range(90, 0, -3))])
        db.commit()
        assert game_pace.check(db, HouseSettings(), now)
        db.commit()
    engine.dispose()
    yield srv
    srv.stop(wait=False)


def _login(browser, server, user, lang, width):
    ctx = browser.new_context(viewport={"width": width, "height": 900}, base_url=server.url)
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    page.goto(f"/login?lang={lang}")
    if user == "dealer":
        page.goto("/dealer/1/login")
        page.fill("input[name=username]", "dealer")
        page.fill("input[name=pin]", "1234")
    elif user is not None:
        page.fill("input[name=username]", user)
        page.fill("input[name=password]", "floorman-demo")
    if user is not None:
        with page.expect_navigation():
            page.click("button[type=submit]")
    return ctx, page


def _open(page, path):
    page.goto(path)
    page.wait_for_selector(READY[path])
    page.wait_for_load_state("networkidle")


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_every_page_in_french_and_german_says_everything_in_the_language_and_fits(browser, server, lang):
    english = _english_sentences()
    problems = []
    for user in dict.fromkeys(u for u, _ in PAGES):
        ctx, page = _login(browser, server, user, lang, WIDTHS[-1])
        for who, path in PAGES:
            if who != user:
                continue
            _open(page, path)
            text = page.evaluate(SEEN_BY)
            left = [s for s in english if s in text]
            if left:
                problems.append(f"{path}: English {left[:5]}")
            if PLACEHOLDER.search(text):
                problems.append(f"{path}: raw placeholders {sorted(set(PLACEHOLDER.findall(text)))}")
            codes = sorted(set(CARD_CODE.findall(page.evaluate(READ))))
            if codes:
                problems.append(f"{path}: card codes {codes}")
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 900})
                try:     # the page lays itself out again (charts resize on the next frames)
                    page.wait_for_function("document.documentElement.scrollWidth <= document.documentElement.clientWidth",
                                           timeout=10_000)
                except PlaywrightTimeout:
                    pass
                wide = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
                if wide > 0:
                    SHOTS.mkdir(exist_ok=True)
                    page.screenshot(path=str(SHOTS / f"wide-{lang}-{path.strip('/').replace('/', '-')}-{width}.png"),
                                    full_page=True)
                    problems.append(f"{path}: {wide} px of horizontal scroll at {width}")
            page.set_viewport_size({"width": WIDTHS[-1], "height": 900})
        ctx.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_no_serious_accessibility_finding_on_any_page(browser, server, lang):
    problems = []
    for user in dict.fromkeys(u for u, _ in PAGES):
        ctx, page = _login(browser, server, user, lang, 1280)
        for who, path in PAGES:
            if who != user:
                continue
            _open(page, path)
            page.add_script_tag(path=str(AXE))
            result = page.evaluate("() => axe.run(document, { resultTypes: ['violations'] })")
            bad = [(v["id"], v["impact"], len(v["nodes"]), [n["target"] for n in v["nodes"][:3]])
                   for v in result["violations"] if v["impact"] in ("serious", "critical")]
            if bad:
                problems.append(f"{path}: {bad}")
        ctx.close()
    assert not problems, "\n".join(problems)
