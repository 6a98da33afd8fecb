"""The floor processes the tests start are forked from one that has imported the floor once: each must
still be what `python -m module args` with its environment would be, and end as Popen reports it."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import time

import pytest

from tests import processes


def _probe(tmp_path, *args, **kw):
    log = tmp_path / "probe.log"
    proc = processes.start("tests.process_probe", list(args), {"PROBE": "yes", "PATH": "/usr/bin:/bin"}, log,
                           cwd=tmp_path, **kw)
    return proc, log


def _said(log) -> dict:
    return json.loads(log.read_text().splitlines()[0])


def test_a_started_process_runs_the_module_as_main_in_its_own_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("FLOOR_APP_DATABASE_URL", "sqlite:///not-for-the-child.db")
    proc, log = _probe(tmp_path, "3")
    assert proc.wait(60) == 3 and proc.poll() == 3
    said = _said(log)
    assert said == {"argv": ["3"], "cwd": str(tmp_path), "env": "yes", "leaked": None, "nice": os.nice(0),
                    "leader": False, "main": "__main__"}


def test_a_new_session_and_a_unit_priority_are_applied_before_it_runs(tmp_path):
    proc, log = _probe(tmp_path, "0", new_session=True, nice=5)
    assert proc.wait(60) == 0
    said = _said(log)
    assert said["leader"] is True and said["nice"] == min(os.nice(0) + 5, 19)   # relative, as Nice= is


def test_a_signalled_process_ends_as_popen_reports_it(tmp_path):
    proc, log = _probe(tmp_path, "wait")
    deadline = time.monotonic() + 60   # a hang guard: it prints once it waits for the signal
    while not (log.exists() and log.read_text()):
        assert proc.poll() is None and time.monotonic() < deadline, log.read_text() if log.exists() else ""
        time.sleep(0.05)
    with pytest.raises(subprocess.TimeoutExpired):
        proc.wait(0.2)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(60) == -signal.SIGTERM
    proc.kill()   # already ended: nothing is signalled, nothing raised
