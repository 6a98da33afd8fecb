"""Start the test's floor processes as `python -m <module> <args>` would, without paying each one's
imports: this process imports the floor once, then forks a child per request, and the child runs the
module as ``__main__`` in the environment, directory and files it is given. What runs is the real
process (its own pid, signals, process group, gunicorn and all); only the imports, the models' wiring
and what building one throwaway app leaves behind (compiled URL builders) are shared: nothing the
floor reads at start (settings, environment) is carried over from here.

Spoken to on stdin/stdout by tests.processes, one JSON object a line:
  in:  {"module": ..., "args": [...], "env": {...}, "cwd": ..., "log": path, "new_session": bool,
        "nice": int, "rtprio": int}
  out: {"ready": true} once, then {"pid": n} for each request, and {"exit": pid, "code": n} when a
       child ends (its exit code, or minus its signal, as subprocess reports it).
A module that registers hooks at import (tests.production.crashpoint) is not imported here: it runs
fresh in its child, as every ``__main__`` does.
"""
from __future__ import annotations

import importlib
import json
import os
import resource
import runpy
import select
import signal
import sys
import threading
import time

# what every floor process imports first; a fork finds them loaded
PRELOAD = ("app", "floor.runtime.serve", "floor.runtime.cli", "flask.cli", "gunicorn.app.base",
           "gunicorn.workers.gthread", "gunicorn.arbiter", "engineio.async_drivers.threading")


def _build_one_app() -> None:
    """Build an app once, on a throwaway SQLite file, and drop it: what building one leaves in the
    process (the URL rules' compiled builders, floor.web.routing; Socket.IO's websocket modules, imported
    by its first init) is found there by every server forked after, which builds its own from its own
    settings. About a third of a test server's start, measured with py-spy."""
    import logging
    import tempfile
    from pathlib import Path

    from app import create_app
    from config import load_config
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    with tempfile.TemporaryDirectory() as folder:
        built = create_app(load_config(environ={"FLOOR_SECRET_KEY": "warm-up"}, overrides={"app": {
            "database_url": f"sqlite:///{folder}/warm.db", "instance_path": str(Path(folder) / "instance"),
            "run_scheduler": False, "run_devices": False, "simulate_devices": False, "demo": False}}))
        with built.app_context():
            from floor.web.extensions import db
            db.engine.dispose()
    # create_app configures logging once per process (basicConfig): each server must do it itself
    root.handlers[:], root.level = handlers, level


def _send(obj: dict) -> None:
    os.write(1, (json.dumps(obj) + "\n").encode())


def _reap() -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        _send({"exit": pid, "code": os.waitstatus_to_exitcode(status)})


def serve_forks() -> dict | None:
    """Fork on each request; returns the request in the child (and None in this process at the end)."""
    for name in PRELOAD:
        importlib.import_module(name)
    # SQLAlchemy wires the models' relationships at a process's first query (about 0.1 s of CPU, in
    # every server a test starts); wired here, once, every child finds them wired
    from sqlalchemy.orm import configure_mappers
    configure_mappers()
    _build_one_app()
    # a fork copies only the thread that forks: a thread started by an import would be missing, holding
    # whatever lock it held, in every child
    assert threading.active_count() == 1, threading.enumerate()
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    _send({"ready": True})
    pending = b""
    while True:
        try:
            readable, _, _ = select.select([0, wake_r], [], [])
        except InterruptedError:
            continue
        if wake_r in readable:
            try:
                os.read(wake_r, 4096)
            except BlockingIOError:
                pass
            _reap()
        if 0 not in readable:
            continue
        chunk = os.read(0, 65536)
        if not chunk:   # the test worker is gone; its children are its to stop
            return None
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            request = json.loads(line)
            pid = os.fork()
            if pid == 0:
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                signal.set_wakeup_fd(-1)
                os.close(wake_r)
                os.close(wake_w)
                return request
            _send({"pid": pid})
        _reap()


def run_child(request: dict) -> None:
    """In the forked child: become the process that was asked for, then run it."""
    if request.get("new_session"):
        os.setsid()
    if request.get("nice"):
        os.nice(request["nice"])
    if request.get("rtprio"):
        try:
            resource.setrlimit(resource.RLIMIT_RTPRIO, (request["rtprio"], request["rtprio"]))
        except (ValueError, OSError):   # a user who may not raise it: the readers say so and run normally
            pass
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    time.tzset()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    if request["env"].get("FLOOR_SERVER_WORKER") == "gevent":
        # gevent patches the standard library before anything is imported (floor.runtime.green):
        # this process has imported it all, so the child starts afresh
        os.execv(sys.executable, [sys.executable, "-m", request["module"], *request["args"]])
    sys.argv = [request["module"], *request["args"]]
    # as `python -m`: the module runs as __main__; its SystemExit ends this interpreter the usual way
    # (non-daemon threads joined, atexit handlers run, the exit code passed on)
    runpy.run_module(request["module"], run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    asked = serve_forks()
    if asked is not None:
        run_child(asked)
