"""The tournament rules stay pure: they import only the standard library's pure parts and the
project's game rules, and never read the clock, the environment or a global random source."""
import ast
from pathlib import Path

import floor.games.tournament as package

ALLOWED_STDLIB = {"__future__", "collections", "dataclasses", "datetime", "decimal", "fractions", "hashlib",
                  "hmac", "itertools", "typing"}
BANNED_CALLS = {"now", "utcnow", "today", "time", "monotonic", "perf_counter", "urandom", "token_bytes",
                "getenv", "open"}


def modules():
    return sorted(Path(package.__file__).parent.glob("*.py"))


def test_only_pure_imports():
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: floor.games.tournament.* or floor.games.* only
                    assert node.level <= 2, f"{path.name}: from {'.' * node.level}{node.module}"
                    continue
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in ALLOWED_STDLIB or name == "floor.errors" or name.startswith("floor.games"), \
                    f"{path.name} imports {name}"


def test_no_clock_environment_or_global_randomness():
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                fn = node.func
                name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
                assert name not in BANNED_CALLS, f"{path.name}:{node.lineno} calls {name}()"

