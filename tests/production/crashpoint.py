"""Run a floor process (``python -m tests.production.crashpoint floor.runtime.serve`` or
``... crashpoint flask floor devices``) with a pause point for the crash tests.

While the file named by FLOOR_TEST_ARM exists, the first SQL statement matching the regular
expression it holds pauses the process inside its transaction, after writing FLOOR_TEST_MARK; the
test then SIGKILLs it there. Nothing else changes: the process is the real one.
"""
from __future__ import annotations

import os
import re
import runpy
import sys
import time

from sqlalchemy import event
from sqlalchemy.engine import Engine

ARM = os.environ.get("FLOOR_TEST_ARM", "")
MARK = os.environ.get("FLOOR_TEST_MARK", "")


@event.listens_for(Engine, "before_cursor_execute")
def _pause(conn, cursor, statement, parameters, context, executemany):
    if not ARM:
        return
    try:
        with open(ARM) as fh:
            pattern = fh.read().strip()
    except OSError:
        return
    if pattern and re.search(pattern, statement):
        with open(MARK, "w") as fh:
            fh.write(f"{os.getpid()} {statement[:120]}\n")
        while True:   # killed here, in the middle of the transaction
            time.sleep(60)


def main() -> None:
    target, sys.argv = sys.argv[1], sys.argv[1:]
    if target == "flask":
        from flask.cli import main as flask_main
        flask_main()
    else:
        runpy.run_module(target, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
