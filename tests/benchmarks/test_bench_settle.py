"""Settling one roulette spin of 20,000 bets from 5,000 players, against a raw bulk insert of the
same ledger rows through the same driver.

Run by ``make bench``; prints ``settle_20k_seconds_sqlite`` and ``settle_20k_ratio_sqlite`` (and the
``_postgres`` pair when TEST_DATABASE_URL is set). Goal: ratio <= 2.
"""
from __future__ import annotations

import shutil
import time
from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine, insert, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from floor import rounds
from floor.models import Transfer
from floor.settings import HouseSettings
from tests.conftest import make_engine
from tests.floor.rounds.bulk import make_spin

HOUSE = HouseSettings()


@contextmanager
def twin(db_url: str):
    """A copy of the database as it is now: the raw insert starts from the very same state."""
    url = make_url(db_url)
    if db_url.startswith("sqlite"):
        copy = url.database + ".twin"
        shutil.copyfile(url.database, copy)
        yield url.set(database=copy).render_as_string(hide_password=False)
        return
    name = f"{url.database}_twin"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{url.database}"'))
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def test_bench_settle_20k(db_url):
    backend = "sqlite" if db_url.startswith("sqlite") else "postgres"
    engine = make_engine(db_url)
    with Session(engine) as s:
        rid = make_spin(s)
    engine.dispose()
    with twin(db_url) as twin_url:
        _run(backend, db_url, twin_url, rid)


def _run(backend: str, db_url: str, twin_url: str, rid: int) -> None:
    engine = make_engine(db_url)
    with Session(engine) as s:
        start = time.perf_counter()
        settlement = rounds.settle(s, rid, house=HOUSE)
        s.commit()
        settle_s = time.perf_counter() - start
        assert settlement is not None and settlement.bets == 20_000
        cols = [c for c in Transfer.__table__.columns if c.name != "id"]
        rows = [dict(r) for r in s.execute(select(*cols).where(Transfer.round_id == rid)).mappings()]
    engine.dispose()
    # the same ledger rows, inserted raw in one executemany into the twin, committed
    raw = make_engine(twin_url)
    with raw.connect() as conn:
        start = time.perf_counter()
        with conn.begin():
            conn.execute(insert(Transfer.__table__), rows)
        raw_s = time.perf_counter() - start
    raw.dispose()
    print()
    print(f"settle_20k_transfers_{backend}: {len(rows)}")
    print(f"settle_20k_seconds_{backend}: {settle_s:.3f}")
    print(f"settle_20k_ratio_{backend}: {settle_s / raw_s:.2f}")
    if settle_s / raw_s > 2:
        pytest.fail(f"settling is {settle_s / raw_s:.2f}x the raw insert (goal <= 2)")
