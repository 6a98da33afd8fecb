"""Polling helpers for tests that talk to reader threads over ptys."""
import time

from devices.simulate.base import PtyEnd


def wait_until(predicate, timeout: float = 60.0, interval: float = 0.01):
    """Poll until ``predicate()`` is truthy; returns its value. The timeout only guards against a hang
    (a busy CI machine can be slow): tests wait on the state, not on a clock."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {predicate}")
        time.sleep(interval)


def read_from(end: PtyEnd, want: int, timeout: float = 30.0) -> bytes:
    """What the reader wrote back on the line (ACK/NAK, commands), at least ``want`` bytes."""
    data = b""
    deadline = time.monotonic() + timeout
    while len(data) < want and time.monotonic() < deadline:
        data += end.read(0.05)
    return data


def wheel_outcomes(timed_events) -> list:
    """What the wheel engine makes of a reader's events (the table left to the wheel): the host
    rules replayed over the stream, as the rounds step them live."""
    from devices.wheel import WheelStatus, WinningNumber
    from floor.rounds.engines import wheel as engine
    items, spin = [], None
    for at, e in timed_events:
        if isinstance(e, WheelStatus):
            spin = e.spin
            items.append((at, engine.Status(e.state, e.spin, e.flags, e.winning)))
        elif isinstance(e, WinningNumber):
            items.append((at, engine.Number(e.number, spin)))
    return engine.run(items)
