"""Every setting docs/rules.md documents can be set by a deployment, both ways the docs say: one at a
time in the environment (FLOOR_HOUSE_<NAME>, and FLOOR_RULES_<GAME>_<NAME> for the game modules'
``Class.field`` settings) and in its own TOML file (FLOOR_CONFIG: [house], [rules.<game>]), and the
app's settings (the house settings, the rules the tables play) then carry the new value. The settings
are read from the document itself, so a setting documented later is tested without touching this file."""
from __future__ import annotations

import dataclasses
import json
import re
import tomllib
import typing
from fractions import Fraction
from pathlib import Path

import pytest

from config import ConfigError, load_config
from floor.rounds import table_rules
from floor.settings import HouseSettings, house_fields

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
    assert sorted(house) == sorted(house_fields())


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


# --- the game modules' own settings: `Class.field` = `value` ------------------------------------------

GAME_SETTING = re.compile(r"`([A-Z]\w*Settings)\.([a-z_]\w*)` = `([^`]*)`")
GAME_OF = {cls.__name__: game for game, cls in table_rules.GAMES.items()}


def _documented_game() -> list[tuple[str, str]]:
    """(Class, field) for every game setting rules.md names with a default."""
    out = set()
    for line in RULES.read_text().splitlines():
        if line.startswith("|"):
            out |= {(cls, name) for cls, name, _default in GAME_SETTING.findall(line)}
    return sorted(out)


DOCUMENTED_GAME = _documented_game()


def _game_other_value(cls_name: str, name: str):
    """A value other than the default, of the field's own kind (an exact fraction stays exact)."""
    cls = table_rules.GAMES[GAME_OF[cls_name]]
    default = {f.name: f.default for f in dataclasses.fields(cls)}[name]
    if isinstance(default, bool):
        return not default
    if isinstance(default, Fraction):
        return default * Fraction(4, 5) if default else Fraction(1, 20)     # 3/2 -> 6/5; 0 -> 5 %
    if isinstance(default, int):
        return default + 1
    choices = typing.get_args(typing.get_type_hints(cls)[name])             # Literal["down", "up", ...]
    others = [c for c in choices if c != default]
    assert others, f"{cls_name}.{name}: no other value to set it to"
    return others[0]


def _as_config(value):
    """The value as a deployment writes it: an exact fraction is text ("6/5"), the rest TOML."""
    return str(value) if isinstance(value, Fraction) else value


def test_rules_md_documents_the_game_settings_a_deployment_sets():
    assert ("BlackjackSettings", "blackjack_pays") in DOCUMENTED_GAME
    assert {cls for cls, _ in DOCUMENTED_GAME} == set(GAME_OF), "every game's settings class is documented"
    for cls_name, name in DOCUMENTED_GAME:
        assert cls_name in GAME_OF, f"rules.md documents {cls_name}.{name}: no [rules.<game>] section sets {cls_name}"


def test_default_toml_lists_exactly_the_game_settings_with_their_defaults():
    with open(ROOT / "config" / "default.toml", "rb") as fh:
        rules = tomllib.load(fh)["rules"]
    assert sorted(rules) == sorted(table_rules.GAMES)
    for game in table_rules.GAMES:
        assert rules[game] == {f.name: table_rules.config_value(game, f.name) for f in table_rules.settable(game)}, game
    assert table_rules.game_rules(rules) == table_rules.TableRules()


def _rules_from(cfg) -> table_rules.TableRules:
    """What the app does at start: the house settings carrying the configured rules."""
    house = table_rules.configured(HouseSettings.from_mapping(cfg["house"]), cfg.get("rules"))
    return table_rules.table_rules(house)


@pytest.mark.parametrize("cls_name, name", DOCUMENTED_GAME, ids=[f"{c}.{n}" for c, n in DOCUMENTED_GAME])
def test_each_documented_game_setting_is_set_through_the_environment_and_a_file(cls_name, name, tmp_path):
    game, value = GAME_OF[cls_name], _game_other_value(cls_name, name)
    written = _as_config(value)
    raw = written if isinstance(written, str) else _toml(written)
    cfg = load_config(environ={"FLOOR_SECRET_KEY": "k", f"FLOOR_RULES_{game.upper()}_{name.upper()}": raw})
    rules = _rules_from(cfg)
    assert getattr(getattr(rules, game), name) == value
    site = tmp_path / "site.toml"
    site.write_text(f"[rules.{game}]\n{name} = {_toml(written)}\n")
    cfg = load_config(environ={"FLOOR_SECRET_KEY": "k", "FLOOR_CONFIG": str(site)})
    rules = _rules_from(cfg)
    assert getattr(getattr(rules, game), name) == value
    # the other settings of the game keep their defaults
    others = {f.name for f in table_rules.settable(game)} - {name}
    default = getattr(table_rules.TableRules(), game)
    assert all(getattr(getattr(rules, game), f) == getattr(default, f) for f in others)


