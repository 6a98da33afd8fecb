"""The pit on a big spin: 20,000 bets from 5,000 players, settled, then laid out as a timeline,
replayed, corrected (compensating transfers for every bet whose pay changes) and counted in the
shift figures.

Run by ``make bench``; prints ``pit_timeline_20k_seconds``, ``pit_correct_20k_seconds`` and
``pit_shift_seconds`` per backend. Nothing is asserted about speed.
"""
from __future__ import annotations

import time

from sqlalchemy.orm import Session

from floor import ledger, pit, rounds
from floor.actors import Actor
from floor.settings import HouseSettings
from tests.conftest import make_engine
from tests.floor.rounds.bulk import AT, make_spin

HOUSE = HouseSettings(dispute_two_person_cents=10**12)
BOSS = Actor("Paul Pitboss", "pit_boss", "pit-1", 1)


def test_bench_pit_20k(db_url):
    backend = "sqlite" if db_url.startswith("sqlite") else "postgres"
    engine = make_engine(db_url)
    with Session(engine) as s:
        rid = make_spin(s)
        rounds.settle(s, rid, house=HOUSE)
        s.commit()
    with Session(engine) as s:
        start = time.perf_counter()
        tl = pit.timeline(s, rid, HOUSE)
        timeline_s = time.perf_counter() - start
        assert len(tl["bets"]) == 20_000 and len(tl["transfers"]) >= 20_000
    with Session(engine) as s:
        start = time.perf_counter()
        ruling = pit.rule(s, BOSS, rid, "correct", "the ball was in 18", {"number": 18}, house=HOUSE)
        s.commit()
        correct_s = time.perf_counter() - start
        assert pit.state(s, ruling) == "applied" and ledger.check(s).ok
    with Session(engine) as s:
        start = time.perf_counter()
        fig = pit.figures(s, pit.today(HOUSE, AT), HOUSE)
        shift_s = time.perf_counter() - start
        assert sum(r["bets"] for r in fig["tables"]) == 20_000
    engine.dispose()
    print()
    print(f"pit_timeline_20k_seconds_{backend}: {timeline_s:.3f}")
    print(f"pit_correct_20k_seconds_{backend}: {correct_s:.3f}")
    print(f"pit_shift_seconds_{backend}: {shift_s:.3f}")
