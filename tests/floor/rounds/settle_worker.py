"""Run in a subprocess by the crash test: settle one round, announcing (and pausing) once the
transfers start going in, so the parent can SIGKILL it in the middle of the transaction."""
from __future__ import annotations

import sys
import time

from sqlalchemy import event
from sqlalchemy.orm import Session

from floor.settings import HouseSettings
from tests.conftest import make_engine

HOUSE = HouseSettings()


def main(url: str, round_id: int) -> None:
    engine = make_engine(url)   # set up like the app's

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
