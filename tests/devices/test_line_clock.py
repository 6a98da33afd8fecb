"""The line's times keep to the steady clock: a step of the device host's wall clock is an alert,
and moves no deadline counted from a line's time (the blackjack decision deadline)."""
from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from devices.config import DeviceConfig
from devices.dispatch import RoundsDispatch
from devices.events import ClockStep
from devices.reader import DeviceReader
from devices.scanner import CardRead, encode_card
from floor import ledger, rounds
from floor.models import Alert, RoundCard, Timer
from floor.rounds import bets
from floor.tables import table_by_number
from tests.conftest import make_engine
from tests.devices.helpers import PtyLine, wait_until
from tests.floor.rounds.helpers import CASHIER, DEALER, HOUSE


class SteppedWall:
    """The host's wall clock, stepped by the test."""

    def __init__(self) -> None:
        self.step = timedelta(0)

    def __call__(self) -> datetime:
        return datetime.now(timezone.utc) + self.step


def test_a_wall_clock_step_is_reported_and_does_not_move_the_lines_times(pty, sink):
    wall = SteppedWall()
    reader = DeviceReader(DeviceConfig(name="scanner-1", table="T1", kind="scanner", port=pty.path), sink,
                          backoff_initial=0.02, wallclock=wall).start()
    try:
        wait_until(lambda: reader.health().connected)
        pty.write(encode_card("AS"))
        wait_until(lambda: sink.events_of("scanner-1", CardRead))
        wall.step = timedelta(hours=1)
        pty.write(encode_card("KD"))
        wait_until(lambda: len(sink.events_of("scanner-1", CardRead)) == 2)
    finally:
        reader.stop()
    assert [e.seconds for e in sink.events_of("scanner-1", ClockStep)] == [pytest.approx(3600, abs=2)]
    (t1, _), (t2, _) = [(t, e) for t, e in sink.timed_events("scanner-1") if isinstance(e, CardRead)]
    assert timedelta(0) <= t2 - t1 < timedelta(minutes=1)   # not an hour apart


@pytest.mark.slow
def test_the_decision_deadline_does_not_move_with_the_device_hosts_clock(sqlite_url, tmp_path):
    engine = make_engine(sqlite_url)
    with Session(engine) as s:
        table = table_by_number(s, 14).id
        ledger.credit(s, CASHIER, 6, 10_000, house=HOUSE)
        s.commit()
    factory = sessionmaker(bind=engine, expire_on_commit=False)
    wall = SteppedWall()
    with PtyLine(factory, tmp_path, "scanner", 14, RoundsDispatch(factory, HOUSE), reader_kw={"wallclock": wall}) as line:
        with Session(engine) as s:
            r = rounds.open_betting(s, DEALER, table, house=HOUSE)
            bets.place(s, DEALER, table, spot="bet", seat=1, amount=1_000, player_id=6, house=HOUSE)
            s.commit()
            rounds.close_betting(s, DEALER, table)
            s.commit()
            rid = r.id

        def cards() -> int:
            with Session(engine) as s:
                return s.query(RoundCard).filter_by(round_id=rid, accepted=True).count()
        line.end.write(encode_card("8H") + encode_card("TH"))   # seat 1, the dealer's up card
        wait_until(lambda: cards() == 2, what="the first two cards")
        wall.step = timedelta(hours=1)                           # the host's clock jumps mid-hand
        line.end.write(encode_card("5C") + encode_card("9S"))   # seat 1, the hole card: seat 1 decides
        dealt = datetime.now(timezone.utc)

        def deadline():
            with Session(engine) as s:
                return s.execute(select(Timer.due_at).where(Timer.key == f"round:{rid}:decision",
                                                            Timer.status == "pending")).scalar_one_or_none()
        due = wait_until(deadline, what="the decision timer")
        with Session(engine) as s:
            stepped = s.execute(select(Alert).where(Alert.table_id == table, Alert.kind == "clock_step")).scalars().all()
    assert dealt - timedelta(minutes=1) < due <= dealt + timedelta(seconds=HOUSE.decision_seconds + 60)
    assert len(stepped) == 1 and "jumped" in stepped[0].message
