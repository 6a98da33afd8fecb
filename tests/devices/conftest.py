import time

import pytest

from devices.config import DeviceConfig
from devices.reader import DeviceReader
from devices.simulate.base import PtyEnd
from devices.sink import RecordingSink


def wait_until(predicate, timeout: float = 5.0, interval: float = 0.01):
    """Poll until ``predicate()`` is truthy; returns its value or fails the test at the deadline."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {predicate}")
        time.sleep(interval)


def read_from(end: PtyEnd, want: int, timeout: float = 3.0) -> bytes:
    """What the reader wrote back on the line (ACK/NAK, commands), at least ``want`` bytes."""
    data = b""
    deadline = time.monotonic() + timeout
    while len(data) < want and time.monotonic() < deadline:
        data += end.read(0.05)
    return data


@pytest.fixture
def pty(tmp_path):
    end = PtyEnd(link=str(tmp_path / "usb-Floorman_Device-if00"))
    yield end
    end.close()


@pytest.fixture
def sink():
    return RecordingSink()


@pytest.fixture
def make_reader(sink):
    readers = []

    def make(kind: str, port: str, *, sink_=None, wait_connected: bool = True, reader_kw=None, **cfg):
        config = DeviceConfig(name=f"{kind}-1", table="T1", kind=kind, port=port, **cfg)
        reader = DeviceReader(config, sink_ or sink, backoff_initial=0.02, backoff_max=0.2,
                              **(reader_kw or {}))
        readers.append(reader.start())
        if wait_connected:
            wait_until(lambda: reader.health().connected)
        return reader

    yield make
    for reader in readers:
        reader.stop()
