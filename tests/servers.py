"""Start real server processes (gunicorn, as `make run` does) for multi-process and browser tests."""
from __future__ import annotations

import atexit
import os
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import requests

from tests import processes
from tests.conftest import steady_rollover

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, db_url: str, instance: Path, **env: str):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        instance.mkdir(parents=True, exist_ok=True)
        self.env = {**{k: v for k, v in os.environ.items() if not k.startswith("FLOOR_")},
                    "FLOOR_SECRET_KEY": "test-secret-key", "FLOOR_APP_DATABASE_URL": db_url,
                    "FLOOR_APP_INSTANCE_PATH": str(instance), "FLOOR_APP_DEMO": "false",
                    "FLOOR_APP_RUN_SCHEDULER": "false", "FLOOR_APP_RUN_DEVICES": "false",
                    "FLOOR_APP_SIMULATE_DEVICES": "false", "FLOOR_SERVER_PORT": str(self.port),
                    "FLOOR_SERVER_THREADS": "16", "FLOOR_APP_LOG_LEVEL": "WARNING",
                    "FLOOR_SECURITY_LOGIN_RATE_LIMIT": '"1000 per minute"',
                    "FLOOR_HOUSE_GAMING_DAY_ROLLOVER": f'"{steady_rollover()}"', **env}
        self.log = open(instance / f"server-{self.port}.log", "w")
        # a session of its own: a stop that has to kill kills the whole process group, so no worker of
        # it is left behind writing to a database that the next test gets
        self.proc = processes.start("floor.runtime.serve", [], self.env, Path(self.log.name), new_session=True)

    def wait(self, timeout: float = 120) -> "Server":   # a hang guard only: a loaded machine starts slowly
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {Path(self.log.name).read_text()[-2000:]}")
            try:
                if requests.get(self.url + "/healthz", timeout=1).status_code in (200, 503):
                    return self
            except requests.RequestException:
                pass
            time.sleep(0.1)
        raise TimeoutError(f"server on {self.url} did not answer: {Path(self.log.name).read_text()[-2000:]}")

    def log_text(self) -> str:
        self.log.flush()
        return Path(self.log.name).read_text()

    def stop(self, wait: bool = True) -> None:
        """SIGTERM, then wait for the exit (killing it after 10 s). ``wait=False`` for a test that is
        done with the server and its database: the exit (about a second of gunicorn's own) is waited
        for in the background while the next test runs, and at the latest when the worker exits."""
        if self.proc.poll() is None:
            self.proc.terminate()
            if not wait:
                _exiting.append(self)
                threading.Thread(target=self._reap, daemon=True).start()
                return
        self._reap()

    def _reap(self) -> None:
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            # the master still runs, so its group is this server's: gunicorn's worker and everything
            # else it started go with it (killing the master alone would orphan them, still running)
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()
        self.log.close()


_exiting: list[Server] = []


@atexit.register
def _reap_all() -> None:
    for server in _exiting:
        server._reap()


def browser_login(session: requests.Session, base: str, username: str, password: str = "floorman-demo") -> str:
    """Log a requests session in through the real login form; returns the CSRF token for JSON calls."""
    html = session.get(base + "/login").text
    marker = 'name="csrf-token" content="'
    token = html[html.index(marker) + len(marker):].split('"', 1)[0]
    resp = session.post(base + "/login", data={"username": username, "password": password, "csrf_token": token},
                        allow_redirects=False)
    assert resp.status_code == 302, resp.text
    html = session.get(base + "/login").text
    return html[html.index(marker) + len(marker):].split('"', 1)[0]
