"""A web process told to stop (a restart, a deploy) lets its tablets go at once: their Socket.IO
connections never end by themselves, and the graceful stop would otherwise hold the process (and the
tablets on it, which cannot reconnect elsewhere yet) for its whole graceful timeout."""
from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import socketio

from app import create_app
from tests.conftest import make_config
from tests.servers import Server

pytestmark = pytest.mark.slow   # starts a real web process

try:
    import gevent  # noqa: F401
    GEVENT = True
except ImportError:
    GEVENT = False
# the threads worker (pages and API), and gevent's (the live feed's processes, where it is installed)
WORKERS = ["threads", pytest.param("gevent", marks=pytest.mark.skipif(not GEVENT, reason="gevent is not installed"))]

ROOT = Path(__file__).resolve().parents[2]
GRACEFUL_S = 120   # far above a stop that lets the clients go; a stop that waits for them shows plainly


@pytest.fixture
def token(sqlite_url, tmp_path):
    app = create_app(make_config(sqlite_url, tmp_path))
    out = app.test_cli_runner().invoke(args=["floor", "token", "create", "pitboss"])
    assert out.exit_code == 0, out.output
    return out.output.strip()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
@pytest.mark.parametrize("transport", ["websocket", "polling"])
@pytest.mark.parametrize("worker", WORKERS)
def test_a_stopping_web_process_disconnects_its_clients_and_exits(sig, transport, worker, sqlite_url, token, tmp_path):
    server = Server(sqlite_url, tmp_path / "instance", FLOOR_SERVER_GRACEFUL_TIMEOUT=str(GRACEFUL_S),
                    FLOOR_SERVER_WORKER=worker).wait()
    gone = threading.Event()
    client = socketio.Client(reconnection=False)
    client.on("disconnect", lambda *_: gone.set(), namespace="/live")
    try:
        client.connect(server.url, namespaces=["/live"], auth={"token": token}, transports=[transport],
                       wait_timeout=60)
        assert client.connected
        server.proc.send_signal(sig)
        started = time.monotonic()
        # a hang guard, half the graceful timeout: the process either lets its clients go or waits it out
        code = server.proc.wait(GRACEFUL_S / 2)
        took = time.monotonic() - started
        print(f"{sig.name} {transport}: exited {code} after {took:.2f} s")
        assert code == 0, server.log_text()
        assert gone.wait(GRACEFUL_S / 2), "the client was not told the process went away"
        assert "SIGKILL" not in server.log_text()
    finally:
        client.disconnect()
        server.stop()


# A worker whose main thread is handing a request to its thread pool (holding the pool's lock) when the
# quick stop's signal lands: the real worker's start and its real signal handlers, one step short of
# serving.
CAUGHT_HANDING_A_REQUEST = """
import os, signal, sys, time
from gunicorn.config import Config
from gunicorn.glogging import Logger
from floor.runtime.serve import FloorWorker

class App:
    def wsgi(self):
        return lambda environ, start_response: []

class Caught(FloorWorker):
    def run(self):
        with self.tpool._shutdown_lock:   # as ThreadPoolExecutor.submit holds it
            os.kill(os.getpid(), signal.SIGQUIT)
            time.sleep(120)   # the handler ends the process before this returns
        sys.exit(3)

cfg = Config()
Caught(0, os.getppid(), [], App(), 30, cfg, Logger(cfg)).init_process()
"""


def test_a_quick_stop_that_lands_while_a_request_is_handed_to_a_thread_still_exits():
    """The signal can land at any step of the main thread; one that lands while it holds the thread
    pool's lock must not make the stop wait on that lock forever (the process would then hold its port
    and its tablets until the master's graceful timeout killed it)."""
    try:
        done = subprocess.run([sys.executable, "-c", CAUGHT_HANDING_A_REQUEST], cwd=ROOT, capture_output=True,
                              text=True, timeout=GRACEFUL_S / 2)   # a hang guard: the stop takes a second
    except subprocess.TimeoutExpired:
        pytest.fail("the worker hung on the quick stop")
    assert done.returncode == 0, done.stderr
