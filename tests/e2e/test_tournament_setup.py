"""Setting a tournament up on the tablet: a new event typed in once, kept as a template, and next
week's made from the template in two taps."""
from __future__ import annotations

from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from floor.models import Tournament, TournamentTemplate
from tests.e2e.conftest import shot
from tests.floor.tournaments.helpers import tables


def test_a_new_tournament_a_template_and_next_weeks_in_two_taps(page_as, sqlite_url):
    engine = create_engine(sqlite_url)
    with Session(engine) as s:
        tables(s, (41, 42))
        s.commit()
    page = page_as("manager")
    page.goto("/tournaments")
    page.wait_for_selector("#live-dot.on")
    page.click("#tn-create summary")
    page.fill("#tn-new-name", "Friday Deep Stack")
    page.select_option("#tn-new-structure", "weekly_deep_stack")
    page.fill("#tn-new-buyin", "200")
    page.fill("#tn-new-fee", "25.50")
    page.select_option("#tn-new-bounty-kind", "knockout")
    page.fill("#tn-new-bounty", "50")
    page.fill("#tn-new-guarantee", "5000")
    page.fill("#tn-new-seats", "10")
    page.fill("#tn-new-tables", "41, 42")
    page.get_by_role("button", name="Create", exact=True).click()
    page.wait_for_selector(".tn-clock h2:has-text('Friday Deep Stack')")
    page.get_by_role("button", name="Save as a template").click()
    # the app's own dialog, not the browser's prompt
    page.fill(".ask-dialog #ask-value", "Friday")
    page.click(".ask-dialog [data-action=confirm]")
    page.wait_for_selector(".tn-templates:not([hidden]) button:has-text('Friday')")
    shot(page, "tournament-setup")
    page.get_by_role("button", name="New: Friday").click()
    page.wait_for_function("document.querySelectorAll('.tn-tabs button').length === 2")
    with Session(engine) as s:
        made = s.query(Tournament).order_by(Tournament.id).all()
        assert [(t.name, t.buy_in, t.fee, t.bounty, t.guarantee, t.seats_per_table) for t in made] == \
            [("Friday Deep Stack", 20_000, 2_550, 5_000, 500_000, 10)] * 2
        assert made[1].template_id == s.query(TournamentTemplate).one().id
        assert made[0].structure["starting_stack"] == 30_000
    engine.dispose()
