"""The layers of the code are a build rule: `lint-imports` keeps them, and fails when someone adds a
cycle or a forbidden import (checked here on a copy of the tree with one bad import added)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT = Path(sys.executable).parent / "lint-imports"


def lint(where: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT), "--no-cache"], cwd=where, capture_output=True, text=True, timeout=300)


def test_the_tree_keeps_every_contract():
    done = lint(ROOT)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "0 broken" in done.stdout


@pytest.mark.parametrize("module, bad_import, broken", [
    ("floor/poker/queries.py", "from floor.poker import mustmove", "No import cycles"),
    ("floor/rounds/core.py", "from floor.pit import rulings", "Layers"),
    ("floor/poker/seating.py", "import flask", "never imports flask"),
    ("devices/wheel.py", "import sqlalchemy", "Device decoders never touch the database"),
    ("floor/games/roulette.py", "from floor import ledger", "pure rules import nothing"),
])
def test_an_added_cycle_or_forbidden_import_breaks_the_build(tmp_path, module, bad_import, broken):
    for part in ("floor", "devices"):
        shutil.copytree(ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / module
    target.write_text(target.read_text() + f"\n{bad_import}  # noqa\n")
    done = lint(tmp_path)
    assert done.returncode != 0
    broken_lines = [line for line in done.stdout.splitlines() if line.rstrip().endswith("BROKEN")]
    assert any(broken in line for line in broken_lines) or broken in done.stdout.split("Broken contracts")[-1], done.stdout[-3000:]
