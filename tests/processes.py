"""The floor processes a test starts (web servers, the scheduler, the device process), forked from a
process that has imported the floor once (tests.forkserver) instead of each paying two or three seconds
of imports: a browser test starts one or two, the slow and browser tests about seventy-five.

``start(...)`` returns a ``Forked``, which answers as a ``subprocess.Popen`` does (pid, poll, wait,
send_signal, terminate, kill, returncode).
"""
from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class Forked:
    def __init__(self, pid: int) -> None:
        self.pid, self.returncode = pid, None
        self._ended = threading.Event()

    def _exited(self, code: int) -> None:
        self.returncode = code
        self._ended.set()

    def poll(self) -> int | None:
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if not self._ended.wait(timeout):
            raise subprocess.TimeoutExpired(f"pid {self.pid}", timeout)
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:   # not reaped yet, so the pid is still this process's
            try:
                os.kill(self.pid, sig)
            except ProcessLookupError:
                pass

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class _ForkServer:
    def __init__(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("FLOOR_")}
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.forkserver"], cwd=ROOT, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        ready = self.proc.stdout.readline()
        if json.loads(ready or "{}") != {"ready": True}:
            raise RuntimeError(f"the fork server did not start (exit {self.proc.wait()})")
        self.asking = threading.Lock()   # one request at a time, so the pid that comes back is its
        self.lock = threading.Lock()     # the children, between the reader and start()
        self.started: queue.Queue[int] = queue.Queue()
        self.children: dict[int, Forked] = {}
        self.early: dict[int, int] = {}   # an exit read before its pid was handed out
        threading.Thread(target=self._read, name="forkserver", daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            try:
                message = json.loads(line)
            except ValueError:   # not the protocol's (a library printing at import): not ours to read
                continue
            if "pid" in message:
                self.started.put(message["pid"])
            elif "exit" in message:
                with self.lock:
                    child = self.children.pop(message["exit"], None)
                    if child is None:
                        self.early[message["exit"]] = message["code"]
                if child is not None:
                    child._exited(message["code"])

    def start(self, request: dict) -> Forked:
        with self.asking:
            self.proc.stdin.write((json.dumps(request) + "\n").encode())
            self.proc.stdin.flush()
            try:
                pid = self.started.get(timeout=60)   # a hang guard: a fork takes milliseconds
            except queue.Empty:
                raise RuntimeError(f"the fork server did not answer (exit code {self.proc.poll()})") from None
        child = Forked(pid)
        with self.lock:
            code = self.early.pop(pid, None)
            if code is None:
                self.children[pid] = child
        if code is not None:
            child._exited(code)
        return child


_server: _ForkServer | None = None
_server_lock = threading.Lock()


def start(module: str, args: list[str], env: dict, log: Path, cwd: Path = ROOT, new_session: bool = False,
          nice: int = 0, rtprio: int = 0) -> Forked:
    """As ``subprocess.Popen([python, "-m", module, *args], env=env, cwd=cwd, stdout=log, stderr=log,
    start_new_session=new_session)``, with the unit's ``Nice=`` and ``LimitRTPRIO=`` applied."""
    global _server
    with _server_lock:
        if _server is None or _server.proc.poll() is not None:
            _server = _ForkServer()
    return _server.start({"module": module, "args": list(args), "env": dict(env), "cwd": str(cwd), "log": str(log),
                          "new_session": new_session, "nice": nice, "rtprio": rtprio})
