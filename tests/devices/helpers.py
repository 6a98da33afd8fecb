"""Helpers for tests that talk to reader threads over ptys: the one polling wait of the suite's device
tests, and one device line wired as `make run` wires it."""
from __future__ import annotations

import time
from pathlib import Path

from devices.simulate.base import PtyEnd


def wait_until(predicate, timeout: float = 60.0, what: str = "", interval: float = 0.01):
    """Poll until ``predicate()`` is truthy; returns its value. The timeout only guards against a hang
    (a busy CI machine can be slow): tests wait on the state, not on a clock."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what or predicate}")
        time.sleep(interval)


def read_from(end: PtyEnd, want: int, timeout: float = 30.0) -> bytes:
    """What the reader wrote back on the line (ACK/NAK, commands), at least ``want`` bytes."""
    data = b""
    deadline = time.monotonic() + timeout
    while len(data) < want and time.monotonic() < deadline:
        data += end.read(0.05)
    return data


class PtyLine:
    """One device line of one table, in this process as `make run` has it: a pty linked like
    /dev/serial/by-id, the real reader decoding it, and as its sink the real bridge (one database
    session per event) with the rounds' dispatch. ``play`` puts a simulated device on the other end;
    without one the test writes the bytes to ``end``. Use as a context manager or call ``close``."""

    def __init__(self, factory, tmp_path: Path, kind: str, table_number: int, dispatch, *, name: str | None = None,
                 emit=None, bridge_kw: dict | None = None, reader_kw: dict | None = None, **config):
        from devices.bridge import FloorBridge
        from devices.config import DeviceConfig
        from devices.reader import DeviceReader
        from floor.tables import table_by_number
        self.name = name or f"{kind}-{table_number}"
        with factory() as s:
            self.table_id = table_by_number(s, table_number).id
        self.end = PtyEnd(link=str(Path(tmp_path) / self.name))
        # the lag pause off unless a test asks for it: a busy CI host falls behind now and then
        self.bridge = FloorBridge(factory, {self.name: self.table_id}, {self.name: kind}, emit=emit, dispatch=dispatch,
                                  **{"lag_limit_s": 30.0, **(bridge_kw or {})})
        self.reader = DeviceReader(DeviceConfig(name=self.name, table=str(table_number), kind=kind, port=self.end.path,
                                                **config),
                                   self.bridge, backoff_initial=0.02, backoff_max=0.2, **(reader_kw or {})).start()
        self.sim = None
        wait_until(lambda: self.reader.health().connected, 10, f"{self.name} connected")

    def play(self, sim_cls, *, inject: tuple[str, ...] = (), **sim_kw):
        """A simulated device on the line (``inject``: faults for its first round), started."""
        self.sim = sim_cls(self.end, **sim_kw)
        for fault in inject:
            self.sim.inject(fault)
        self.sim.start()
        return self.sim

    def close(self) -> None:
        if self.sim is not None:
            self.sim.stop()
        self.reader.stop()
        self.bridge.close()
        self.end.close()

    def __enter__(self) -> "PtyLine":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def wheel_outcomes(timed_events) -> list:
    """What the wheel engine makes of a reader's events (the table left to the wheel): the host
    rules replayed over the stream, as the rounds step them live."""
    from devices.wheel import WheelStatus, WinningNumber
    from floor.rounds.engines import wheel as engine
    items, spin = [], None
    for at, e in timed_events:
        if isinstance(e, WheelStatus):
            spin = e.spin
            items.append((at, engine.Status(e.state, e.spin, e.flag_names, e.winning)))
        elif isinstance(e, WinningNumber):
            items.append((at, engine.Number(e.number, spin)))
    return engine.run(items)
