"""Every string a person sees is in the catalogs, translated into French and German.

The strings are extracted at test time exactly as `make translations` does (Python with the domain's
error classes as keywords, Jinja templates, JavaScript), so a new string nobody translated fails here.
"""
from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
# on one worker, so the extraction below runs once per run
pytestmark = pytest.mark.xdist_group("catalogs")
LANGS = ("fr", "de")
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([a-z_]+\)s")
# Calls whose first argument is a message for a person: they must be a literal template.
MESSAGE_CALLS = {"FloorError", "BadInput", "NotAuthenticated", "NotAllowed", "NotFound", "Conflict",
                 "InvalidState", "RateLimited", "GameInputError", "InvalidBet", "NotExpected",
                 "InsufficientBalance", "Msg", "N_"}


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    pot = tmp_path_factory.mktemp("i18n") / "messages.pot"
    subprocess.run(["make", "-s", "extract", f"POT={pot}"], cwd=ROOT, check=True, capture_output=True)
    return read_po(pot.open("rb"))


def _catalog(lang):
    return read_po((ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po").open("rb"), locale=lang)


def test_the_extraction_finds_pages_scripts_and_domain_errors(template):
    places = {loc[0].split("/")[0] for m in template if m.id for loc in m.locations}
    assert {"templates", "static", "floor"} <= places
    ids = {m.id for m in template}
    assert "seat {seat_number} at table {table} is taken" in ids          # a domain refusal
    assert "Open betting" in ids                                         # a page's button
    assert "No waiting list — ask the floor" in ids                      # the board, from JavaScript


@pytest.mark.parametrize("lang", LANGS)
def test_every_string_has_a_translation(template, lang):
    catalog = _catalog(lang)
    missing, fuzzy, broken = [], [], []
    for m in template:
        if not m.id:
            continue
        found = catalog.get(m.id)
        forms = [] if found is None else (list(found.string) if isinstance(found.string, (list, tuple)) else [found.string])
        if not forms or not all(forms):
            missing.append(m.id)
            continue
        if found.fuzzy:
            fuzzy.append(m.id)
        source = m.id[-1] if isinstance(m.id, (list, tuple)) else m.id
        wanted = set(PLACEHOLDER.findall(source))
        for form in forms:
            # A translation may drop {n} in a singular, never invent or misspell a value's name.
            if set(PLACEHOLDER.findall(form)) - wanted or (not isinstance(m.id, (list, tuple))
                                                          and set(PLACEHOLDER.findall(form)) != wanted):
                broken.append((m.id, form))
    assert not missing, f"{len(missing)} strings without a {lang} translation (run make translations): {missing[:20]}"
    assert not fuzzy, f"fuzzy {lang} entries to check: {fuzzy[:20]}"
    assert not broken, f"{lang} translations whose placeholders differ: {broken[:20]}"


def test_domain_messages_are_templates_not_f_strings():
    """An f-string message cannot be found in the catalogs: values go as named arguments."""
    bad = []
    for path in sorted((ROOT / "floor").rglob("*.py")) + sorted((ROOT / "devices").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            fn = node.func
            name = fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else None
            first = node.args[0]
            if name in MESSAGE_CALLS and not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                if path.relative_to(ROOT).as_posix() in ("floor/errors.py", "floor/web/i18n.py"):
                    continue   # the machinery itself passes templates on
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not bad, f"messages that are not literal templates: {bad}"
