"""Configuration: TOML files, FLOOR_* environment overrides, secrets from the environment only."""
from config.loader import load_config, ConfigError  # noqa: F401