def test_game_rules_reach_the_app_from_a_file_and_the_environment(tmp_path):
    from app import create_app
    site = tmp_path / "site.toml"
    site.write_text(f'[app]\ndatabase_url = "sqlite:///{tmp_path / "f.db"}"\ninstance_path = "{tmp_path}"\n'
                    '[rules.blackjack]\nblackjack_pays = "6/5"\n[rules.poker]\npercent = "0.05"\ncap = 300\n')
    cfg = load_config(environ={"FLOOR_SECRET_KEY": "k", "FLOOR_CONFIG": str(site),
                               "FLOOR_RULES_CASINO_HOLDEM_DEALER_QUALIFIES_WITH": "5",
                               "FLOOR_HOUSE_BACCARAT_COMMISSION_PERCENT": "4"})
    rules = table_rules.table_rules(create_app(cfg).config["HOUSE"])
    assert rules.blackjack.blackjack_pays == Fraction(6, 5) and rules.blackjack.insurance_pays == 2
    assert (rules.poker.percent, rules.poker.cap) == (Fraction(1, 20), 300)
    assert rules.casino_holdem.dealer_qualifies_with == 5
    assert rules.baccarat.banker_commission == Fraction(4, 100)      # the house setting, not a [rules] key


@pytest.mark.parametrize("environ, file, says", [
    ({"FLOOR_RULES_BLACKJACK_BLACKJACK_PAYZ": "6/5"}, "", "no setting rules.blackjack.blackjack_payz"),
    ({"FLOOR_RULES_CRAPS_FIELD": "2"}, "", "FLOOR_RULES_CRAPS_FIELD: no section rules"),
    ({"FLOOR_GAME_BLACKJACK_BLACKJACK_PAYS": "6/5"}, "", "FLOOR_RULES_<GAME>_<NAME>"),
    ({}, "[rules.blackjack]\nblackjack_payz = \"6/5\"\n", "unknown settings rules.blackjack.['blackjack_payz']"),
    ({}, "[rules.craps]\nfield = 2\n", "unknown settings rules.['craps']"),
    ({}, "[rules.baccarat]\nbanker_commission = \"4/100\"\n", "unknown settings rules.baccarat.['banker_commission']"),
])
def test_an_unknown_game_setting_stops_the_config(environ, file, says, tmp_path):
    if file:
        site = tmp_path / "site.toml"
        site.write_text(file)
        environ = {**environ, "FLOOR_CONFIG": str(site)}
    with pytest.raises(ConfigError) as refused:
        load_config(environ={"FLOOR_SECRET_KEY": "k", **environ})
    assert says in str(refused.value)


@pytest.mark.parametrize("setting, raw, says", [
    ("blackjack_blackjack_pays", "1.2.3", "rules.blackjack.blackjack_pays must be an exact number"),
    ("blackjack_blackjack_pays", "0", "BlackjackSettings.blackjack_pays must be an exact number above 0"),
    ("blackjack_dealer_hits_soft_17", "1", "rules.blackjack.dealer_hits_soft_17 must be true or false"),
    ("blackjack_payout_rounding", "sideways", "BlackjackSettings.payout_rounding must be one of down, up, half_up"),
    ("roulette_straight", "0", "RouletteSettings.straight must be a whole number of at least 1"),
    ("roulette_straight", "35.5", "rules.roulette.straight must be a whole number"),
    ("casino_holdem_dealer_qualifies_with", "15", "dealer_qualifies_with must be a card rank from 2 to 14"),
    ("poker_percent", "3/2", "RakeSettings.percent must be an exact share from 0 to below 1"),
])
def test_a_wrong_game_setting_stops_the_app_saying_which_and_why(setting, raw, says, tmp_path):
    from app import create_app
    cfg = load_config(environ={"FLOOR_SECRET_KEY": "k", f"FLOOR_RULES_{setting.upper()}": raw,
                               "FLOOR_APP_DATABASE_URL": f"sqlite:///{tmp_path / 'f.db'}",
                               "FLOOR_APP_INSTANCE_PATH": str(tmp_path)})
    with pytest.raises(ValueError) as refused:
        create_app(cfg)
    assert says in str(refused.value)
