"""Opening a closed table as a must-move table on the floor's iPad when two tables of the game are
open: the sheet asks which table it feeds, and the table opens chained behind the one chosen."""
from __future__ import annotations

from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from floor.models import Table
from floor.poker import queries
from tests.e2e.conftest import IPAD, shot
from tests.floor.poker_helpers import add_table


def test_the_open_sheet_asks_which_table_a_must_move_table_feeds(page_as, sqlite_url):
    engine = create_engine(sqlite_url, connect_args={"timeout": 30})
    with Session(engine) as s:
        add_table(s, 4, status="open")          # Hold'em 2/5 at tables 1 and 4; table 2 closed
        s.commit()
    page = page_as("manager", device=IPAD)
    page.wait_for_selector("#live-dot.on")
    page.locator("article.fl-table[data-table='2'] [data-action=open-table]").tap()
    sheet = page.locator("#fl-sheet")
    choices = sheet.locator("[data-action=open-mm]")
    choices.first.wait_for()
    assert [choices.nth(i).get_attribute("data-feeds") for i in range(choices.count())] == ["1", "4"]
    assert "for table 4" in sheet.locator("[data-action=open-mm][data-feeds='4']").inner_text()
    shot(page, "floor_open_mustmove_choice")
    sheet.locator("[data-action=open-mm][data-feeds='4']").tap()
    page.locator("article.fl-table.open[data-table='2']").wait_for()
    assert page.locator("#toasts .toast.error").count() == 0
    with Session(engine) as s:
        chain = queries.chain_of(s, s.query(Table).filter_by(number=2).one().id)
        assert [chain.number(t) for t in chain.tables] == [4, 2]
    engine.dispose()
