"""Roulette rounds at table 12 arranged for the web tests: the player's bets, then held by a wheel
fault or settled on a number, through the same calls the wheel makes."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from floor import ledger, rounds
from floor.actors import Actor
from floor.rounds import bets
from floor.settings import HouseSettings
from floor.tables import table_by_number
from tests.conftest import app_session

HOUSE = HouseSettings()
CAGE = Actor("Cleo", "cashier", "cage")
WHEEL = Actor.device("wheel-12")


def held(app, stakes: dict[str, int], player_id: int, *, settle_on: int | None = None) -> int:
    """A roulette round at table 12 with the player's bets, held by a wheel fault (or settled on a number)."""
    t = datetime.now(timezone.utc) - timedelta(minutes=5)
    with app_session(app) as s:
        table = table_by_number(s, 12).id
        ledger.credit(s, CAGE, player_id, 500_000, house=HOUSE)
        s.commit()
        rounds.wheel_status(s, table, 2, 70, (), t, house=HOUSE)
        s.commit()
        for spot, amount in stakes.items():
            kind, _, number = spot.partition(":")
            bets.place(s, WHEEL, table, spot=kind, amount=amount, player_id=player_id,
                       numbers=[int(number)] if number else None, at=t + timedelta(seconds=1), house=HOUSE)
        s.commit()
        rounds.wheel_status(s, table, 4, 70, (), t + timedelta(seconds=5), house=HOUSE)
        s.commit()
        if settle_on is None:
            rounds.wheel_status(s, table, 4, 70, {"fault"}, t + timedelta(seconds=6), house=HOUSE)   # fault flag: held
        else:
            rounds.wheel_number(s, table, 70, settle_on, t + timedelta(seconds=9))
            out = rounds.wheel_status(s, table, 5, 70, (), t + timedelta(seconds=9.1), winning=settle_on, house=HOUSE)
            rounds.commit_then_settle(s, out, house=HOUSE)
        s.commit()
        r = rounds.last_round(s, table)
        assert r.status == ("held" if settle_on is None else "settled")
        return r.id
