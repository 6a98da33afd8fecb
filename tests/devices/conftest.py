import pytest

from devices.config import DeviceConfig
from devices.reader import DeviceReader
from devices.simulate.base import PtyEnd
from devices.sink import RecordingSink
from tests.devices.helpers import read_from, wait_until  # noqa: F401  (re-exported for tests)


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
