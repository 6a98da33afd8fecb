"""The docs stay true to the code: every setting docs/rules.md names exists with the default it
states, every file and function the docs cite exists, every house setting is documented, and every
link between the pages lands on a heading that is there."""
from __future__ import annotations

import ast
import dataclasses
import re
import subprocess
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from floor.games import baccarat, blackjack, casino_holdem, poker, roulette
from floor.settings import HouseSettings, house_fields

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md")) + [ROOT / "README.md"]
RULES = DOCS / "rules.md"
# The game modules' own settings classes that rules.md may cite as ``Class.field``.
GAME_SETTINGS = {cls.__name__: cls for cls in (baccarat.BaccaratSettings, blackjack.BlackjackSettings,
                                               roulette.RouletteSettings, casino_holdem.CasinoHoldemSettings,
                                               poker.RakeSettings)}
# Pages the index links to that other work is writing; a link to one is allowed until it exists.
PENDING_PAGES: set[str] = set()   # pages linked before they are written

CODE_PATH = re.compile(r"`((?:floor|devices|config|tests|static|templates|migrations)/[\w./-]*\.(?:py|toml|js|html))`")
SETTING = re.compile(r"`([A-Za-z_]\w*(?:\.\w+)?)` = `([^`]*)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _rows(text: str, header: str) -> list[list[str]]:
    """The body rows of every markdown table whose header row starts with ``header``."""
    rows, inside = [], False
    for line in text.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells[0] == header:
                inside = True
            elif inside and not set(line) <= set("|-: "):
                rows.append(cells)
        else:
            inside = False
    return rows


def _rule_rows() -> list[list[str]]:
    rows = _rows(RULES.read_text(), "Rule")
    assert len(rows) > 50, "rules.md lost its tables (Rule | Setting (default) | Where)"
    return rows


def _default(name: str):
    if "." in name:
        cls_name, field = name.split(".", 1)
        cls = GAME_SETTINGS.get(cls_name)
        assert cls is not None, f"{cls_name} is not a game settings class (one of {sorted(GAME_SETTINGS)})"
    else:
        cls, field = HouseSettings, name
    fields = {f.name: f for f in dataclasses.fields(cls)}
    assert field in fields, f"{name}: no such setting in {cls.__name__}"
    return fields[field].default


def _parse(value: str):
    if re.fullmatch(r"\d+/\d+", value):
        return Fraction(value)
    return tomllib.loads(f"v = {value}")["v"]


def test_every_setting_named_in_rules_exists_with_its_stated_default():
    seen = 0
    for rule, setting, _where in _rule_rows():
        for name, value in SETTING.findall(setting):
            assert _parse(value) == _default(name), f"rules.md, {rule!r}: {name} defaults to {_default(name)!r}"
            seen += 1
        leftover = SETTING.sub("", setting).replace(";", "").strip()
        assert leftover in ("", "—"), f"rules.md, {rule!r}: cannot read the setting cell {setting!r}"
    assert seen > 40


def test_every_house_setting_is_in_rules():
    named = {name for _, setting, _ in _rule_rows() for name, _ in SETTING.findall(setting)}
    missing = [name for name in house_fields() if name not in named]
    assert not missing, f"house settings rules.md does not document: {missing}"


def _defined(path: Path) -> set[str]:
    """Top-level functions and classes of a module, and ``Class.method`` for their methods."""
    out = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        if isinstance(node, ast.ClassDef):
            out |= {f"{node.name}.{m.name}" for m in node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return out


def test_every_function_cited_in_rules_is_in_the_module_named():
    for rule, _setting, where in _rule_rows():
        for part in where.split(";"):
            names = re.findall(r"`([^`]+)`", part)
            assert names, f"rules.md, {rule!r}: no place given"
            path = ROOT / names[0]
            assert path.is_file(), f"rules.md, {rule!r}: {names[0]} does not exist"
            missing = set(names[1:]) - _defined(path)
            assert not missing, f"rules.md, {rule!r}: {names[0]} defines no {sorted(missing)}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_file_cited_exists(page):
    for cited in CODE_PATH.findall(page.read_text()):
        assert (ROOT / cited).is_file(), f"{page.name} cites {cited}, which does not exist"


def _anchors(page: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, -1 on a repeat."""
    out: set[str] = set()
    in_code = False
    for line in page.read_text().splitlines():
        if line.startswith("```"):
            in_code = not in_code
        m = None if in_code else re.match(r"#{1,6} (.+)", line)
        if m:
            slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower().replace("`", "")).replace(" ", "-")
            base, n = slug, 1
            while slug in out:
                slug, n = f"{base}-{n}", n + 1
            out.add(slug)
    return out


def _prose(text: str) -> str:
    """The text without code blocks and code spans (a regex there is not a link)."""
    return re.sub(r"`[^`\n]*`", "", re.sub(r"^```.*?^```", "", text, flags=re.S | re.M))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_links_between_pages_resolve(page):
    for target in LINK.findall(_prose(page.read_text())):
        if re.match(r"[a-z]+:", target):
            continue   # a URL
        file, _, anchor = target.partition("#")
        dest = (page.parent / file).resolve() if file else page
        if not dest.exists():
            assert dest.name in PENDING_PAGES, f"{page.name} links to {target}, which does not exist"
            continue
        if anchor:
            assert anchor in _anchors(dest), f"{page.name} links to {target}: no such heading"


OUTSIDE = [re.compile(p) for p in (r"\.\./shared", r"HOUSE_RULES", r"DEVICES\.md", r"DESIGN(\.md| rule)",
                                     r"\bseeds?/", r"\bseed 00\d", r"\b[Ii]ssue #?\d", "§")]


def _outside_references(text: str) -> list[str]:
    return [p.pattern for p in OUTSIDE if p.search(text)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_docs_point_at_nothing_outside_the_repository(page):
    assert not _outside_references(page.read_text()), f"{page.name} points outside the repository"


def test_code_points_at_nothing_outside_the_repository():
    """Whoever clones the repository has only it: code, pages, config and tests cite docs/, never the
    documents the project was written from, nor the tracker's numbers."""
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    here = Path(__file__).resolve().relative_to(ROOT).as_posix()
    suffixes = {".py", ".md", ".html", ".js", ".css", ".toml", ".txt", ".cfg", ".service", ".conf", ".ini", ""}
    bad = []
    for name in tracked:
        path = ROOT / name
        if name == here or Path(name).suffix not in suffixes or not path.is_file() or name.startswith("translations/"):
            continue
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if _outside_references(line):
                bad.append(f"{name}:{n}: {line.strip()[:80]}")
    assert not bad, "\n".join(bad)