"""Hand for hand in a real browser: the tablet, the TV board and each dealer terminal say so; the
floor deals a hand, each dealer says when his table has played it, and the clock stops until the
next deal."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from floor.models import Tournament
from floor.tournaments import clock, core, eliminations, registration
from tests.e2e.conftest import shot
from tests.floor.tournaments.helpers import HOUSE, manager, players, tables, tournament


def _arrange(url) -> tuple[int, list[int]]:
    """Eight entries (three places paid), three seats a table, late registration over: busts down to
    four players on two tables, one from the money."""
    engine = create_engine(url)
    s = Session(engine)
    start = datetime.now(timezone.utc) - timedelta(minutes=110)
    tables(s)
    t = tournament(s, seats_per_table=3, final_table_size=3)
    m = manager(s)
    for p in players(s, 8):
        registration.register(s, m, HOUSE, t.id, p, "cash", start)
    clock.start(s, m, t.id, start)
    now = datetime.now(timezone.utc) - timedelta(minutes=2)
    while len(core.entries(s, t, *core.IN_PLAY)) > 4:
        seated = core.entries(s, t, "seated")
        e = seated[0]
        w = next(x for x in seated if x.table_id == e.table_id and x.id != e.id)
        eliminations.bust(s, m, HOUSE, t.id, [{"entry_id": e.id, "chips_at_start": 1_000}], [w.id], now=now)
    s.commit()
    tid, numbers = t.id, [tt.table.number for tt in core.tables(s, t, in_play=True)]
    s.close()
    engine.dispose()
    return tid, numbers


def test_the_floor_deals_each_hand_and_every_table_says_when_it_is_done(browser, live_server, sqlite_url):
    tid, numbers = _arrange(sqlite_url)
    assert len(numbers) == 2

    def login(path, username, secret_field, secret):
        ctx = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=live_server.url)
        page = ctx.new_page()
        page.set_default_timeout(60_000)
        page.goto(path)
        page.fill("input[name=username]", username)
        page.fill(f"input[name={secret_field}]", secret)
        page.click("button[type=submit]")
        page.wait_for_load_state("networkidle")
        return page

    floor = login("/login", "manager", "password", "floorman-demo")
    floor.goto(f"/tournaments?t={tid}")
    floor.wait_for_selector("#live-dot.on")
    assert "waiting for the first deal" in floor.inner_text(".tn-hfh")
    board = login("/login", "display", "password", "floorman-demo")
    board.goto(f"/tournaments/{tid}/clock")
    board.wait_for_selector(".tc-hfh")
    dealers = [login(f"/dealer/{n}/login", "dealer", "pin", "1234") for n in numbers]
    for d in dealers:
        d.wait_for_selector("#live-dot.on")
        d.wait_for_selector(".td-hfh.wait")

    floor.get_by_role("button", name="Deal the next hand at every table").click()
    for d in dealers:                              # told live, without a reload
        d.wait_for_selector(".td-hfh.deal")
    board.wait_for_selector(".tc-main:not(.paused)")
    shot(floor, "tournament-hand-for-hand-floor")
    dealers[0].get_by_role("button", name="Hand played, nobody out").click()
    dealers[0].wait_for_selector(".td-hfh.done")
    floor.wait_for_selector(".tn-hfh:has-text('1 of 2 tables done')")
    shot(dealers[0], "tournament-hand-for-hand-dealer")
    dealers[1].get_by_role("button", name="Hand played, nobody out").click()
    for d in dealers:
        d.wait_for_selector(".td-hfh.wait")
    board.wait_for_selector(".tc-main.paused")
    floor.wait_for_selector(".tn-hfh:has-text('over: waiting for the next deal')")
    shot(board, "tournament-hand-for-hand-board")
    engine = create_engine(sqlite_url)
    with Session(engine) as s:
        t = s.get(Tournament, tid)
        assert t.hfh_hand is not None and t.hfh_left is None and clock.open_pause(s, t).reason == "hand for hand"
    engine.dispose()
