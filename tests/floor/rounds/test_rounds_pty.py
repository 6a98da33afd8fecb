"""End to end on a pty: the wheel simulator speaks the real protocol, the real reader decodes it,
and the device bridge hands each event to the rounds' entry points, one session per event. A bet
placed while the wheel asks for bets is settled on the number the wheel announced."""
from __future__ import annotations

import pytest

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from devices import wheel
from devices.dispatch import RoundsDispatch
from devices.simulate.wheel import WheelSimulator
from floor import ledger, rounds
from floor.games import roulette
from floor.models import DeviceFrame, Round
from floor.rounds import bets
from floor.tables import table_by_number
from tests.conftest import make_engine
from tests.devices.helpers import PtyLine, wait_until
from tests.floor.rounds.helpers import CASHIER, DEALER, HOUSE
from tests.money import cash_in

# plays rounds through a pty in real time: left out of `make test-fast`, run by `make test`
pytestmark = pytest.mark.slow


def test_a_simulated_wheel_plays_a_round_through_the_entry_points(sqlite_url, tmp_path):
    engine = make_engine(sqlite_url)
    with Session(engine) as s:
        table = table_by_number(s, 12).id
        cash_in(s, 1, 10_000, house=HOUSE)
        s.commit()
    factory = sessionmaker(bind=engine, expire_on_commit=False)
    with PtyLine(factory, tmp_path, "wheel", 12, RoundsDispatch(factory, HOUSE)) as line:
        # betting stays open until the bets are down, however slow the machine
        sim = line.play(WheelSimulator, seed=3, speed=8.0, hold_in=(wheel.STATE_PLACE_BETS,))

        def betting():
            with Session(engine) as s:
                r = rounds.active_round(s, table, lock=False)
                return r.id if r is not None and r.status == "betting" else None
        rid = wait_until(betting, what="betting open")
        with Session(engine) as s:
            bets.place(s, DEALER, table, spot="red", amount=1_000, player_id=1, house=HOUSE)
            bets.place(s, DEALER, table, spot="straight", numbers=[7], amount=500, player_id=1, house=HOUSE)
            s.commit()
        sim.release(wheel.STATE_PLACE_BETS)

        def settled():
            with Session(engine) as s:
                r = s.get(Round, rid)
                return r if r.status in ("settled", "voided", "held") else None
        r = wait_until(settled, what="the round ended")
        reader = line.reader
    assert reader.health().sink_errors == 0
    assert r.status == "settled", r.held_reason
    number = r.result["number"]
    assert (r.spin, number) in sim.results
    back = roulette.returned(roulette.bet("red"), 1_000, number, roulette.DEFAULT) + roulette.returned(roulette.bet("straight", [7]), 500, number, roulette.DEFAULT)
    with Session(engine) as s:
        assert ledger.player_balance(s, 1) == 10_000 - 1_500 + back
        assert ledger.check(s).ok
        frames = s.execute(select(DeviceFrame.summary).where(DeviceFrame.round_id == rid)).scalars().all()
        assert any(f.startswith("number") for f in frames) and any(f.startswith("wheel status 5,") for f in frames)
    engine.dispose()
