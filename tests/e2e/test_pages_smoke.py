"""The login page and the floor map, in a real browser, with a live update and no reload."""
from __future__ import annotations

import requests
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from floor import alerts
from floor.actors import Actor
from tests.e2e.conftest import shot
from tests.servers import browser_login


def test_login_page_then_floor_map_and_alerts_update_live(page_as, live_server, browser, sqlite_url):
    engine = create_engine(sqlite_url)
    with Session(engine) as s:
        alert_id = alerts.raise_alert(s, Actor.system(), "device_lost", "Wheel at table 12 lost", table_id=None).id
        s.commit()
    engine.dispose()

    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=live_server.url)
    login = ctx.new_page()
    login.goto("/login")
    assert login.locator("h1").inner_text() == "Staff login"
    shot(login, "login")
    ctx.close()

    page = page_as("manager")
    assert page.url.endswith("/floor")
    page.wait_for_selector("#live-dot.on")
    assert page.locator("article.fl-table").count() == 7
    assert "free" in page.locator("article[data-table='1'] .fl-seat[data-seat='4']").inner_text()
    alert = page.locator(f"li.alert[data-alert='{alert_id}']")
    assert "Wheel at table 12 lost" in alert.inner_text()
    shot(page, "floor")

    # Another tablet acknowledges it: it leaves this page without a reload.
    page.evaluate("window.__marker = 42")
    other = requests.Session()
    token = browser_login(other, live_server.url, "manager2")
    resp = other.post(f"{live_server.url}/api/alerts/{alert_id}/acknowledge", json={}, headers={"X-CSRFToken": token})
    assert resp.status_code == 200
    alert.wait_for(state="detached")
    assert page.evaluate("window.__marker") == 42
