"""Configuration: the embedded default, another file, FLOOR_* overrides, secrets only from the environment."""
from __future__ import annotations

import os
import stat

import pytest

from config import ConfigError, load_config
from floor.settings import HouseSettings


def test_default_toml_lists_every_house_setting_with_the_house_rules_default(tmp_path):
    cfg = load_config(environ={"FLOOR_SECRET_KEY": "k"})
    assert HouseSettings.from_mapping(cfg["house"]) == HouseSettings()
    assert cfg["house"]["missed_blind_tickets_to_forfeit"] == 3
    assert cfg["house"]["warnings_to_ban"] == 3
    assert cfg["house"]["mustmove_annex_wait_minutes"] == 60
    assert cfg["app"]["database_url"].startswith("sqlite:////") and cfg["app"]["database_url"].endswith("instance/floorman.db")


def test_env_overrides_single_keys_with_types(tmp_path):
    cfg = load_config(environ={"FLOOR_SECRET_KEY": "k", "FLOOR_HOUSE_WARNINGS_TO_BAN": "2",
                               "FLOOR_HOUSE_DEAD_BUTTON": "true", "FLOOR_APP_MESSAGE_QUEUE": "redis://x:6379/0"})
    assert cfg["house"]["warnings_to_ban"] == 2
    assert cfg["house"]["dead_button"] is True
    assert cfg["app"]["message_queue"] == "redis://x:6379/0"


def test_env_override_of_an_unknown_key_is_refused():
    with pytest.raises(ConfigError, match="house.warnings_to_bna"):
        load_config(environ={"FLOOR_SECRET_KEY": "k", "FLOOR_HOUSE_WARNINGS_TO_BNA": "2"})


def test_floor_config_selects_another_file(tmp_path):
    f = tmp_path / "site.toml"
    f.write_text('[app]\ndatabase_url = "postgresql+psycopg://db/floor"\ngenerate_secret_key = false\n'
                 '[house]\ncall_response_minutes = 3\n')
    cfg = load_config(environ={"FLOOR_CONFIG": str(f), "FLOOR_SECRET_KEY": "k"})
    assert cfg["app"]["database_url"] == "postgresql+psycopg://db/floor"
    assert cfg["house"]["call_response_minutes"] == 3
    assert cfg["house"]["warnings_to_ban"] == 3


def test_production_example_needs_the_secret_from_the_environment():
    path = os.path.join(os.path.dirname(__file__), "..", "config", "production.example.toml")
    with pytest.raises(ConfigError, match="FLOOR_SECRET_KEY"):
        load_config(path, environ={})
    cfg = load_config(path, environ={"FLOOR_SECRET_KEY": "from-env"})
    assert cfg["app"]["secret_key"] == "from-env"
    assert cfg["app"]["message_queue"].startswith("redis://")
    assert [d["kind"] for d in cfg["devices"]] == ["wheel", "shoe", "scanner"]


def test_a_secret_in_a_file_is_refused(tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text('[app]\nsecret_key = "oops"\n')
    with pytest.raises(ConfigError):
        load_config(f, environ={})


def test_embedded_default_generates_its_secret_once_into_instance(tmp_path):
    over = {"app": {"instance_path": str(tmp_path / "inst")}}
    first = load_config(environ={}, overrides=over)["app"]["secret_key"]
    second = load_config(environ={}, overrides=over)["app"]["secret_key"]
    assert first == second and len(first) == 64
    mode = stat.S_IMODE(os.stat(tmp_path / "inst" / "secret_key").st_mode)
    assert mode == 0o600


def test_bad_house_value_type_is_refused():
    with pytest.raises(ValueError, match="warnings_to_ban"):
        HouseSettings.from_mapping({"warnings_to_ban": "three"})
