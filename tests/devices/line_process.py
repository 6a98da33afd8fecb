"""A device process for the journal's test: one reader on a port with its journal and the real bridge,
held behind its line on purpose (each table job sleeps first), until it is killed.

    python -m tests.devices.line_process DB_URL PORT JOURNAL_DIR DELAY_S TABLE_ID
"""
from __future__ import annotations

import sys
import threading

from sqlalchemy.orm import sessionmaker

from devices.bridge import FloorBridge
from devices.config import DeviceConfig
from devices.reader import DeviceReader
from tests.conftest import make_engine

NAME = "scanner-14"


def main(url: str, port: str, journal_dir: str, delay: float, table_id: int) -> None:
    factory = sessionmaker(bind=make_engine(url), expire_on_commit=False)
    bridge = FloorBridge(factory, {NAME: table_id}, {NAME: "scanner"}, delay_s=delay)
    DeviceReader(DeviceConfig(name=NAME, table="14", kind="scanner", port=port), bridge,
                 backoff_initial=0.02, backoff_max=0.2, journal_dir=journal_dir).start()
    threading.Event().wait()   # until killed


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), int(sys.argv[5]))
