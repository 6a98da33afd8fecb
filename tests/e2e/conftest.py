"""Browser tests: Debian's chromium driven by Playwright, against a real server process."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.servers import Server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
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


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        if os.environ.get("FLOOR_REQUIRE_BROWSER"):
            pytest.fail("chromium is required for browser tests (apt-get install chromium)")
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


@pytest.fixture
def live_server(request, sqlite_url, tmp_path):
    server = Server(sqlite_url, tmp_path / "instance").wait()
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
