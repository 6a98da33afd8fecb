"""schemathesis against the generated OpenAPI document, on each database, with a token of every role:
valid and hostile requests to every operation get no server error, a documented status and content
type, and a body that matches the documented schema (errors included). A fixed seed, so a run is
repeatable; the counts are printed for the record."""
from __future__ import annotations

import os
import re
from collections import Counter

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from floor import staff
from floor.actors import Actor
from floor.models import ROLES
from tests.conftest import app_session

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
# Examples per operation and mode; FLOOR_FUZZ_EXAMPLES raises it for a longer hunt.
EXAMPLES = int(os.environ.get("FLOOR_FUZZ_EXAMPLES", "8"))
USERS = {"admin": "admin", "floor_manager": "manager", "pit_boss": "pitboss", "dealer": "dealer",
         "cashier": "cashier", "display": "display",
         "technician": "tech"}


def _tokens(app) -> dict[str, dict]:
    assert set(USERS) == set(ROLES), "a role without a fuzzing token"
    out = {"anonymous": {}}
    with app_session(app) as s:
        for role, username in USERS.items():
            token = staff.create_token(s, Actor.system("fuzz"), username, "fuzz",
                                       table_number=12 if role == "dealer" else None)
            out[role] = {"Authorization": f"Bearer {token}"}
    return out


def _roles(app) -> dict[tuple[str, str], list[str]]:
    """(METHOD, /api/path/{arg}) -> the roles its policy lets in (floor/web/policy.py)."""
    out = {}
    for rule in app.url_map.iter_rules():
        roles = getattr(app.view_functions[rule.endpoint], "_floor_roles", None) or frozenset()
        path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            out[(method, path)] = sorted(roles & set(ROLES))
    return out


def _tournament_running(app) -> None:
    """Tournament 1, running at tables 41 and 42 with six players, so the tournament routes reach a
    real tournament (ids 1 exist) and a floor manager drives them as he would on the floor."""
    from tests.conftest import Login
    from tests.floor.tournaments.helpers import players, tables
    with app_session(app) as s:
        tables(s, (41, 42))
        ids = players(s, 6)
    manager = Login(app.test_client())
    manager("manager")
    made = manager.post("/api/tournaments", json={"name": "Fuzz", "game_id": 1, "buy_in": 10_000, "fee": 1_000,
                                                  "seats_per_table": 10, "final_table_size": 9,
                                                  "table_numbers": [41, 42]})
    assert made.status_code == 201 and made.get_json()["id"] == 1, made.get_json()
    cage = Login(app.test_client())
    cage("cashier")
    for p in ids:
        assert cage.post("/api/tournaments/1/entries", json={"player_id": p}).status_code == 201
    assert manager.post("/api/tournaments/1/start").status_code == 200


def _existing(operation) -> dict:
    """Path parameters naming things the demo floor has: table 12 (the roulette), id 1 otherwise."""
    return {p.name: 12 if "table" in p.name else 1 for p in operation.path_parameters}


# The API in parts (by the first segment of the path) that the suite's workers run side by side;
# "rest" is every operation no other part names, so a new API is fuzzed without being listed here.
PARTS = {"tournaments": {"tournaments"}, "pit": {"pit", "ledger", "cashier"},
         "tables": {"tables", "poker", "rounds", "devices"},
         "floor": {"seating", "waitlists", "mustmove", "floor", "board"}, "rest": None}


def _part(path: str) -> str:
    segment = path.split("/")[2]
    return next((name for name, segments in PARTS.items() if segments and segment in segments), "rest")


@pytest.mark.slow
@pytest.mark.timeout(1200)   # about 2,700 requests in all: half a minute a part, longer on a loaded machine
@pytest.mark.parametrize("part", list(PARTS))
def test_schemathesis_finds_no_failure(app, db_url, part):
    identities = _tokens(app)
    policy = _roles(app)
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    operations = [op for op in (result.ok() for result in schema.get_all_operations()) if _part(op.path) == part]
    assert operations, f"no operation in the part {part}"
    counts: Counter = Counter()
    failures: list[str] = []
    if part == "tournaments":
        _tournament_running(app)

    passes = []
    for operation in operations:
        passes += [(operation, GenerationMode.POSITIVE, None, None), (operation, GenerationMode.NEGATIVE, None, None)]
        if operation.path_parameters:   # and bodies sent to ids that exist, so they reach the domain
            passes.append((operation, GenerationMode.POSITIVE, _existing(operation), None))
        # a floor manager drives every tournament route he may use, valid and hostile, on tournament 1
        if part == "tournaments" and "floor_manager" in (policy.get((operation.method.upper(), operation.path)) or []):
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                passes.append((operation, mode, _existing(operation), "floor_manager"))
    for operation, mode, path_parameters, driver in passes:
        @settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
                  phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy(generation_mode=mode, path_parameters=path_parameters))
        def run(case):
            # Mostly as someone the route lets in (the request reaches the domain), every third
            # example also as someone it must turn away.
            allowed = policy.get((operation.method.upper(), operation.path)) or list(identities)
            n = counts["examples"]
            counts["examples"] += 1
            tries = [driver or allowed[n % len(allowed)]]
            if n % 3 == 0 and driver is None:
                tries.append(list(identities)[n % len(identities)])
            for role in tries:
                counts["requests"] += 1
                response = case.call(headers=identities[role])
                counts[response.status_code] += 1
                try:
                    case.validate_response(response, checks=CHECKS, headers=identities[role])
                except Exception as exc:   # every failure is collected, the run goes on
                    failures.append(f"{operation.label} as {role} ({mode.value}): {response.status_code} "
                                    f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")
        try:
            run()
        except Unsatisfiable:   # nothing in this operation can be made invalid (no parameters, no body)
            counts["no_negative"] += 1

    backend = "postgresql" if db_url.startswith("postgresql") else "sqlite"
    statuses = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items(), key=str) if isinstance(k, int))
    print(f"\nschemathesis on {backend}, {part}: {counts['requests']} requests, {len(operations)} operations, "
          f"{len(failures)} failures ({statuses})")
    assert not failures, "\n".join(sorted(set(failures))[:60])
