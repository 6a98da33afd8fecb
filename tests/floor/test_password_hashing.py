"""Password and PIN hashes: argon2id at the standard cost unless a test suite asks for the minimal one."""
from __future__ import annotations

import pytest
from argon2 import extract_parameters, profiles

from config.loader import load_config
from floor import staff


@pytest.fixture
def restore_cost():
    yield
    staff.use_hash_cost("minimal")      # what the suite's apps use (tests/conftest.py)


def test_the_shipped_config_hashes_at_the_standard_cost(restore_cost):
    assert load_config(environ={"FLOOR_SECRET_KEY": "x"})["security"]["password_hash_cost"] == "standard"
    staff.use_hash_cost("standard")
    params = extract_parameters(staff.hash_secret("correct horse"))
    assert (params.type, params.time_cost, params.memory_cost) == (
        profiles.RFC_9106_LOW_MEMORY.type, profiles.RFC_9106_LOW_MEMORY.time_cost,
        profiles.RFC_9106_LOW_MEMORY.memory_cost)


def test_a_hash_keeps_its_own_cost_when_the_process_changes(restore_cost):
    staff.use_hash_cost("minimal")
    cheap = staff.hash_secret("1234")
    staff.use_hash_cost("standard")
    assert staff._matches(cheap, "1234") and not staff._matches(cheap, "1235")


def test_an_unknown_cost_is_refused():
    with pytest.raises(ValueError, match="password_hash_cost"):
        staff.use_hash_cost("fast")
