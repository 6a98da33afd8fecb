"""Every house setting docs/rules.md documents can be set by a deployment, both ways the docs say:
one at a time in the environment (FLOOR_HOUSE_<NAME>) and in its own TOML file (FLOOR_CONFIG), and
the app's settings then carry the new value. The settings are read from the document itself, so a
setting documented later is tested without touching this file."""
from __future__ import annotations

import dataclasses
import json
import re
import tomllib
from pathlib import Path

import pytest

from config import load_config
from floor.settings import HouseSettings

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
SETTING = re.compile(r"`([a-z_]\w*)` = `([^`]*)`")     # house settings only (game modules' are Class.field)
WORD = re.compile(r"`([A-Za-z_][\w:,/.-]*)`")
# A text setting whose rule names no alternative value: a value a house could choose instead.
OTHER_TEXT = {"timezone": "Europe/Paris", "gaming_day_rollover": "05:00", "currency": "EUR", "region": "FR",
              "board_languages": "de,fr,en", "rotation_tables": "10,12,14", "warning_window": "hours:12",
              "language": "de"}


def _documented() -> list[tuple[str, str]]:
    """(setting, the text of its rule row) for every house setting rules.md names with a default."""
    out = {}
    for line in RULES.read_text().splitlines():
        if line.startswith("|"):
            for name, _default in SETTING.findall(line):
                out.setdefault(name, line)
    return sorted(out.items())


def _other_value(name: str, rule: str):
    default = {f.name: f.default for f in dataclasses.fields(HouseSettings)}[name]
    if isinstance(default, bool):
        return not default
    if isinstance(default, int):
        return default + 1
    if isinstance(default, float):
        return default / 2
    named = [w for w in WORD.findall(rule) if w != default and w != name and "." not in w and w.islower()]
    alternatives = [w for w in named if w not in {f.name for f in dataclasses.fields(HouseSettings)}]
    value = OTHER_TEXT.get(name) or (alternatives[0] if alternatives else None)
    assert value and value != default, f"{name}: no other value to set it to (add one to OTHER_TEXT)"
    return value


DOCUMENTED = _documented()


def test_rules_md_documents_the_house_settings_a_deployment_sets():
    names = [n for n, _ in DOCUMENTED]
    assert "tournament_bubble_policy" in names and "warnings_to_ban" in names and len(names) > 40


def test_default_toml_lists_exactly_the_house_settings():
    with open(ROOT / "config" / "default.toml", "rb") as fh:
        house = tomllib.load(fh)["house"]
    assert sorted(house) == sorted(f.name for f in dataclasses.fields(HouseSettings))


def _toml(value) -> str:
    return json.dumps(value) if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else repr(value)


@pytest.mark.parametrize("name, rule", DOCUMENTED, ids=[n for n, _ in DOCUMENTED])
def test_each_documented_setting_is_set_through_the_environment_and_a_file(name, rule, tmp_path):
    value = _other_value(name, rule)
    raw = value if isinstance(value, str) else _toml(value)
    cfg = load_config(environ={"FLOOR_SECRET_KEY": "k", f"FLOOR_HOUSE_{name.upper()}": raw})
    assert getattr(HouseSettings.from_mapping(cfg["house"]), name) == value
    site = tmp_path / "site.toml"
    site.write_text(f"[house]\n{name} = {_toml(value)}\n")
    cfg = load_config(environ={"FLOOR_SECRET_KEY": "k", "FLOOR_CONFIG": str(site)})
    settings = HouseSettings.from_mapping(cfg["house"])
    assert getattr(settings, name) == value
    assert settings.warnings_to_ban == HouseSettings().warnings_to_ban or name == "warnings_to_ban"


def test_the_bubble_policy_reaches_the_app(tmp_path):
    from app import create_app
    site = tmp_path / "site.toml"
    site.write_text(f'[app]\ndatabase_url = "sqlite:///{tmp_path / "f.db"}"\ninstance_path = "{tmp_path}"\n'
                    '[house]\ntournament_bubble_policy = "close_registration"\n')
    cfg = load_config(environ={"FLOOR_SECRET_KEY": "k", "FLOOR_CONFIG": str(site),
                               "FLOOR_HOUSE_TOURNAMENT_BUBBLE_PAUSE_MINUTES": "0"})
    app = create_app(cfg)
    assert app.config["HOUSE"].tournament_bubble_policy == "close_registration"
    assert app.config["HOUSE"].tournament_bubble_pause_minutes == 0
