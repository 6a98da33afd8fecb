"""Stored before anything else, really: a device process killed with SIGKILL while it is behind its
line loses no byte. What it read is in its journal (flushed to the disk before decoding) and the next
process hands it on; what the device sent while no process ran is read when the port opens again."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from devices import journal
from devices.bridge import FloorBridge
from devices.config import DeviceConfig
from devices.reader import DeviceReader
from devices.scanner import encode_card
from floor.models import DeviceChunk
from floor.tables import table_by_number
from tests.conftest import make_engine
from tests.devices.helpers import wait_until
from tests.servers import ROOT

pytestmark = pytest.mark.slow   # two processes and a kill


def _stored(engine) -> bytes:
    with Session(engine) as s:
        return b"".join(s.execute(select(DeviceChunk.data).where(DeviceChunk.device == "scanner-14")
                                  .order_by(DeviceChunk.arrived_at, DeviceChunk.id)).scalars())


def test_a_killed_device_process_loses_no_byte(db_url, pty, tmp_path):
    engine = make_engine(db_url)
    with Session(engine) as s:
        table = table_by_number(s, 14).id
    jdir = tmp_path / "journal"
    proc = subprocess.Popen([sys.executable, "-m", "tests.devices.line_process", db_url, pty.path, str(jdir), "30",
                             str(table)], cwd=ROOT, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    path = jdir / "scanner-14.journal"
    try:
        wait_until(lambda: journal.read(path), what="the device process's port open (its break marker)")
        first = b"".join(encode_card(c) for c in ("AS", "TH", "KD", "9C"))
        for card in ("AS", "TH", "KD", "9C"):
            pty.write(encode_card(card))
        wait_until(lambda: b"".join(d for _, d in journal.read(path)) == first, what="the cards in the journal")
    finally:
        os.killpg(proc.pid, signal.SIGKILL)   # as a power cut would: nothing is cleaned up
        proc.wait()
    assert _stored(engine) == b""   # the process was 30 s a job behind: nothing reached the database
    later = encode_card("2C") + encode_card("7H")
    pty.write(later)                # the dealer went on while no process read the line

    factory = sessionmaker(bind=engine, expire_on_commit=False)
    bridge = FloorBridge(factory, {"scanner-14": table}, {"scanner-14": "scanner"})
    reader = DeviceReader(DeviceConfig(name="scanner-14", table="14", kind="scanner", port=pty.path), bridge,
                          backoff_initial=0.02, journal_dir=str(jdir)).start()
    try:
        wait_until(lambda: _stored(engine) == first + later, what="every byte stored")
        bridge.drain(30)
    finally:
        reader.stop()
        bridge.close()
    assert reader.health().frames == 6   # each card decoded once: none lost, none twice
    # the journal keeps only its tail once the floor has what it holds
    assert len(journal.read(path)) <= journal.KEEP
    engine.dispose()
