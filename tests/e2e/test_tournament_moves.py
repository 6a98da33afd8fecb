"""A tap on the tournament tablet while a live update redraws the page still lands ("Done" on a move,
"Record the players out"): the tablet's press and release come apart in time, and another tablet (or
the clock) can change the tournament in between."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import requests
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from floor.models import TournamentElimination, TournamentEntry, TournamentMove
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


def _tap_while_another_tablet_redraws(page, button, server, path: str, body: dict, redrawn: str) -> None:
    """Press ``button``, let another tablet's POST to ``path`` redraw the page (``redrawn`` shows), release."""
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    other = requests.Session()
    token = browser_login(other, server.url, "manager")
    answer = other.post(server.url + path, json=body, headers={"X-CSRFToken": token})
    assert answer.status_code == 200, answer.text
    page.wait_for_selector(redrawn)
    page.mouse.up()


def test_taps_made_while_the_page_redraws_still_land(page_as, live_server, sqlite_url):
    tid, move = _arrange(sqlite_url)
    floor = page_as("manager", device=IPAD)
    floor.goto("/tournaments")
    floor.wait_for_selector("#live-dot.on")

    # "Done" on the move, while another tablet pauses the clock
    _tap_while_another_tablet_redraws(floor, floor.locator(f"li[data-move='{move}'] button"), live_server,
                                      f"/api/tournaments/{tid}/pause", {"reason": "a dispute at table 42"},
                                      ".tn-clock :text('Resume the clock')")
    floor.wait_for_selector(f"li[data-move='{move}']", state="detached")

    # a player out on a hand, recorded while another tablet resumes the clock
    engine = create_engine(sqlite_url)
    with Session(engine) as s:
        t = core.get(s, tid)
        layout = core.layout(s, t)
        out, winner = [layout[42][seat] for seat in sorted(layout[42])][:2]
    floor.check(f".tn-out[value='{out}']")
    floor.fill(f".tn-chips[data-entry='{out}']", "3000")
    _tap_while_another_tablet_redraws(floor, floor.locator(f".tn-winner[data-entry='{winner}']"),
                                      live_server, f"/api/tournaments/{tid}/resume", {}, ".tn-clock :text('Pause the clock')")
    floor.wait_for_selector(f"tr[data-entry='{out}'][data-status='out']")

    with Session(engine) as s:
        assert s.get(TournamentMove, move).done_at is not None
        assert s.get(TournamentEntry, out).status == "out"
        # recorded once, with what the manager entered
        (gone,) = s.execute(select(TournamentElimination).where(TournamentElimination.entry_id == out)).scalars()
        assert (gone.chips_at_start, gone.winners) == (3_000, [winner])
    engine.dispose()
