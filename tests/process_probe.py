"""Run by tests/test_processes.py as ``python -m tests.process_probe CODE``: prints what a started
process sees of itself, then exits with CODE (or waits to be signalled when CODE is "wait")."""
import json
import os
import signal
import sys

print(json.dumps({"argv": sys.argv[1:], "cwd": os.getcwd(), "env": os.environ.get("PROBE"),
                  "leaked": os.environ.get("FLOOR_APP_DATABASE_URL"), "nice": os.nice(0),
                  "leader": os.getsid(0) == os.getpid(), "main": __name__}), flush=True)
if sys.argv[1] == "wait":
    signal.pause()
sys.exit(int(sys.argv[1]))
