"""The waiting list's rows on the floor's iPad held upright (768 px): each estimate is shown whole,
never cut mid-word; who added the player is cut with an ellipsis instead."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from floor.models import Table
from floor.poker import queries, seating, waitlist
from tests.e2e.conftest import shot
from tests.floor.poker_helpers import HOUSE, fill, manager

UPRIGHT = {"viewport": {"width": 768, "height": 1024}, "has_touch": True, "is_mobile": False}


def test_estimates_are_whole_on_an_upright_ipad(page_as, sqlite_url):
    engine = create_engine(sqlite_url, connect_args={"timeout": 30})
    now = datetime.now(timezone.utc)
    with Session(engine) as s:
        m = manager(s, "manager2")
        main = s.query(Table).filter_by(number=1).one()
        fill(s, main, range(1, 11), now - timedelta(hours=2))
        for seat in (2, 5, 7):
            at = now - timedelta(minutes=10 * seat)
            seating.leave(s, m, HOUSE, queries.open_assignment(s, main.id, seat), "left", 0, at)
            seating.sit(s, m, HOUSE, main, seat, 10 + seat, 50_000, at)
        for pid in (11, 13, 14, 16, 18, 19):
            waitlist.add(s, m, 1, pid, now - timedelta(minutes=3), note="wants the seat by the window, please")
        s.commit()
    engine.dispose()
    page = page_as("manager", device=UPRIGHT)
    page.wait_for_selector("#live-dot.on")
    rows = page.locator(".fl-list[data-game='1'] li.fl-entry .waiting-line")
    rows.first.wait_for()
    shot(page, "floor_wait_rows_upright")
    cut = page.evaluate("""() => [...document.querySelectorAll(".fl-list[data-game='1'] .waiting-line")].map(line => {
        const eta = line.querySelector(".eta"), added = line.querySelector(".added");
        return {eta: eta ? eta.textContent : null, etaCut: eta ? eta.scrollWidth > eta.clientWidth + 1 : null,
                addedCut: added.scrollWidth > added.clientWidth + 1,
                ellipsis: getComputedStyle(added).textOverflow};
    })""")
    assert len(cut) == 6 and all(c["eta"] and "min" in c["eta"] for c in cut), cut
    assert not any(c["etaCut"] for c in cut), cut
    assert all(c["ellipsis"] == "ellipsis" for c in cut)
    assert any(c["addedCut"] for c in cut)          # the long line is cut, with an ellipsis
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
