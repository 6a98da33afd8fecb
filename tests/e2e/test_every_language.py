"""Every page and every sheet in French and German with a floor that has something of every kind to
show (every alert kind, every reason a round is held for, every kind of ban and every entry of a
round's timeline, made through the floor's own paths: tests/e2e/every_kind.py): no sentence of the
catalog left in English, no raw {placeholder}, no card code ("JH") and no horizontal scroll at 1,024,
1,280 and 1,440 px; and axe finds nothing serious or critical on any page or sheet in English, French
or German. The kinds and the pages are read from the code: one added and not shown here fails."""
from __future__ import annotations

import ast
import re

import pytest
import requests
from babel.messages.pofile import read_po
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from floor.models import Alert, Ban
from tests.conftest import make_config, template_copy
from tests.e2e import every_kind
from tests.e2e.conftest import SHOTS
from tests.e2e.test_tablet_pages import AXE, READY, SEEN_BY
from tests.servers import ROOT, Server, browser_login

WIDTHS = (1024, 1280, 1440)
PHONE = {"width": 390, "height": 844}
CARD_CODE = re.compile(r"(?<![\w#])(?:[2-9TJQKA][SHDC])(?![\w])")
PLACEHOLDER = re.compile(r"\{[a-z_]+\d?\}|%\([a-z_]+\)[sd]")
# What a person reads, without the hints of fields where a card is typed as its code ("e.g. AS KD").
READ = SEEN_BY.replace('"placeholder", ', "").replace("[placeholder],", "")
PASSWORDS = {"dealer": ("1", "1234")}


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
def floor(sqlite_template, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("every-language")
    url = template_copy(sqlite_template, tmp)
    srv = Server(url, tmp / "instance").wait()
    made = every_kind.seed(srv.url, url)
    yield srv, url, made, _pages(made)
    srv.stop(wait=False)


def _pages(made: dict) -> list[tuple[str | None, str, str]]:
    """(who, path, what shows once its data is in): every page, as the person who uses it."""
    t, held = made["tournament"], made["held"]
    ended_path = "/p/" + made["pass_ended"].rsplit("/p/", 1)[1]
    tl = "#timeline-table tbody tr"
    return [
        (None, "/login", READY["/login"]), (None, "/dealer/1/login", READY["/dealer/1/login"]),
        ("manager", "/floor", READY["/floor"]), ("manager", "/board", READY["/board"]),
        ("manager", "/tournaments", READY["/tournaments"]), ("manager", f"/tournaments/{t}/clock", ".tc-time"),
        ("manager", f"/tournaments/{t}/results", ".tr-standings tbody tr"),
        ("manager", f"/tournaments/{t}/entries/{made['entry']}/receipt", ".tr-receipt .tr-seat"),
        ("pitboss", "/pit", READY["/pit"]), ("pitboss", "/pit/shift", READY["/pit/shift"]),
        ("pitboss", "/pit/conduct", READY["/pit/conduct"]), ("pitboss", "/pit/showdown", READY["/pit/showdown"]),
        ("pitboss", f"/pit/rounds/{made['coup']}", tl), ("pitboss", f"/pit/rounds/{made['pending']}", tl),
        ("pitboss", f"/pit/rounds/{made['late']}", tl),
        *[("pitboss", f"/pit/rounds/{r}", tl) for r in made["timelines"]],
        ("pitboss", "/pit/ratings", READY["/pit/ratings"]), ("pitboss", "/pit/wheels", READY["/pit/wheels"]),
        ("pitboss", f"/pit/wheels/{every_kind.WHEEL}", "#wheel-spins tbody tr"),
        ("pitboss", "/pit/rotation", READY["/pit/rotation"]), ("pitboss", "/pit/players/1", READY["/pit/players/1"]),
        ("pitboss", f"/dealer/{every_kind.SHOE}", "#round-view"), ("pitboss", f"/dealer/{every_kind.WHEEL}", "#round-view"),
        ("pitboss", f"/dealer/{every_kind.BJ}", "#round-view"), ("pitboss", f"/dealer/{every_kind.CH}", "#round-view"),
        ("pitboss", "/dealer/3", "#pk-seats .pk-seat"),
        ("pitboss", f"/dealer/{every_kind.TOURNAMENT_TABLES[0]}", "#td .tn-entries tbody tr"),
        ("pitboss", f"/dealer/{every_kind.WHEEL}/money", READY["/dealer/12/money"]),
        ("pitboss", f"/pit/tables/{every_kind.WHEEL}/money", READY["/pit/tables/12/money"]),
        ("cashier", "/cage", READY["/cage"]), ("cashier", "/slips/1/print", READY["/slips/1/print"]),
        ("admin", "/admin/floor", READY["/admin/floor"]), ("tech", "/devices/live", "#dl-devices"),
        ("dealer", "/dealer/1", READY["/dealer/1"]),
        ("phone", "{pass}", "#pass-lists .pass-list"), ("phone", ended_path, "main, body"),
    ]


# (who, page, taps, what shows when it is open, its box): every sheet and dialog a person opens.
SHEETS = [
    ("manager", "/floor", ["article.fl-table[data-table='1'] .fl-seat.taken[data-seat='4']"], "#fl-sheet[open]", "#fl-sheet"),
    ("manager", "/floor", ["#fl-register"], "#fl-sheet[open] input[name=card_number]", "#fl-sheet"),
    ("manager", "/floor", [".fl-list[data-game='1'] [data-action=add-player]"], "#fl-sheet[open]", "#fl-sheet"),
    ("manager", "/floor", [".fl-list[data-game='1'] li.fl-entry [data-action=remove]"], "dialog.confirm-dialog[open]",
     "dialog.confirm-dialog"),
    ("manager", "/floor", [".fl-list[data-game='1'] li.fl-entry [data-action=pass]"],
     "#fl-sheet[open] [data-action=print-pass]", "#fl-sheet"),
    ("manager", "/floor", [".fl-list[data-game='1'] li.fl-entry [data-action=pass]", "#fl-sheet [data-action=revoke-pass]"],
     "dialog.confirm-dialog[open]", "dialog.confirm-dialog"),
    ("manager", "/floor", ["[data-action=mm-refuse]"], "#fl-sheet[open] input, #fl-sheet[open] textarea", "#fl-sheet"),
    ("manager", "/floor", [".prompt.pickup button"], "#fl-sheet[open] input", "#fl-sheet"),
    ("manager", "/floor", [f"article.fl-table[data-table='{every_kind.SPARE}'] [data-action=open-table]"], "#fl-sheet[open] [data-action=open-independent]", "#fl-sheet"),
    ("manager", "/floor", ["[data-action=close-table]"], "dialog.confirm-dialog[open]", "dialog.confirm-dialog"),
    ("manager", "/tournaments", ["button.tn-close-registration"], "dialog.confirm-dialog[open]", "dialog.confirm-dialog"),
    ("dealer", "/dealer/1", ["#pk-seats .pk-seat[data-seat='4']"], "#pk-sheet:not([hidden]) [data-action=warning]", "#pk-sheet"),
    ("dealer", "/dealer/1", ["#pk-seats .pk-seat[data-seat='4']", "#pk-sheet [data-action=warning]"],
     "#pk-sheet:not([hidden]) [data-reason]", "#pk-sheet"),
    ("dealer", "/dealer/1", ["#pk-seats .pk-seat[data-seat='4']", "#pk-sheet [data-action=ticket]"],
     "#pk-sheet:not([hidden]) input[name=reason]", "#pk-sheet"),
    ("dealer", "/dealer/1", ["#pk-seats .pk-seat.empty"], "#pk-sheet:not([hidden])", "#pk-sheet"),
    ("pitboss2", "/pit/rounds/{pending}", ["[data-action=approve]"], "dialog.confirm-dialog[open]", "dialog.confirm-dialog"),
    ("phone", "{pass}", ["[data-action=take-off]"], "dialog.confirm-dialog[open]", "dialog.confirm-dialog"),
]


def _login(browser, srv, user, lang, logins: dict):
    """A page in a new context for ``user`` reading ``lang``: each logs in once for the module."""
    phone = user == "phone"
    ctx = browser.new_context(viewport=PHONE if phone else {"width": WIDTHS[-1], "height": 900}, base_url=srv.url, locale=lang,
                              storage_state=logins.get(user), has_touch=phone, is_mobile=phone,
                              bypass_csp=True)   # axe goes in as a script of its own
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    if user not in logins:
        page.goto(f"/login?lang={lang}")
        if user == "dealer":
            page.goto("/dealer/1/login")
            page.fill("input[name=username]", "dealer")
            page.fill("input[name=pin]", "1234")
        elif user not in (None, "phone"):
            page.fill("input[name=username]", user)
            page.fill("input[name=password]", "floorman-demo")
        if user not in (None, "phone"):
            with page.expect_navigation():
                page.click("button[type=submit]")
        logins[user] = ctx.storage_state()
    return ctx, page


def _pass(srv) -> str:
    """The pass of a player on a list, issued now: the floor's pass sheet issues a new one, which ends
    the one before."""
    s = requests.Session()
    h = {"X-CSRFToken": browser_login(s, srv.url, "manager")}
    return "/p/" + s.post(f"{srv.url}/api/waitlists/players/3/pass", json={}, headers=h).json()["link"].rsplit("/p/", 1)[1]


def _open(page, path, ready):
    page.goto(path)
    page.wait_for_selector(ready, state="attached")
    page.wait_for_load_state("networkidle")


def _words(page, lang, english, scope=None) -> list[str]:
    """What a person reads that is not in his language: catalog sentences in English, raw
    placeholders, card codes."""
    if lang == "en":
        return []
    root = f"document.querySelector('{scope}')" if scope else None
    seen = SEEN_BY if root is None else SEEN_BY.replace("document.body.innerText", f"{root}.innerText") \
        .replace("document.querySelectorAll(", f"{root}.querySelectorAll(").replace("document.title, ", "")
    read = READ if root is None else READ.replace("document.body.innerText", f"{root}.innerText") \
        .replace("document.querySelectorAll(", f"{root}.querySelectorAll(").replace("document.title, ", "")
    text = page.evaluate(seen)
    out = []
    left = [s for s in english if s in text]
    if left:
        out.append(f"English {left[:5]}")
    if PLACEHOLDER.search(text):
        out.append(f"raw placeholders {sorted(set(PLACEHOLDER.findall(text)))}")
    codes = sorted(set(CARD_CODE.findall(page.evaluate(read))))
    if codes:
        out.append(f"card codes {codes}")
    return out


def _axe(page, scope=None) -> list:
    page.add_script_tag(path=str(AXE))
    target = f"document.querySelector('{scope}')" if scope else "document"
    result = page.evaluate(f"() => axe.run({target}, {{ resultTypes: ['violations'] }})")
    return [(v["id"], v["impact"], len(v["nodes"]), [n["target"] for n in v["nodes"][:3]])
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


def _fits(page, lang, path, phone: bool) -> list[str]:
    out = []
    for width in ((PHONE["width"],) if phone else WIDTHS):
        page.set_viewport_size({"width": width, "height": 900})
        try:     # the page lays itself out again (charts resize on the next frames)
            page.wait_for_function("document.documentElement.scrollWidth <= document.documentElement.clientWidth",
                                   timeout=10_000)
        except PlaywrightTimeout:
            pass
        wide = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        if wide > 0:
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / f"wide-{lang}-{path.strip('/').replace('/', '-')[:60]}-{width}.png"),
                            full_page=True)
            out.append(f"{wide} px of horizontal scroll at {width}")
    page.set_viewport_size(PHONE if phone else {"width": WIDTHS[-1], "height": 900})
    return out


