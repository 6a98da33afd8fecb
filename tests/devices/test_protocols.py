"""A device's line format is named in its configuration (``protocol``): a name the floor knows or the
dotted path of a decoder class. It is resolved and checked when the configuration is loaded, and a
wrong one is refused with a message that says what is wrong, before any port is opened."""
from __future__ import annotations

import subprocess
import sys

import pytest

from devices import protocols
from devices.config import DeviceConfig, load
from devices.reader import DeviceReader
from devices.replay import replay
from devices.scanner import ScannerDecoder
from devices.shoe import ShoeDecoder
from devices.sink import RecordingSink
from devices.wheel import WheelDecoder, WinningNumber
from devices.wheel_number import NumberWheelDecoder
from tests.devices.adapter_example import WinLineDecoder
from tests.servers import ROOT

WHEEL = {"name": "wheel-12", "table": "12", "kind": "wheel", "port": "loop://"}


def test_each_kind_has_its_own_protocol_by_default():
    wheel = DeviceConfig.from_dict(WHEEL)
    assert (wheel.protocol, wheel.decoder) == ("wheel-v1", WheelDecoder)
    shoe = DeviceConfig.from_dict({"name": "s", "table": "10", "kind": "shoe", "port": "loop://",
                                   "bcc_includes_start": True})
    assert (shoe.protocol, shoe.decoder) == ("shoe-v1", ShoeDecoder)
    assert protocols.new_decoder(shoe).bcc_includes_start   # the shoe's line settings still reach its decoder
    scanner = DeviceConfig.from_dict({"name": "c", "table": "14", "kind": "scanner", "port": "loop://",
                                      "prefix": "]C", "duplicate_window_s": 0.5})
    assert (scanner.protocol, scanner.decoder) == ("scanner-v1", ScannerDecoder)
    made = protocols.new_decoder(scanner)
    assert (made.prefix, made.window) == (b"]C", 0.5)


def test_a_protocol_by_name():
    cfg = DeviceConfig.from_dict({**WHEEL, "protocol": "wheel-number-v1", "repeat_window_s": 2})
    assert cfg.decoder is NumberWheelDecoder
    decoder = protocols.new_decoder(cfg)
    assert isinstance(decoder, NumberWheelDecoder) and decoder.window == 2.0
    # such a wheel sends no heartbeat: the reader has nothing to watch for
    assert cfg.heartbeat_s is None
    assert DeviceConfig.from_dict({**WHEEL, "protocol": "wheel-v1"}).heartbeat_s == 2.0


def test_a_protocol_by_dotted_path_from_outside_the_devices_package():
    cfg = DeviceConfig.from_dict({**WHEEL, "protocol": "tests.devices.adapter_example.WinLineDecoder"})
    assert cfg.decoder is WinLineDecoder
    # the reader and the replay build it like any other: the same events, whatever the line format
    reader = DeviceReader(cfg, RecordingSink())
    assert isinstance(reader.decoder, WinLineDecoder)
    from datetime import datetime, timezone
    at = datetime.now(timezone.utc)
    assert replay(cfg, [(at, b"WIN 1"), (at, b"7\r\nWIN 99\r\n")])[0] == WinningNumber(17, alone=True)
    # a known protocol may be named by its class's path too
    by_path = DeviceConfig.from_dict({**WHEEL, "protocol": "devices.wheel_number.NumberWheelDecoder"})
    assert by_path.decoder is NumberWheelDecoder and by_path.heartbeat_s is None


@pytest.mark.parametrize("protocol, says", [
    ("wheel-v9", "'wheel-v9' is neither a known protocol (scanner-v1, shoe-v1, wheel-number-v1, wheel-v1) "
                 "nor a dotted path"),
    ("", None),   # empty: the default, not an error
    ("nosuch.module.Decoder", "cannot import 'nosuch.module'"),
    ("devices.wheel.NoSuchDecoder", "'devices.wheel' has no class 'NoSuchDecoder'"),
    ("tests.devices.adapter_example.not_a_class", "has no class 'not_a_class'"),
    ("shoe-v1", "devices.shoe.ShoeDecoder decodes a shoe, and this device is a wheel"),
    ("tests.devices.adapter_example.NoKind", "does not say which kind of device it decodes"),
    ("tests.devices.adapter_example.NoFeed", "has no feed() method"),
    ("tests.devices.adapter_example.FailsToBuild", "the decoder could not be built (ValueError('needs a licence key'))"),
    ("tests.devices.adapter_example.Uncounted", "the decoder does not count its frames"),
    ("wheel number v1", "neither a known protocol"),
])
def test_a_wrong_protocol_is_refused_when_the_configuration_is_loaded(protocol, says):
    entry = {**WHEEL, "protocol": protocol}
    if says is None:
        assert load([entry])[0].protocol == "wheel-v1"
        return
    with pytest.raises(ValueError) as refused:
        load([entry])
    assert isinstance(refused.value, protocols.ProtocolError)
    assert str(refused.value).startswith(f"device 'wheel-12': protocol {protocol!r}")
    assert says in str(refused.value)


def test_settings_that_do_not_fit_the_protocol_are_refused():
    with pytest.raises(ValueError, match="sends no heartbeat, so heartbeat_s cannot be watched"):
        DeviceConfig.from_dict({**WHEEL, "protocol": "wheel-number-v1", "heartbeat_s": 2})
    with pytest.raises(ValueError, match="repeat_window_s is a number of seconds"):
        DeviceConfig.from_dict({**WHEEL, "protocol": "wheel-number-v1", "repeat_window_s": "long"})
    with pytest.raises(ValueError, match="protocol is a name or a dotted path"):
        DeviceConfig.from_dict({**WHEEL, "protocol": 1})


def test_the_device_process_refuses_an_unknown_protocol_before_opening_a_port(sqlite_url, tmp_path):
    """``flask floor devices`` says which device and what is wrong, and exits: nothing waits for the
    first byte to find out."""
    cfg = tmp_path / "floor.toml"
    cfg.write_text('[[devices]]\nname = "wheel-12"\ntable = 12\nkind = "wheel"\nport = "/dev/null"\n'
                   'protocol = "wheel-v9"\n')
    env = {"PATH": "/usr/bin:/bin", "FLOOR_CONFIG": str(cfg), "FLOOR_SECRET_KEY": "test",
           "FLOOR_APP_DATABASE_URL": sqlite_url, "FLOOR_APP_INSTANCE_PATH": str(tmp_path / "instance"),
           "FLOOR_APP_DEMO": "false", "FLOOR_APP_SIMULATE_DEVICES": "false", "FLOOR_APP_RUN_SCHEDULER": "false"}
    try:
        done = subprocess.run([sys.executable, "-m", "flask", "--app", "app:create_app", "floor", "devices"], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        raise AssertionError("the device process started with a protocol it does not know") from None
    assert done.returncode == 1, done.stderr[-2000:]
    assert ("devices: refusing to start: device 'wheel-12': protocol 'wheel-v9' is neither a known protocol"
            in done.stderr), done.stderr[-2000:]


def test_the_shipped_example_configuration_names_protocols_that_load():
    import tomllib
    entries = tomllib.loads((ROOT / "config" / "production.example.toml").read_text())["devices"]
    configs = load(entries)
    assert {c.name: c.protocol for c in configs} == {"wheel-12": "wheel-v1", "shoe-10": "shoe-v1",
                                                     "scanner-14": "scanner-v1"}
