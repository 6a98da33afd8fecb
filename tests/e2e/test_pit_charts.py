"""The pit's charts in a real browser: spins played and rated, then the console's pace and
win/loss charts, the shift report's print layout, a wheel's frequencies and a player's visits are
drawn by Chart.js on their canvases (checked pixel by pixel) and photographed."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from floor import ledger
from floor.actors import Actor
from floor.pit import visits
from floor.settings import HouseSettings
from floor.tables import table_by_number
from tests.e2e.conftest import shot
from tests.floor.pit.play import spin
from tests.money import cash_in

DRAWN = """canvas => {
  if (canvas.dataset.drawn !== "yes" || !canvas.width || !canvas.height) return 0;
  const px = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  let inked = 0;
  for (let i = 3; i < px.length; i += 4) if (px[i] > 0) inked++;
  return inked;
}"""


def _play(sqlite_url):
    engine = create_engine(sqlite_url, connect_args={"timeout": 30})
    with Session(engine) as s:
        wheel = table_by_number(s, 12).id
        cash_in(s, 1, 100_000, house=HouseSettings())
        start = datetime.now(timezone.utc) - timedelta(minutes=40)
        visits.identify(s, Actor("Dan Dealer", "dealer", "t12"), wheel, 2, card_number="70000002", at=start)
        s.commit()
        for i, number in enumerate([17, 0, 5, 32, 17, 21, 9, 26]):
            spin(s, wheel, 80 + i, number, start + timedelta(minutes=4 * i),
                 [dict(spot="red", amount=2_000, player_id=1), dict(spot="straight", numbers=[17], amount=500, player_id=1),
                  dict(spot="black", amount=1_000, seat=2, source="dealer")])
    engine.dispose()


def _inked(page, selector: str) -> int:
    page.wait_for_function(f"document.querySelector('{selector}')?.dataset.drawn === 'yes'")
    return page.eval_on_selector(selector, DRAWN)


def test_the_pits_charts_are_drawn(page_as, live_server, sqlite_url):
    _play(sqlite_url)
    page = page_as("pitboss")
    page.goto("/pit")
    assert _inked(page, "#pace-chart") > 500
    assert _inked(page, "#winloss-chart") > 500
    page.wait_for_selector("#top-players tbody tr[data-player='1']")
    shot(page, "pit-console-charts")

    page.goto("/pit/shift")
    assert _inked(page, "#pace-chart") > 500 and _inked(page, "#winloss-chart") > 500
    page.emulate_media(media="print")
    shot(page, "shift-report-print-charts")
    page.emulate_media(media="screen")

    page.goto("/pit/wheels/12?lang=de")
    assert _inked(page, "#wheel-chart") > 500
    shot(page, "wheel-frequencies")

    page.goto("/pit/ratings?lang=fr")
    assert page.locator("#top-players tbody tr[data-player]").count() == 2
    shot(page, "player-ratings")

    page.goto("/pit/players/1")
    assert _inked(page, "#visits-chart") > 500
    shot(page, "player-visits")


def test_a_day_without_rounds_says_so_and_the_charts_come_when_rounds_do(page_as, live_server, sqlite_url):
    page = page_as("pitboss")
    page.goto("/pit")
    for box in ("#pace-chart", "#winloss-chart"):
        page.wait_for_selector(f"figure:has({box}) .chart-empty")
        assert page.inner_text(f"figure:has({box}) .chart-empty") == "No round played yet today."
        assert page.locator(box).is_hidden()
    shot(page, "pit-console-no-rounds")
    _play(sqlite_url)
    page.evaluate("window.__pit.loadCharts()")   # what a settled round's live update calls
    assert _inked(page, "#pace-chart") > 500 and _inked(page, "#winloss-chart") > 500
    assert page.locator(".chart-empty").count() == 0
