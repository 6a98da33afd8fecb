"""SIGKILL the process that is settling 20,000 bets; after the restart the round is settled once,
completely (exactly-once is held by the database, not by memory)."""
from __future__ import annotations

import pytest

import os
import signal
import subprocess
import sys
from pathlib import Path

from sqlalchemy import create_engine, func, select
from sqlalchemy.orm import Session

from floor import ledger, rounds
from floor.models import Bet, Round, Settlement, Transfer
from floor.settings import HouseSettings
from tests.floor.rounds.bulk import make_spin

# kills real processes mid-settlement: left out of `make test-fast`, run by `make test`
pytestmark = pytest.mark.slow

HOUSE = HouseSettings()

ROOT = Path(__file__).resolve().parents[3]


def _engine(url):
    engine = create_engine(url)
    return engine


def test_a_killed_settlement_leaves_nothing_and_recovery_settles_once(db_url):
    engine = _engine(db_url)
    with Session(engine) as s:
        rid = make_spin(s)
        in_transfers = s.execute(select(func.count(Transfer.id))).scalar_one()
    proc = subprocess.Popen([sys.executable, "-m", "tests.floor.rounds.settle_worker", db_url, str(rid)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ})
    line = proc.stdout.readline()
    assert line.strip() == "settling", proc.stderr.read()
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    assert proc.returncode == -signal.SIGKILL
    engine.dispose()

    engine = _engine(db_url)   # "after a restart"
    with Session(engine) as s:
        assert s.get(Round, rid).status == "result"
        assert s.execute(select(func.count(Settlement.id))).scalar_one() == 0
        assert s.execute(select(func.count(Transfer.id))).scalar_one() == in_transfers
        assert ledger.check(s).ok
        assert rounds.recover(s, house=HOUSE) == [rid]
        s.commit()
    with Session(engine) as s:
        assert rounds.recover(s, house=HOUSE) == []          # a second recovery, or the stored timer, finds nothing
        assert rounds.settle(s, rid, house=HOUSE) is None
        s.commit()
        r = s.get(Round, rid)
        assert r.status == "settled"
        settlement = s.execute(select(Settlement).where(Settlement.round_id == rid)).scalar_one()
        assert settlement.bets == 20_000
        # every bet has its outcome in the ledger exactly once: one "return" or one "lose" transfer
        outcomes = s.execute(select(func.count(Transfer.id)).where(
            Transfer.round_id == rid, Transfer.kind.in_(("return", "lose")))).scalar_one()
        assert outcomes == 20_000
        staked = s.execute(select(func.sum(Bet.amount)).where(Bet.round_id == rid)).scalar_one()
        assert settlement.staked == staked
        assert ledger.balance(s, ledger.table_account(s, r.table_id, "in_play")) == 0
        assert ledger.check(s).ok
    engine.dispose()
