"""Responses are described field by field: no untyped ``fields.Dict()`` in a response schema but the
free-form maps named below (each with why), and no presentation function (``*_json``, ``*_view``)
in the domain: the domain returns models and dataclasses, ``floor/web`` says how they look."""
from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

from marshmallow import Schema, fields

import floor.web.api as api_package
from floor.web.api.schemas import Strict

ROOT = Path(__file__).resolve().parent.parent.parent

# Untyped maps that are free-form by nature (module.Schema.field: why).
FREE_FORM = {
    "round_schemas.RoundSchema.result": "the game's own record of the round (roulette, baccarat, cards), stored as is",
    "round_schemas.KeyedSchema.result": "the game's own record of the round as keyed by hand, stored as is",
    "schemas.AlertSchema.data": "what the alert's kind attached, a different shape per kind",
    # A round's result and what a device kept of it, as the pit's timeline, replay and rulings show them.
    "pit_schemas.TimelineRoundSchema.result": "the game's own record of the round, stored as is",
    "pit_schemas.TimelineSchema.effective_result": "the game's own record of the round (after a correction)",
    "pit_schemas.ReplaySchema.result": "the game's own record of the round, as replayed from the cards",
    "pit_schemas.ReplaySchema.settled_result": "the game's own record of the round, stored as is",
    "pit_schemas.RulingOut.result": "the game's own record of the round, as corrected",
    "pit_schemas.TimelineEntrySchema.result": "a ruling's: the game's own record of the round, as corrected",
    "pit_schemas.TimelineRoundSchema.device": "the device's own bookkeeping of the round (the wheel's spin, state)",
    "pit_schemas.EventSchema.data": "what a round event carries, a different shape per kind of event",
    "pit_schemas.TimelineEntrySchema.data": "an event's: what it carries, a different shape per kind of event",
}
# Not yet described field by field: this list only shrinks (an entry that is gone must leave it).
NOT_YET: set[str] = set()
# Domain functions still shaping JSON (path:function), moving to floor/web; this list only shrinks.
PRESENTATION_NOT_YET = {
    "floor/errors.py:to_json", "floor/errors.py:from_json",   # a Msg's stored form (outbox, alerts), not a response
    "floor/tables.py:table_json",
    "floor/poker/conduct.py:ban_json",
    "floor/poker/conduct.py:warning_json",
}


def _untyped(field: fields.Field) -> bool:
    if isinstance(field, fields.Dict):
        return field.value_field is None or _untyped(field.value_field)
    if isinstance(field, fields.List):
        return _untyped(field.inner)
    return False


def _response_dicts() -> set[str]:
    found = set()
    for info in pkgutil.iter_modules(api_package.__path__):
        module = importlib.import_module(f"floor.web.api.{info.name}")
        for name, cls in vars(module).items():
            if (inspect.isclass(cls) and issubclass(cls, Schema) and cls.__module__ == module.__name__
                    and not issubclass(cls, Strict)):   # a Strict schema is a request body
                found |= {f"{info.name}.{name}.{f}" for f, field in cls._declared_fields.items() if _untyped(field)}
    return found


def test_no_untyped_map_in_a_response_schema_but_the_free_form_ones():
    found = _response_dicts()
    assert found - set(FREE_FORM) - NOT_YET == set(), "describe these field by field (nested schemas)"
    assert NOT_YET - found == set(), "described now: take them off NOT_YET"


def _presentation_functions() -> set[str]:
    found = set()
    for path in sorted((ROOT / "floor").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("floor/web/"):
            continue
        for node in ast.walk(ast.parse(path.read_text(), rel)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.endswith(("_json", "_view")):
                found.add(f"{rel}:{node.name}")
    return found


def test_the_domain_defines_no_presentation_function():
    found = _presentation_functions()
    assert found - PRESENTATION_NOT_YET == set(), "return a model or dataclass; the schema in floor/web shapes it"
    assert PRESENTATION_NOT_YET - found == set(), "moved now: take them off PRESENTATION_NOT_YET"


def _conforms(app, headers: dict, cases: list[tuple]) -> int:
    """Each (path template, method, path parameters): called for real, its body checked against the
    OpenAPI document (a key of the wrong type, a value outside an enum, null where none is allowed)."""
    import schemathesis
    from schemathesis.specs.openapi.checks import response_schema_conformance
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    checked = 0
    for path, method, params, *body in cases:
        operation = schema[path][method]
        case = operation.Case(path_parameters=params, **({"body": body[0]} if body else {}))
        response = case.call(headers=headers)
        assert response.status_code == 200, (path, response.status_code, response.text[:300])
        case.validate_response(response, checks=[response_schema_conformance], headers=headers)
        checked += 1
    return checked


def test_live_rounds_the_rotation_and_the_cashier_match_their_documented_schemas(app):
    from datetime import datetime, timezone

    from sqlalchemy import select

    from floor import dealers, rounds, staff
    from floor.models import Staff
    from floor.actors import Actor
    from floor.rounds import bets
    from tests.conftest import app_session
    from tests.floor.rounds.helpers import DEALER, HOUSE, fund, tid
    from tests.web import roulette_rounds

    held = roulette_rounds.held(app, {"red": 1_000, "straight:17": 500}, 2)
    now = datetime.now(timezone.utc)
    with app_session(app) as s:
        table = tid(s, 14)   # blackjack, left waiting for a decision
        fund(s, 6, 10_000)
        rounds.open_betting(s, DEALER, table, now, house=HOUSE)
        bets.place(s, DEALER, table, spot="bet", seat=1, amount=1_000, player_id=6, at=now, house=HOUSE)
        s.commit()
        rounds.close_betting(s, DEALER, table, now)
        s.commit()
        for card in ("8H", "9S", "TH", "7C"):
            rounds.commit_then_settle(s, rounds.card(s, table, card, "scanner", None, now, house=HOUSE), house=HOUSE)
        pit = Actor("Pia", "pit_boss", "pit")
        for username, at_table in (("dealer", 12), ("dealer2", None)):   # one deals, one rests
            dealer_id = s.execute(select(Staff.id).where(Staff.username == username)).scalar_one()
            dealers.clock_in(s, pit, dealer_id, now)
            if at_table:
                dealers.take_table(s, pit, dealer_id, tid(s, at_table), now)
        from floor import ledger
        ledger.credit(s, Actor("Cleo", "cashier", "cage"), 4, HOUSE.cashier_two_person_cents + 100, "big", house=HOUSE)
        s.commit()
        token = staff.create_token(s, Actor.system("test"), "admin", "schemas")
    headers = {"Authorization": f"Bearer {token}"}
    checked = _conforms(app, headers, [
        ("/api/tables/{table_number}/round", "GET", {"table_number": 12}),
        ("/api/tables/{table_number}/round", "GET", {"table_number": 14}),
        ("/api/rounds/held", "GET", {}),
        ("/api/rounds/{round_id}", "GET", {"round_id": held}),
        ("/api/board/games", "GET", {}),
        ("/api/rotation", "GET", {}),
        ("/api/cashier/players/{player_id}", "GET", {"player_id": 6}),
        ("/api/cashier/requests", "GET", {}),
        ("/api/tables/{table_number}/dealer", "GET", {"table_number": 12}),
        ("/api/tables/{table_number}/dealer", "GET", {"table_number": 2}),
        ("/api/rounds/{round_id}/settle", "POST", {"round_id": held}, {"number": 17}),   # settled, paid
        ("/api/rounds/{round_id}", "GET", {"round_id": held}),
        ("/api/board/games", "GET", {}),
    ])
    assert checked == 13
