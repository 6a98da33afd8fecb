"""The bridge on real ptys: a device's bytes reach the database (raw, as received), the live feed
reaches a Socket.IO client in the table's room, health is stored, and a lost wheel raises an alert."""
from __future__ import annotations

from contextlib import contextmanager

import pytest
from sqlalchemy import select
from sqlalchemy.orm import sessionmaker

from devices.bridge import FloorBridge
from devices.config import DeviceConfig
from devices.reader import DeviceReader
from devices.replay import replay
from devices.simulate.base import PtyEnd
from devices.wheel import WinningNumber, encode_number, encode_status
from floor import device_health
from floor.models import Alert, DeviceChunk
from tests.devices.helpers import wait_until

TABLE_12 = 5   # demo floor: table number 12 (roulette) has id 5


def _look(s, statement) -> list:
    """The rows as committed now, read in a transaction that ends before the test looks again: on SQLite
    every transaction takes the write lock (BEGIN IMMEDIATE), and one left open while the test polls
    keeps the bridge from writing what it waits for (the session keeps its rows loaded on commit)."""
    rows = s.scalars(statement).all()
    s.commit()
    return rows


class ManualClock:
    """The reader's monotonic clock, moved by the test: a heartbeat is missed when the test says so."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@contextmanager
def _wheel_line(app, tmp_path, **reader_kw):
    from floor import notify
    from floor.web.extensions import db
    with app.app_context():
        factory = sessionmaker(bind=db.engine, expire_on_commit=False)
    end = PtyEnd(link=str(tmp_path / "usb-wheel-12"))
    config = DeviceConfig(name="wheel-12", table="12", kind="wheel", port=end.path, heartbeat_s=0.4)
    bridge = FloorBridge(factory, {"wheel-12": TABLE_12}, {"wheel-12": "wheel"}, emit=notify.emit)
    reader = DeviceReader(config, bridge, backoff_initial=0.02, backoff_max=0.2, **reader_kw).start()
    wait_until(lambda: reader.health().connected)
    try:
        yield end, reader, factory, config
    finally:
        reader.stop()
        bridge.close()
        end.close()


@pytest.fixture
def wheel(app, tmp_path):
    with _wheel_line(app, tmp_path) as line:
        yield line


def _dealer_socket(login, socket_client):
    login.dealer(12)
    sc = socket_client()
    assert sc.is_connected("/live")
    return sc


def test_a_winning_number_reaches_the_dealer_and_the_raw_stream_replays(wheel, login, socket_client):
    end, reader, factory, config = wheel
    sc = _dealer_socket(login, socket_client)
    for line in (encode_status(2, 11, 23), encode_status(4, 11, 23), b"2", b"5\r\n", encode_status(5, 11, 25)):
        end.write(line)   # the bare number arrives split in two reads
    wait_until(lambda: reader.health().frames >= 4)
    got = []
    wait_until(lambda: got.extend(sc.get_received("/live")) or any(m["name"] == "device.wheel.number" for m in got))
    numbers = [m["args"][0] for m in got if m["name"] == "device.wheel.number"]
    assert numbers == [{"table_id": TABLE_12, "device": "wheel-12", "number": 25}]
    states = [m["args"][0]["state"] for m in got if m["name"] == "device.wheel.status"]
    assert states == [2, 4, 5]
    sent = b"".join((encode_status(2, 11, 23), encode_status(4, 11, 23), b"25\r\n", encode_status(5, 11, 25)))
    with factory() as s:
        def stored():
            return _look(s, select(DeviceChunk).where(DeviceChunk.device == "wheel-12").order_by(DeviceChunk.id))
        chunks = wait_until(lambda: (c := stored()) and b"".join(x.data for x in c) == sent and c)
        stream = [(c.arrived_at, c.data) for c in chunks]
    assert all(c.table_id == TABLE_12 for c in chunks)
    assert [t for t, _ in stream] == sorted(t for t, _ in stream)
    assert [e for e in replay(config, stream) if isinstance(e, WinningNumber)] == [WinningNumber(25)]


@pytest.mark.slow
def test_device_health_is_stored_and_a_lost_wheel_raises_an_alert(app, tmp_path, login, socket_client):
    clock = ManualClock()
    with _wheel_line(app, tmp_path, clock=clock) as (end, reader, factory, _):
        login("manager")
        sc = socket_client()
        end.write(encode_status(2, 3, None))   # betting open: a round is in progress, silence is a loss
        wait_until(lambda: reader.health().frames >= 1)
        clock.advance(1.0)                     # more than the 0.4 s heartbeat without a word
        wait_until(lambda: reader.health().lost)

        def lost_alerts(s):
            return _look(s, select(Alert).where(Alert.kind == "device_lost").order_by(Alert.id))
        with factory() as s:
            alerts = wait_until(lambda: lost_alerts(s))
            assert alerts[0].severity == "critical" and alerts[0].table_id == TABLE_12
            assert "wheel-12" in alerts[0].message
            listed = {d["name"]: d for d in device_health.devices(s)}
        assert listed["wheel-12"]["status"] == "lost" and listed["wheel-12"]["table"] == "12"
        # the live updates go out after the rows commit: wait for them, not for the rows
        received: list = []

        def heard(check) -> bool:
            received.extend(sc.get_received("/live"))
            return any(check(m) for m in received)
        wait_until(lambda: heard(lambda m: m["name"] == "alert" and m["args"][0]["kind"] == "device_lost"))
        wait_until(lambda: heard(lambda m: m["name"] == "device.health" and m["args"][0]["lost"]))
        # Back: health clears, and while the wheel speaks no new alert; a second loss later is a new alert.
        end.write(encode_status(2, 3, None))
        wait_until(lambda: not reader.health().lost)
        with factory() as s:
            assert len(lost_alerts(s)) == 1
        clock.advance(1.0)
        wait_until(lambda: reader.health().lost)
        with factory() as s:
            assert len(wait_until(lambda: (a := lost_alerts(s)) and len(a) == 2 and a)) == 2


def test_the_reader_keeps_reading_when_the_rounds_service_fails(app, tmp_path):
    from floor.web.extensions import db
    with app.app_context():
        factory = sessionmaker(bind=db.engine, expire_on_commit=False)

    class Broken:
        calls = 0

        def event(self, session, table_id, device, kind, event, at):
            Broken.calls += 1
            raise RuntimeError("rounds service bug")

    end = PtyEnd(link=str(tmp_path / "usb-wheel"))
    config = DeviceConfig(name="wheel-12", table="12", kind="wheel", port=end.path)
    bridge = FloorBridge(factory, {"wheel-12": TABLE_12}, {"wheel-12": "wheel"}, dispatch=Broken())
    reader = DeviceReader(config, bridge, backoff_initial=0.02).start()
    try:
        wait_until(lambda: reader.health().connected)
        end.write(encode_status(1, 1, None))
        end.write(encode_number(7))
        wait_until(lambda: bridge.failures >= 1 and Broken.calls >= 2)
        end.write(encode_status(1, 1, 7))
        wait_until(lambda: Broken.calls >= 3)   # the reader went on after each failure
        wait_until(lambda: bridge.failures >= 2)   # each chunk's events failed in the table's worker
        assert reader.alive
        bridge.drain()
        with factory() as s:
            data = b"".join(s.scalars(select(DeviceChunk.data).order_by(DeviceChunk.id)))
        assert b" 7\r\n" in data   # what failed downstream is still in the raw stream
    finally:
        reader.stop()
        bridge.close()
        end.close()


def test_a_deliberate_stop_raises_no_alert(app, session):
    from floor.models import Alert
    device_health.record(session, "shoe-10", {"table": "10", "kind": "shoe", "state": "connected", "connected": True}, 4)
    device_health.record(session, "shoe-10", {"table": "10", "kind": "shoe", "state": "stopped", "connected": False}, 4)
    session.commit()
    assert session.scalars(select(Alert)).all() == []
    device_health.record(session, "shoe-10", {"table": "10", "kind": "shoe", "state": "connected", "connected": True}, 4)
    device_health.record(session, "shoe-10", {"table": "10", "kind": "shoe", "state": "disconnected", "connected": False,
                                              "last_error": "port vanished"}, 4)
    session.commit()
    [alert] = session.scalars(select(Alert)).all()
    assert alert.kind == "device_disconnected" and alert.data["last_error"] == "port vanished"
