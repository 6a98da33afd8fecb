"""Browser tests: Debian's chromium driven by Playwright, against a real server process."""
from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.conftest import template_copy
from tests.servers import Server

# Debian's headless shell (chromium's old headless mode, without the browser's own interface) renders the
# same pages for about three fifths of the CPU of full chromium in headless mode, on a suite the processor
# bounds; full chromium serves where the shell is not installed.
CHROMIUM = shutil.which("chromium-headless-shell") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = Path(__file__).resolve().parent.parent.parent / "screenshots"

# The floor's devices: the manager's iPad (touch) both ways, the dealer's terminal, the TV board.
IPAD = {"viewport": {"width": 1024, "height": 768}, "has_touch": True, "is_mobile": False}
IPAD_PORTRAIT = {"viewport": {"width": 768, "height": 1024}, "has_touch": True, "is_mobile": False}
DEALER = {"viewport": {"width": 1280, "height": 800}}
TV = {"viewport": {"width": 1920, "height": 1080}}
TV_720 = {"viewport": {"width": 1280, "height": 720}}


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            # Each worker runs browser tests with its own browser, and each test (or module) its own
            # server process, database copy and port: nothing is shared, so they spread over the workers.
            item.add_marker(pytest.mark.e2e)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A browser test that fails says what its pages showed at that moment (the text a person would
    read, an open dialog, the messages), and leaves a screenshot under screenshots/: a failure on a
    CI machine is understood from its log."""
    outcome = yield
    report = outcome.get_result()
    browser = item.funcargs.get("browser") if hasattr(item, "funcargs") else None
    if report.when != "call" or not report.failed or browser is None:
        return
    pages = [page for ctx in browser.contexts for page in ctx.pages]
    for i, page in enumerate(pages):
        try:
            dialog = page.locator("dialog[open]")
            opened = dialog.first.inner_text(timeout=5_000) if dialog.count() else ""
            text = page.locator("body").inner_text(timeout=5_000)
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / f"failed-{item.name}-{i}.png"), full_page=True, timeout=10_000)
        except Exception as exc:   # a page that cannot answer says that much
            opened, text = "", f"(the page did not answer: {exc})"
        head = f"open dialog: {opened}\n" if opened else ""
        watched = getattr(page, "floor_watch", None)
        if watched is not None:
            head += "requests, the last 25 (s since the page opened, method, path, answer):\n" + "".join(
                f"  {r[0]:7.1f} {r[1]} {r[2]} {r[3]}\n" for r in list(watched["requests"].values())[-25:])
            head += "".join(f"console: {m}\n" for m in watched["console"][-15:])
        report.sections.append((f"page {i} at {page.url}", head + text[:4000]))


def watch(page) -> None:
    """Keep what a page asked and was answered (pending: never answered), and its console errors, for
    the failure report above."""
    t0 = time.monotonic()
    seen = {"requests": {}, "console": []}
    page.floor_watch = seen

    def sent(request):
        seen["requests"][request] = [time.monotonic() - t0, request.method, urlsplit(request.url).path
                                     + (f"?{urlsplit(request.url).query}" if urlsplit(request.url).query else ""), "pending"]

    def answered(response):
        if response.request in seen["requests"]:
            seen["requests"][response.request][3] = f"{response.status} at {time.monotonic() - t0:.1f}"

    def failed(request):
        if request in seen["requests"]:
            seen["requests"][request][3] = f"failed: {request.failure}"
    page.on("request", sent)
    page.on("response", answered)
    page.on("requestfailed", failed)
    page.on("console", lambda m: m.type in ("error", "warning") and seen["console"].append(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda e: seen["console"].append(f"page error: {e}"))


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        if os.environ.get("FLOOR_REQUIRE_BROWSER"):
            pytest.fail("chromium is required for browser tests (apt-get install chromium-headless-shell)")
        pytest.skip("chromium not installed")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def stop_after_pages(request, server: Server) -> None:
    """Close the test's browser pages, then its server: a page left open would keep trying to reconnect
    its Socket.IO connection to a server that is gone, for as long as the browser runs."""
    if "browser" in request.fixturenames:
        for ctx in list(request.getfixturevalue("browser").contexts):
            ctx.close()
    server.stop(wait=False)


class ServerPool:
    """Servers on fresh copies of the demo floor, one started ahead: the next test's server boots
    (a second and more of imports) while this test drives its pages, and is ready when it is asked for."""

    def __init__(self, template: Path, tmp_path_factory) -> None:
        self.template, self.tmp = template, tmp_path_factory
        self.spare: tuple[Server, str] | None = None

    def _start(self) -> tuple[Server, str]:
        folder = self.tmp.mktemp("live")
        url = template_copy(self.template, folder)
        return Server(url, folder / "instance"), url

    def take(self) -> tuple[Server, str]:
        server, url = self.spare or self._start()
        self.spare = self._start()
        return server.wait(), url

    def close(self) -> None:
        if self.spare is not None:
            self.spare[0].stop(wait=False)


@pytest.fixture(scope="session")
def server_pool(sqlite_template, tmp_path_factory):
    pool = ServerPool(sqlite_template, tmp_path_factory)
    yield pool
    pool.close()


@pytest.fixture
def _live(server_pool):
    return server_pool.take()


@pytest.fixture
def sqlite_url(request, sqlite_template, tmp_path):
    """The database of the test's live server when it has one (the test arranges and checks rows in
    it), else a fresh copy as everywhere else."""
    if "live_server" in request.fixturenames:
        return request.getfixturevalue("_live")[1]
    return template_copy(sqlite_template, tmp_path)


@pytest.fixture
def live_server(request, _live):
    server = _live[0]
    yield server
    stop_after_pages(request, server)


@pytest.fixture
def page_as(browser, live_server):
    """page_as("manager") -> a logged-in tablet-sized page; page_as("dealer", table=1) for PIN logins."""
    contexts = []

    def make(username: str, table: int | None = None, password: str = "floorman-demo", pin: str = "1234",
             device: dict = DEALER):
        ctx = browser.new_context(**device, base_url=live_server.url)
        contexts.append(ctx)
        page = ctx.new_page()
        watch(page)
        page.set_default_timeout(60_000)   # a hang guard: every wait is on a DOM state, and a loaded two-core machine can be slow to reach it
        if table is not None:
            page.goto(f"/dealer/{table}/login")
            page.fill("input[name=username]", username)
            page.fill("input[name=pin]", pin)
        else:
            page.goto("/login")
            page.fill("input[name=username]", username)
            page.fill("input[name=password]", password)
        page.click("button[type=submit]")
        page.wait_for_load_state("networkidle")
        return page
    yield make
    for ctx in contexts:
        ctx.close()


def shot(page, name: str) -> Path:
    """Save a screenshot under screenshots/ (git-ignored) for a person to look at."""
    SHOTS.mkdir(exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
