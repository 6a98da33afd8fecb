"""The capture file format (devices/capture.py): what the capture command and the pit write, and what
replay and check read."""
import io
import json
from datetime import datetime, timedelta, timezone

import pytest

from devices import capture
from devices.config import DeviceConfig
from devices.replay import replay
from devices.shoe import CardDealt, encode_card

T0 = datetime(2026, 12, 3, 5, 0, 0, 250000, tzinfo=timezone.utc)


def test_header_then_one_line_per_chunk_as_json_lines():
    f = io.StringIO()
    capture.write_header(f, "wheel", "/dev/ttyUSB0", 9600, T0)
    capture.append(f, 0.0, b"")
    capture.append(f, 0.5, b"*X;2;011;  ;0;0;0\r\n")
    lines = [json.loads(line) for line in f.getvalue().splitlines()]
    assert lines[0] == {"format": "floorman-capture", "version": 1, "kind": "wheel", "port": "/dev/ttyUSB0",
                        "baudrate": 9600, "started_at": "2026-12-03T05:00:00.250000+00:00"}
    assert lines[1] == {"t": 0.0, "hex": ""}
    assert lines[2] == {"t": 0.5, "hex": b"*X;2;011;  ;0;0;0\r\n".hex()}


def test_read_gives_back_what_was_written_with_arrival_times():
    f = io.StringIO()
    capture.write_header(f, "shoe", "socket://10.0.0.5:4001", 4800, T0)
    capture.append(f, 0.0, b"")
    capture.append(f, 1.25, bytes(range(256)))
    got = capture.read(io.StringIO(f.getvalue()))
    assert got.header == capture.Header("shoe", "socket://10.0.0.5:4001", 4800, T0)
    assert got.chunks == [(0.0, b""), (1.25, bytes(range(256)))]
    assert got.stream() == [(T0, b""), (T0 + timedelta(seconds=1.25), bytes(range(256)))]


def test_dumps_of_a_stored_stream_replays_to_the_same_events(tmp_path):
    frames = [encode_card(1, "player", 1, "3H"), encode_card(2, "banker", 1, "KS")]
    stream = [(T0, b""), (T0 + timedelta(seconds=0.1), frames[0][:3]),
              (T0 + timedelta(seconds=0.2), frames[0][3:] + frames[1])]
    path = tmp_path / "shoe.capture"
    path.write_text(capture.dumps("shoe", "/dev/ttyS1", 4800, T0, stream))
    got = capture.read(str(path))
    config = DeviceConfig(name="shoe-1", table="1", kind="shoe", port="/dev/null")
    assert got.stream() == stream
    cards = [str(e.card) for e in replay(config, got.stream()) if isinstance(e, CardDealt)]
    assert cards == ["3H", "KS"]


def test_a_last_line_cut_short_is_left_out():
    text = capture.header_line("scanner", "/dev/pts/3", 9600, T0) + capture.chunk_line(0.1, b"SA\r\n") + '{"t": 0.2, "he'
    assert capture.read(io.StringIO(text)).chunks == [(0.1, b"SA\r\n")]


@pytest.mark.parametrize("text, where", [
    ("", "empty"),
    ("hello\n", "line 1"),
    ('{"format": "other", "version": 1}\n', "line 1"),
    ('{"format": "floorman-capture", "version": 2, "kind": "wheel", "port": "x", "baudrate": 9600, '
     '"started_at": "2026-12-03T05:00:00+00:00"}\n', "version"),
    ('{"format": "floorman-capture", "version": 1, "kind": "toaster", "port": "x", "baudrate": 9600, '
     '"started_at": "2026-12-03T05:00:00+00:00"}\n', "kind"),
    (capture.header_line("wheel", "x", 9600, T0) + '{"t": 1, "hex": "zz"}\n{"t": 2, "hex": ""}\n', "line 2"),
])
def test_what_is_not_a_capture_is_refused_saying_where(text, where):
    with pytest.raises(capture.CaptureError, match=where):
        capture.read(io.StringIO(text))


def test_a_naive_start_time_is_refused_when_writing():
    with pytest.raises(ValueError):
        capture.header_line("wheel", "x", 9600, datetime(2026, 1, 1))
    with pytest.raises(ValueError):
        capture.header_line("toaster", "x", 9600, T0)
