"""The pit boss's showdown tool takes the rake the deployment configures (FLOOR_RULES_POKER_*), unless
the dealer's own count of what he took is entered."""
from __future__ import annotations

import pytest

from tests.conftest import make_config

HAND = {"table_number": 1, "boards": ["2C 7D 9S JH 3C"],
        "seats": [{"seat": 1, "hole": "AH AD", "put_in": 20_000}, {"seat": 2, "hole": "KS KC", "put_in": 20_000}]}


@pytest.fixture
def app_config(db_url, tmp_path, monkeypatch):
    monkeypatch.setenv("FLOOR_RULES_POKER_PERCENT", "1/20")
    monkeypatch.setenv("FLOOR_RULES_POKER_CAP", "300")
    return make_config(db_url, tmp_path)


def test_the_house_rake_comes_out_of_the_pot_and_the_ruling_records_it(login):
    login("pitboss")
    res = login.post("/api/pit/poker/showdown", json=HAND).get_json()
    assert res["rake"] == 300 and res["won"] == {"1": 39_700, "2": 0}      # 5 % of 400.00, capped at 3.00
    assert login.post("/api/pit/poker/showdown", json={**HAND, "rake": 100}).get_json()["rake"] == 100
    ruling = login.post("/api/pit/poker/rulings", json={**HAND, "hand_ref": "#12", "reason": "chips to the wrong seat"})
    assert ruling.status_code == 201, ruling.get_json()
    assert ruling.get_json()["inputs"]["rake"] == 300 and ruling.get_json()["result"]["won"]["1"] == 39_700