# --- the floor has every kind ---------------------------------------------------------------------

def _ban_callers() -> set[str]:
    """The functions anywhere in floor/ that ban a player (call ``ban``), as "path:function"."""
    out = set()
    for path in sorted((ROOT / "floor").rglob("*.py")):
        for fn in ast.walk(ast.parse(path.read_text())):
            if isinstance(fn, ast.FunctionDef) and fn.name != "ban":
                for node in ast.walk(fn):
                    if isinstance(node, ast.Call) and (getattr(node.func, "attr", None) or getattr(node.func, "id", "")) == "ban":
                        out.add(f"{path.relative_to(ROOT)}:{fn.name}")
    return out


# Each way the floor bans a player, and what its ban says.
BANS = {"floor/poker/conduct.py:give_warning": "warnings: must leave the poker area",
        "floor/poker/conduct.py:ban_player": "abusive to the dealer",
        "floor/poker/mustmove.py:refuse": "refused to move from table"}


def test_the_floor_has_every_alert_hold_ban_timeline_entry_and_page(floor, tmp_path):
    srv, url, made, pages = floor
    engine = create_engine(url)
    with Session(engine) as db:
        alerts = list(db.execute(select(Alert)).scalars())
        bans = [b.reason for b in db.execute(select(Ban)).scalars()]
    engine.dispose()
    assert every_kind.alert_kinds() - {a.kind for a in alerts} == set(), "alert kinds the floor never raised"
    held = {getattr(a.sentence.params["reason"], "template", None) for a in alerts if a.kind == "round_held"}
    made_here = every_kind.hold_templates() - every_kind.NOT_MADE
    assert len(made_here) >= 20 and made_here - held == set(), "reasons to hold a round no round was held for"
    assert _ban_callers() == set(BANS), "a way to ban that this floor does not make"
    assert all(any(said in str(b) for b in bans) for said in BANS.values()), bans
    s = requests.Session()
    browser_login(s, srv.url, "pitboss")
    kinds = set()
    for _who, path, _ready in pages:
        if path.startswith("/pit/rounds/"):
            kinds |= {e["type"] for e in s.get(f"{srv.url}/api/pit/rounds/{path.rsplit('/', 1)[1]}/timeline").json()["entries"]}
    assert every_kind.timeline_kinds() - kinds == set(), "timeline entries no page shows"
    from app import create_app
    app = create_app(make_config(url, tmp_path))
    adapter = app.url_map.bind("floor")
    visited = {adapter.match(path.replace("{pass}", "/p/a-pass"))[0] for _who, path, _ready in pages}
    rules = {r.endpoint: r.rule for r in app.url_map.iter_rules()}
    assert {rules[e] for e in visited} >= every_kind.page_rules(app), "pages no test opens"


