"""Load the floor's configuration.

Order: the embedded default (config/default.toml) or the file named by FLOOR_CONFIG, then single keys
overridden by FLOOR_<SECTION>_<KEY> environment variables (e.g. FLOOR_HOUSE_WARNINGS_TO_BAN=2,
FLOOR_APP_DATABASE_URL=postgresql+psycopg://...). The game rules' sections [rules.<game>] are
overridden the same way, FLOOR_RULES_<GAME>_<KEY> (FLOOR_RULES_BLACKJACK_BLACKJACK_PAYS=6/5).
Secrets never come from files: FLOOR_SECRET_KEY,
or for the embedded default a key generated once into instance/secret_key.
"""
from __future__ import annotations

import copy
import os
import secrets
import tomllib
from pathlib import Path
from typing import Any, Mapping

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FILE = ROOT / "config" / "default.toml"
SECRET_KEYS = ("secret_key",)
NESTED = ("rules",)     # sections of sections: [rules.blackjack], [rules.roulette]...


class ConfigError(RuntimeError):
    """The configuration cannot be used (missing secret, unknown key, bad value)."""


def _parse_env_value(raw: str) -> Any:
    """Read an override as a TOML value when it is one (numbers, booleans, arrays), else as text."""
    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        return raw


def _apply_env(cfg: dict, environ: Mapping[str, str]) -> None:
    for name, raw in environ.items():
        if not name.startswith("FLOOR_") or name in ("FLOOR_CONFIG", "FLOOR_SECRET_KEY"):
            continue
        rest = name[len("FLOOR_"):].lower()
        section, _, key = rest.partition("_")
        if section == "game" and isinstance(cfg.get("rules"), dict):
            raise ConfigError(f"{name}: a game's rule is set as FLOOR_RULES_<GAME>_<NAME> (the [rules.<game>] sections)")
        if not key or section not in cfg or not isinstance(cfg[section], dict):
            continue  # not ours to interpret (e.g. a FLOOR_ variable of another tool)
        where, values = section, cfg[section]
        if section in NESTED:   # [rules.<game>]: the longest game name the rest starts with
            sub = max((g for g in values if isinstance(values[g], dict) and key.startswith(g + "_")), key=len, default=None)
            if sub is None:
                raise ConfigError(f"{name}: no section {section}.<…> it names (one of {', '.join(sorted(values))})")
            where, values, key = f"{section}.{sub}", values[sub], key[len(sub) + 1:]
        if key not in values:
            raise ConfigError(f"{name}: no setting {where}.{key} to override")
        value = _parse_env_value(raw)
        if isinstance(values[key], str) and not isinstance(value, str):
            value = raw     # a text setting stays text ("05:00" is not a TOML time, "10,12" not a list, "6/5" a fraction)
        values[key] = value


def _resolve_paths(cfg: dict) -> None:
    """Relative instance paths are relative to the project root, whatever the working directory."""
    app = cfg["app"]
    inst = Path(app.get("instance_path", "instance"))
    if not inst.is_absolute():
        inst = ROOT / inst
    app["instance_path"] = str(inst)
    url = app.get("database_url", "")
    if url.startswith("sqlite:///") and not url.startswith("sqlite:////"):
        rel = url[len("sqlite:///"):]
        if rel and rel != ":memory:":
            app["database_url"] = "sqlite:///" + str((ROOT / rel).resolve())


def _secret_key(cfg: dict, environ: Mapping[str, str]) -> str:
    key = environ.get("FLOOR_SECRET_KEY")
    if key:
        return key
    if not cfg["app"].get("generate_secret_key", False):
        raise ConfigError("FLOOR_SECRET_KEY must be set in the environment for this configuration")
    inst = Path(cfg["app"]["instance_path"])
    inst.mkdir(parents=True, exist_ok=True)
    path = inst / "secret_key"
    if not path.exists():
        # Written once with owner-only permissions; survives restarts so sessions stay valid.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(secrets.token_hex(32))
    return path.read_text().strip()


def load_config(path: str | os.PathLike | None = None, environ: Mapping[str, str] | None = None,
                overrides: Mapping[str, Mapping[str, Any]] | None = None) -> dict:
    """Return the merged configuration as nested dicts (sections of keys)."""
    environ = os.environ if environ is None else environ
    with open(DEFAULT_FILE, "rb") as fh:
        cfg = tomllib.load(fh)
    chosen = path or environ.get("FLOOR_CONFIG")
    if chosen:
        with open(chosen, "rb") as fh:
            other = tomllib.load(fh)
        for section, values in other.items():
            if isinstance(values, dict) and isinstance(cfg.get(section), dict):
                unknown = set(values) - set(cfg[section])
                if unknown and section != "devices":
                    raise ConfigError(f"{chosen}: unknown settings {section}.{sorted(unknown)}")
                if section in NESTED:    # a file sets some keys of some sub-sections: the rest keep their defaults
                    for sub, keys in values.items():
                        if not isinstance(keys, dict):
                            raise ConfigError(f"{chosen}: {section}.{sub} must be a section ([{section}.{sub}])")
                        unknown = set(keys) - set(cfg[section][sub])
                        if unknown:
                            raise ConfigError(f"{chosen}: unknown settings {section}.{sub}.{sorted(unknown)}")
                        cfg[section][sub].update(keys)
                    continue
                cfg[section].update(values)
            else:
                cfg[section] = values
    for section, values in (overrides or {}).items():
        if isinstance(values, dict):
            cfg.setdefault(section, {}).update(copy.deepcopy(dict(values)))
        else:
            cfg[section] = copy.deepcopy(values)
    _apply_env(cfg, environ)
    for section in cfg.values():
        if isinstance(section, dict):
            for k in SECRET_KEYS:
                if section.get(k):
                    raise ConfigError(f"secrets come from the environment only, not from files ({k})")
    _resolve_paths(cfg)
    cfg["app"]["secret_key"] = _secret_key(cfg, environ)
    return cfg
