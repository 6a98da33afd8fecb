"""`flask floor devices check|capture|replay` on real ptys against the simulators, as an integrator runs
them: the real command line, a database that must never be opened, exit statuses and reports."""
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from devices import capture as cap
from devices.config import DeviceConfig
from devices.replay import replay
from devices.shoe import Reply, ShoeResult
from devices.simulate import ShoeSimulator, WheelSimulator
from tests.devices.helpers import wait_until

pytestmark = pytest.mark.slow   # simulators on ptys in real time, and the flask command line

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def bench(tmp_path):
    """Run `flask floor devices ...` as a separate process; the database it is given must stay untouched."""
    cfg = tmp_path / "floor.toml"
    cfg.write_text("")
    never = tmp_path / "no-such-folder" / "floor.db"   # SQLite cannot create it: any connection fails
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "FLOOR_CONFIG": str(cfg), "FLOOR_SECRET_KEY": "test",
           "FLOOR_APP_DATABASE_URL": f"sqlite:///{never}", "FLOOR_APP_INSTANCE_PATH": str(tmp_path / "instance"),
           "FLOOR_APP_DEMO": "false", "FLOOR_APP_SIMULATE_DEVICES": "false", "FLOOR_APP_RUN_SCHEDULER": "false"}
    base = [sys.executable, "-m", "flask", "--app", "app:create_app", "floor", "devices"]

    class Bench:
        def run(self, *args, timeout=300):
            return subprocess.run(base + [str(a) for a in args], cwd=ROOT, env=env, capture_output=True, text=True,
                                  timeout=timeout)

        def start(self, *args):
            return subprocess.Popen(base + [str(a) for a in args], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)

    yield Bench()
    assert not never.parent.exists()


@pytest.fixture
def sims():
    started = []
    yield started
    for sim in started:
        sim.stop()


def _report(done):
    assert done.returncode in (0, 1), done.stderr[-3000:]
    return json.loads(done.stdout)


def test_a_shoe_without_faults_conforms(pty, bench, sims):
    sims.append(ShoeSimulator(pty, seed=4, speed=20).start())
    done = bench.run("check", pty.path, "--kind", "shoe", "--rounds", 1, "--seconds", 300, "--json")
    report = _report(done)
    assert done.returncode == 0, report["problems"]
    assert report["conforming"] and report["refused_total"] == 0 and report["whole"]["seen"] >= 1
    assert report["frames"]["CardDealt"] >= 4 and report["frames"]["ShoeResult"] >= 1
    assert report["gaps"] == [] and report["fit"] is None


def test_a_wheel_without_faults_conforms_with_a_regular_heartbeat(pty, bench, sims):
    sims.append(WheelSimulator(pty, seed=4, speed=10).start())
    done = bench.run("check", pty.path, "--kind", "wheel", "--rounds", 1, "--seconds", 300)
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    assert "CONFORMS" in done.stdout and "whole spins seen: 1" in done.stdout and ": regular" in done.stdout


def test_a_shoe_with_bad_checksums_does_not_conform(pty, bench, sims):
    sims.append(ShoeSimulator(pty, seed=4, speed=20, faults=["bad_bcc"], fault_every=1).start())
    done = bench.run("check", pty.path, "--kind", "shoe", "--rounds", 2, "--seconds", 300, "--json")
    report = _report(done)
    assert done.returncode == 1 and not report["conforming"]
    assert report["refused"]["checksum"] >= 2 and report["reasons"]["bad BCC"] >= 2
    assert report["replies"]["NAK 02"] >= 2           # the host's NAK for a bad BCC went back on the line
    assert any("checksum" in p for p in report["problems"])