# --- every page, in every language -----------------------------------------------------------------

@pytest.mark.parametrize("lang", ["fr", "de", "en"])
def test_every_page_says_everything_in_the_language_fits_and_has_no_serious_finding(browser, floor, lang):
    srv, _url, _made, pages = floor
    english = _english_sentences()
    problems, logins = [], {}
    for user in dict.fromkeys(u for u, _, _ in pages):
        ctx, page = _login(browser, srv, user, lang, logins)
        for who, path, ready in pages:
            if who != user:
                continue
            if path == "{pass}":
                path = _pass(srv)
            _open(page, path, ready)
            problems += [f"{path}: {p}" for p in _words(page, lang, english)]
            if lang != "en":
                problems += [f"{path}: {p}" for p in _fits(page, lang, path, user == "phone")]
            bad = _axe(page)
            if bad:
                problems.append(f"{path}: accessibility {bad}")
        ctx.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", ["fr", "de", "en"])
def test_every_sheet_says_everything_in_the_language_and_has_no_serious_finding(browser, floor, lang):
    srv, _url, made, _pages = floor
    english = _english_sentences()
    problems, logins = [], {}
    for i, (user, path, taps, ready, box) in enumerate(SHEETS):
        path = path.format(pending=made["pending"], **({"pass": _pass(srv)} if "{pass}" in path else {}))
        ctx, page = _login(browser, srv, user, lang, logins)
        page.goto(path)
        for tap in taps:
            page.locator(tap).first.click()
        page.wait_for_selector(ready)
        page.wait_for_load_state("networkidle")
        name = f"sheet-{lang}-{i:02d}-{path.strip('/').split('/')[0]}"
        if lang != "en":
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / f"{name}.png"))
        where = f"{path} {' > '.join(taps)}"
        problems += [f"{where}: {p}" for p in _words(page, lang, english, box)]
        bad = _axe(page, box)
        if bad:
            problems.append(f"{where}: accessibility {bad}")
        ctx.close()
    assert not problems, "\n".join(problems)
