"""Run in a subprocess by the crash test: settle one round, announcing (and pausing) once the
transfers start going in, so the parent can SIGKILL it in the middle of the transaction."""
from __future__ import annotations

import sys
import time

from sqlalchemy import create_engine, event
from sqlalchemy.orm import Session

from floor.settings import HouseSettings

HOUSE = HouseSettings()


def main(url: str, round_id: int) -> None:
    engine = create_engine(url)
    if url.startswith("sqlite"):
        @event.listens_for(engine, "connect")
        def _c(dbapi_conn, _):
            dbapi_conn.isolation_level = None
            dbapi_conn.execute("PRAGMA journal_mode=WAL")
            dbapi_conn.execute("PRAGMA busy_timeout=30000")

        @event.listens_for(engine, "begin")
        def _b(conn):
            conn.exec_driver_sql("BEGIN IMMEDIATE")

    @event.listens_for(engine, "after_cursor_execute")
    def _mid(conn, cursor, statement, params, context, executemany):
        if statement.lstrip().upper().startswith("INSERT INTO TRANSFERS"):
            print("settling", flush=True)
            time.sleep(30)   # the parent kills us here, transfers written but not committed

    from floor import rounds
    with Session(engine) as s:
        rounds.settle(s, round_id, house=HOUSE)
        s.commit()
    print("committed", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