def test_a_wheel_at_the_wrong_speed_is_named_and_the_named_speed_conforms(pty, bench, sims):
    sims.append(WheelSimulator(pty, seed=4, speed=10, faults=["wrong_speed"], line_speed=19200).start())
    done = bench.run("check", pty.path, "--kind", "wheel", "--seconds", 3, "--json")
    report = _report(done)
    assert done.returncode == 1 and report["frames_total"] == 0
    assert report["fit"]["baudrate"] == 19200 and report["fit"]["framing"] == "8N1"
    assert "the line does not fit 9600 8N1: 19200 8N1 fits" in report["problems"]
    # the integrator follows the advice: at 19200 the same wheel conforms
    again = bench.run("check", pty.path, "--kind", "wheel", "--baudrate", 19200, "--rounds", 1, "--seconds", 300)
    assert again.returncode == 0, again.stdout
    assert "at 19200 8N1" in again.stdout and "CONFORMS" in again.stdout


def _decoded(path: Path) -> list:
    recording = cap.read(str(path))
    config = DeviceConfig(name="shoe-1", table="1", kind="shoe", port=recording.header.port)
    return replay(config, recording.stream())


def test_capture_then_replay_gives_the_reader_the_same_events(pty, bench, sims, tmp_path, sink, make_reader):
    out = tmp_path / "shoe.capture"
    capturing = bench.start("capture", pty.path, out, "--kind", "shoe")
    try:
        assert "capturing shoe" in capturing.stderr.readline()
        sims.append(ShoeSimulator(pty, seed=9, speed=20).start())
        wait_until(lambda: out.exists() and any(isinstance(e, ShoeResult) for e in _decoded(out)), what="a whole coup")
    finally:
        capturing.send_signal(signal.SIGINT)
        capturing.wait(60)
    assert capturing.returncode == 0, capturing.stderr.read()
    recording = cap.read(str(out))
    assert recording.header.kind == "shoe" and recording.header.baudrate == 4800
    assert recording.chunks[0] == (0.0, b"") and [t for t, _ in recording.chunks] == sorted(t for t, _ in recording.chunks)
    expected = _decoded(out)
    assert [e for e in expected if isinstance(e, ShoeResult)]

    line = tmp_path / "replayed-shoe"
    playing = bench.start("replay", out, "--to", "pty", "--link", line, "--speed", 4)
    try:
        assert "replaying shoe on" in playing.stderr.readline()
        reader = make_reader("shoe", str(line), wait_connected=False)
        playing.wait(120)
    finally:
        if playing.poll() is None:
            playing.kill()
    assert playing.returncode == 0, playing.stderr.read()
    want = [e for e in expected if not isinstance(e, Reply)]
    wait_until(lambda: len([e for e in sink.events_of(reader.name) if not isinstance(e, Reply)]) >= len(want))
    assert [e for e in sink.events_of(reader.name) if not isinstance(e, Reply)] == want


def test_check_reads_a_capture_file(bench, tmp_path):
    from datetime import datetime, timezone

    from devices.shoe import encode_card, encode_result, encode_simple
    frames = [encode_simple(0, "S"), encode_card(1, "player", 1, "9H"), encode_card(2, "banker", 1, "2C"),
              encode_card(3, "player", 2, "TS", corrupt_bcc=True), encode_card(3, "player", 2, "TS"),
              encode_card(4, "banker", 2, "3D"), encode_result(5, "player")]
    path = tmp_path / "shoe.capture"
    with open(path, "w") as f:
        cap.write_header(f, "shoe", "/dev/ttyUSB3", 4800, datetime.now(timezone.utc))
        for i, frame in enumerate(frames):
            cap.append(f, i * 0.2, frame)
    done = bench.run("check", "--file", path, "--json")
    report = _report(done)
    assert done.returncode == 1 and report["source"] == str(path)
    assert report["refused"]["checksum"] == 1 and report["whole"]["seen"] == 1


def test_a_port_that_is_not_there_is_a_clear_error(bench, tmp_path):
    done = bench.run("check", tmp_path / "nothing-here", "--kind", "wheel", "--seconds", 1)
    assert done.returncode == 3 and "cannot read" in done.stderr
    unknown = bench.run("check", tmp_path / "nothing-here", "--seconds", 1)
    assert unknown.returncode == 2 and "--kind" in unknown.stderr
