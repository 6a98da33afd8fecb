"""A web process told to stop (a restart, a deploy) lets its tablets go at once: their Socket.IO
connections never end by themselves, and the graceful stop would otherwise hold the process (and the
tablets on it, which cannot reconnect elsewhere yet) for its whole graceful timeout."""
from __future__ import annotations

import signal
import threading
import time

import pytest
import socketio

from app import create_app
from tests.conftest import make_config
from tests.servers import Server

pytestmark = pytest.mark.slow   # starts a real web process

GRACEFUL_S = 120   # far above a stop that lets the clients go; a stop that waits for them shows plainly


@pytest.fixture
def token(sqlite_url, tmp_path):
    app = create_app(make_config(sqlite_url, tmp_path))
    out = app.test_cli_runner().invoke(args=["floor", "token", "create", "pitboss"])
    assert out.exit_code == 0, out.output
    return out.output.strip()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
@pytest.mark.parametrize("transport", ["websocket", "polling"])
def test_a_stopping_web_process_disconnects_its_clients_and_exits(sig, transport, sqlite_url, token, tmp_path):
    server = Server(sqlite_url, tmp_path / "instance", FLOOR_SERVER_GRACEFUL_TIMEOUT=str(GRACEFUL_S)).wait()
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
