import pytest

from devices.config import DeviceConfig, load
from devices.sink import DeviceHealth, RecordingSink, Sink


def test_from_dict_with_defaults_per_kind():
    wheel = DeviceConfig.from_dict({"name": "w1", "table": "R1", "kind": "wheel", "port": "/dev/ttyUSB0"})
    assert wheel.baudrate == 9600 and wheel.heartbeat_s == 2.0
    shoe = DeviceConfig.from_dict({"name": "s1", "table": "B1", "kind": "shoe", "port": "socket://10.0.0.5:4001",
                                   "bcc_includes_start": True, "decks": 6})
    assert shoe.baudrate == 4800 and shoe.bcc_includes_start and shoe.heartbeat_s is None
    assert shoe.options == {"decks": 6}
    scanner = DeviceConfig.from_dict({"name": "c1", "table": "BJ1", "kind": "scanner", "port": "loop://",
                                      "baudrate": "19200", "prefix": "\x02", "heartbeat_s": 30})
    assert scanner.baudrate == 19200 and scanner.prefix == b"\x02" and scanner.heartbeat_s == 30.0


@pytest.mark.parametrize("entry", [
    {"name": "x", "table": "T", "kind": "printer", "port": "loop://"},
    {"name": "x", "table": "T", "kind": "wheel"},
])
def test_bad_entries_are_refused(entry):
    with pytest.raises(ValueError):
        DeviceConfig.from_dict(entry)


def test_names_are_unique():
    entry = {"name": "x", "table": "T", "kind": "wheel", "port": "loop://"}
    with pytest.raises(ValueError):
        load([entry, entry])


def test_recording_sink_is_a_sink_and_health_counts_errors():
    assert isinstance(RecordingSink(), Sink)
    h = DeviceHealth("w1", "R1", "wheel", "loop://", frame_errors=2, io_errors=1, sink_errors=3)
    assert h.errors == 6 and h.last_frame_age(None) is None
