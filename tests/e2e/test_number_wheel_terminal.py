"""The dealer terminal at a roulette table whose wheel sends only its numbers (``protocol =
"wheel-number-v1"`` in the server's configuration): the dealer taps "Open betting" and "No more bets",
the wheel's line arrives on the pty the server reads, and the terminal shows the number and what was
paid, live, without a reload."""
from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from devices.simulate.base import PtyEnd
from floor import ledger
from floor.models import Round
from floor.tables import table_by_number
from tests.conftest import make_engine
from tests.e2e.conftest import DEALER, shot, stop_after_pages, watch
from tests.servers import Server


@pytest.fixture
def number_wheel_floor(request, sqlite_url, tmp_path):
    """A server (gunicorn, as `make run`) whose device readers own a winning-number-only wheel at
    table 12, on a pty this test writes to."""
    end = PtyEnd(link=str(tmp_path / "usb-wheel-12"))
    config = tmp_path / "floor.toml"
    config.write_text(f'[[devices]]\nname = "wheel-12"\ntable = 12\nkind = "wheel"\nport = "{end.path}"\n'
                      f'protocol = "wheel-number-v1"\n')
    server = Server(sqlite_url, tmp_path / "instance", FLOOR_CONFIG=str(config), FLOOR_APP_RUN_DEVICES="true").wait()
    server.end, server.db_url = end, sqlite_url
    yield server
    stop_after_pages(request, server)
    end.close()


def test_the_dealers_taps_close_betting_and_the_wheels_number_settles_on_the_terminal(browser, number_wheel_floor):
    ctx = browser.new_context(**DEALER, base_url=number_wheel_floor.url)
    page = ctx.new_page()
    watch(page)
    page.set_default_timeout(60_000)   # a hang guard: every wait is on what the page shows
    page.goto("/dealer/12/login")
    page.fill("input[name=username]", "dealer")
    page.fill("input[name=pin]", "1234")
    page.click("button[type=submit]")
    page.wait_for_selector("#live-dot.on")

    page.click("#btn-open")   # the wheel has no "place bets" state: the dealer opens betting
    page.wait_for_selector(".round-status.betting")
    page.select_option("#spot-select", "red")
    page.fill("#bet-form input[name=amount]", "25")
    page.click("#bet-form button[type=submit]")
    page.wait_for_selector("#bets tr")
    page.select_option("#spot-select", "black")
    page.fill("#bet-form input[name=amount]", "10")
    page.click("#bet-form button[type=submit]")
    page.wait_for_selector("#bets tr:nth-child(2)")
    page.click("#btn-close")   # "no more bets": the dealer's tap, the wheel cannot say it
    page.wait_for_selector(".round-status.locked")
    assert "Waiting for the wheel" in page.locator(".wheel-result").inner_text()
    shot(page, "dealer_number_wheel_locked")

    number_wheel_floor.end.write(b"N:7:CW\r\n")   # the ball comes to rest on 7 (red)
    page.wait_for_selector(".round-status.settled")
    assert page.locator(".wheel-result .ball.big").inner_text() == "7"
    assert page.locator("#paid-total").inner_text() == "50.00"   # red 25 back twice; black lost
    assert "Waiting for the wheel" not in page.locator(".wheel-result").inner_text()   # nothing more to come
    shot(page, "dealer_number_wheel_settled")
    ctx.close()

    engine = make_engine(number_wheel_floor.db_url)
    try:
        with Session(engine) as s:
            table = table_by_number(s, 12).id
            r = s.execute(select(Round).where(Round.table_id == table).order_by(Round.id.desc())).scalars().first()
            assert (r.status, r.result["number"], r.device["direction"]) == ("settled", 7, 0)
            assert ledger.check(s).ok
    finally:
        engine.dispose()
