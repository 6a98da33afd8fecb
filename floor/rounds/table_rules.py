"""The rules the live tables play, handed to the pure rules of floor.games (which take them as an
argument and assume none).

The game modules' own settings (``BlackjackSettings``, ``BaccaratSettings``, ``RouletteSettings``,
``CasinoHoldemSettings``, poker's ``RakeSettings``) are set by the deployment in the config's
``[rules.<game>]`` sections (or ``FLOOR_RULES_<GAME>_<NAME>``): ``configured`` reads and checks them
once when the app starts and puts them on the house settings, and ``table_rules(house)`` gives them to
whoever plays or replays a round. Baccarat's commission is the house setting
``baccarat_commission_percent``, never a ``[rules.baccarat]`` key.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from floor.games import baccarat, blackjack, casino_holdem, poker, roulette
from floor.games.base import GameInputError
from floor.settings import HouseSettings

# [rules.<game>] -> the settings class of floor.games it sets
GAMES = {"blackjack": blackjack.BlackjackSettings, "baccarat": baccarat.BaccaratSettings,
         "roulette": roulette.RouletteSettings, "casino_holdem": casino_holdem.CasinoHoldemSettings,
         "poker": poker.RakeSettings}
# fields of those classes that a house setting owns instead
HOUSE_OWNED = {("baccarat", "banker_commission"): "baccarat_commission_percent"}


@dataclass(frozen=True)
class TableRules:
    roulette: roulette.RouletteSettings = roulette.RouletteSettings()
    baccarat: baccarat.BaccaratSettings = baccarat.BaccaratSettings()
    blackjack: blackjack.BlackjackSettings = blackjack.BlackjackSettings()
    casino_holdem: casino_holdem.CasinoHoldemSettings = casino_holdem.CasinoHoldemSettings()
    poker: poker.RakeSettings = poker.RakeSettings()


def settable(game: str) -> list[dataclasses.Field]:
    """The fields of a game's settings a deployment sets in [rules.<game>]."""
    return [f for f in dataclasses.fields(GAMES[game]) if (game, f.name) not in HOUSE_OWNED]


def config_value(game: str, name: str) -> Any:
    """A field's default as config/default.toml writes it (TOML has no fractions and no null)."""
    value = next(f for f in settable(game) if f.name == name).default
    if isinstance(value, Fraction):
        return str(value)
    if value is None:
        return 0
    return value


def _value(game: str, field: dataclasses.Field, raw: Any) -> Any:
    where = f"rules.{game}.{field.name}"
    default = field.default
    if isinstance(default, Fraction):
        if isinstance(raw, int) and not isinstance(raw, bool):
            return Fraction(raw)
        if isinstance(raw, str):
            try:
                return Fraction(raw.strip())
            except (ValueError, ZeroDivisionError):
                pass
        raise ValueError(f"{where} must be an exact number written as text (like \"6/5\" or \"0.05\"), not {raw!r}")
    if default is None:      # an optional amount: 0 in the config is none
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise ValueError(f"{where} must be a whole number (0: none), not {raw!r}")
        return raw or None
    if isinstance(default, bool):
        if not isinstance(raw, bool):
            raise ValueError(f"{where} must be true or false, not {raw!r}")
        return raw
    if isinstance(default, int):
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise ValueError(f"{where} must be a whole number, not {raw!r}")
        return raw
    if not isinstance(raw, str):
        raise ValueError(f"{where} must be text, not {raw!r}")
    return raw


def game_rules(sections: Mapping[str, Any] | None) -> TableRules:
    """The rules of the config's [rules.<game>] sections, checked: an unknown game or name, a value of the
    wrong type or one the game's own rules refuse raises ValueError saying which setting and why."""
    if sections is not None and not isinstance(sections, Mapping):
        raise ValueError(f"rules must be sections of settings ([rules.<game>]), not {sections!r}")
    sections = dict(sections or {})
    unknown = set(sections) - set(GAMES)
    if unknown:
        raise ValueError(f"unknown rules sections: {sorted(f'rules.{g}' for g in unknown)} "
                         f"(the games are {', '.join(GAMES)})")
    made = {}
    for game, cls in GAMES.items():
        values = sections.get(game) or {}
        if not isinstance(values, Mapping):
            raise ValueError(f"rules.{game} must be a section of settings, not {values!r}")
        for name in values:
            if (game, name) in HOUSE_OWNED:
                raise ValueError(f"rules.{game}.{name} is the house setting {HOUSE_OWNED[game, name]}")
        fields = {f.name: f for f in settable(game)}
        unknown = set(values) - set(fields)
        if unknown:
            raise ValueError(f"unknown settings rules.{game}.{sorted(unknown)} (the settings are {', '.join(fields)})")
        try:
            made[game] = cls(**{name: _value(game, fields[name], raw) for name, raw in values.items()})
        except GameInputError as exc:
            raise ValueError(f"rules.{game}: {exc}") from None
    return TableRules(**made)


def configured(house: HouseSettings, sections: Mapping[str, Any] | None) -> HouseSettings:
    """The house settings carrying the game rules of the config (read once, at start)."""
    return dataclasses.replace(house, games=game_rules(sections))


def table_rules(house: HouseSettings) -> TableRules:
    """The rules the tables play: the configured game rules (the games' own defaults for house settings
    made without a config), with the house's baccarat commission."""
    rules = house.games if house.games is not None else TableRules()
    if not isinstance(rules, TableRules):
        raise TypeError(f"house.games holds {type(rules).__name__}, not the TableRules of floor.rounds.table_rules")
    commission = Fraction(house.baccarat_commission_percent, 100)
    if rules.baccarat.banker_commission != commission:
        rules = dataclasses.replace(rules, baccarat=dataclasses.replace(rules.baccarat, banker_commission=commission))
    return rules
