"""`make bench` runs tests/benchmarks, which the suite itself ignores: a benchmark that no longer imports
would go unnoticed until someone measures. Collecting them here (without running them) keeps every one
of them loadable."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_benchmark_module_collects():
    modules = sorted(p.name for p in (ROOT / "tests" / "benchmarks").glob("test_bench_*.py"))
    assert modules, "no benchmark found"
    # the same options as `make bench`, collect only
    done = subprocess.run([sys.executable, "-m", "pytest", "tests/benchmarks", "--collect-only", "-q",
                           "-p", "no:cacheprovider", "-o", "addopts=", "-p", "no:schemathesis", "-p", "no:anyio"],
                          cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    collected = {line.split("::")[0].rsplit("/", 1)[-1] for line in done.stdout.splitlines() if "::" in line}
    assert collected == set(modules), f"not collected: {set(modules) - collected}"


def test_make_bench_runs_the_benchmark_it_is_given_alone():
    # `make bench PYTEST_ARGS=<a benchmark>` measures that one: pytest given the folder as well would
    # run every benchmark (half an hour) before or around it
    one = "tests/benchmarks/test_bench_phones.py"
    planned = subprocess.run(["make", "-n", "bench", f"PYTEST_ARGS={one}"], cwd=ROOT, capture_output=True, text=True,
                             timeout=60)
    assert planned.returncode == 0, planned.stderr
    pytest_line = [line for line in planned.stdout.splitlines() if "-m pytest" in line][-1].split()
    assert one in pytest_line and "tests/benchmarks" not in pytest_line, pytest_line
    everything = subprocess.run(["make", "-n", "bench"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert "tests/benchmarks" in [line for line in everything.stdout.splitlines() if "-m pytest" in line][-1].split()
