"""The pit's shift figures show each tournament's money of the gaming day: fees are the house's."""
from __future__ import annotations

from datetime import timedelta

from floor.gaming_day import gaming_day
from floor.pit import shift
from floor.tournaments import clock, eliminations, registration
from tests.floor.tournaments.helpers import HOUSE, T0, manager, players, tables, tournament


def test_fees_entries_prizes_and_the_overlay_of_the_day(session):
    m = manager(session)
    t = tournament(session, table_numbers=tables(session, (41,)), guarantee=50_000)
    entries = [registration.register(session, m, HOUSE, t.id, p, "cash", T0) for p in players(session, 4)]
    registration.unregister(session, m, t.id, entries[3].id, T0)
    clock.start(session, m, t.id, T0)
    at = T0 + timedelta(minutes=101)
    a, b, c = entries[:3]
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": a.id, "chips_at_start": 10}], [b.id], now=at)
    eliminations.bust(session, m, HOUSE, t.id, [{"entry_id": b.id, "chips_at_start": 10}], [c.id], now=at)
    fig = shift.figures(session, gaming_day(T0, HOUSE.timezone, HOUSE.gaming_day_rollover), HOUSE)
    (row,) = fig["tournaments"]
    assert row == {"tournament_id": t.id, "name": "Friday Turbo", "entries": 3, "fees": 3 * 1_500,
                   "collected": 30_000, "prizes": 50_000, "overlay": 20_000, "house": 4_500 - 20_000,
                   "rebuys": 0}
    csv = shift.to_csv(fig).splitlines()
    assert csv[-2].split(",")[1:6] == ["Tournament", "Name", "Entries", "Rebuys and add-ons", "Fees (house revenue)"]
    assert csv[-1].split(",")[1:] == [f"#{t.id}", "Friday Turbo", "3", "0", "45.00", "300.00", "500.00", "200.00", "-155.00"]
