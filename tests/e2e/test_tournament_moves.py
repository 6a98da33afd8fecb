"""A move tapped "Done" on the floor tablet while a live update redraws the page still lands: the
tablet's press and release come apart in time, and another tablet (or the clock) can change the
tournament in between."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import requests
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from floor.models import TournamentMove
from floor.tournaments import clock, core, eliminations, registration
from tests.e2e.conftest import IPAD
from tests.floor.tournaments.helpers import HOUSE, manager, players, tables, tournament
from tests.servers import browser_login


def _arrange(url) -> tuple[int, int]:
    """Twelve players at two tables; two out at the first: one move from the second to balance them."""
    engine = create_engine(url)
    with Session(engine) as s:
        start = datetime.now(timezone.utc) - timedelta(minutes=5)
        t = tournament(s, table_numbers=tables(s, (41, 42)))
        m = manager(s)
        for p in players(s, 12):
            registration.register(s, m, HOUSE, t.id, p, "cash", start)
        clock.start(s, m, t.id, start)
        layout = core.layout(s, t)
        first = [layout[41][seat] for seat in sorted(layout[41])]
        eliminations.bust(s, m, HOUSE, t.id, [{"entry_id": first[0], "chips_at_start": 20_000},
                                              {"entry_id": first[1], "chips_at_start": 20_000}], [first[2]])
        s.commit()
        (move,) = s.execute(select(TournamentMove).where(TournamentMove.tournament_id == t.id)).scalars()
        out = t.id, move.id
    engine.dispose()
    return out


def test_done_tapped_while_the_page_redraws_still_makes_the_move(page_as, live_server, sqlite_url):
    tid, move = _arrange(sqlite_url)
    floor = page_as("manager", device=IPAD)
    floor.goto("/tournaments")
    floor.wait_for_selector("#live-dot.on")
    done = floor.locator(f"li[data-move='{move}'] button")
    done.scroll_into_view_if_needed()
    box = done.bounding_box()
    answers = int(floor.evaluate("document.documentElement.dataset.answers || '0'"))

    # the finger is down on "Done" when another tablet pauses the clock: the page redraws
    floor.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    floor.mouse.down()
    other = requests.Session()
    token = browser_login(other, live_server.url, "manager")
    paused = other.post(f"{live_server.url}/api/tournaments/{tid}/pause", json={"reason": "a dispute at table 42"},
                        headers={"X-CSRFToken": token})
    assert paused.status_code == 200, paused.text
    floor.wait_for_function(f"Number(document.documentElement.dataset.answers) > {answers}")
    floor.wait_for_selector(".tn-clock :text('Resume the clock')")
    floor.mouse.up()

    floor.wait_for_selector(f"li[data-move='{move}']", state="detached")
    engine = create_engine(sqlite_url)
    with Session(engine) as s:
        assert s.get(TournamentMove, move).done_at is not None
    engine.dispose()
