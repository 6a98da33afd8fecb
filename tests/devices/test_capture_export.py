"""The pit exports a device's stored raw stream as a capture file: what the real reader stored through
the real bridge comes back as a file that replays, on a pty through a reader, to the very events the
reader produced live. Pit bosses and admins only; every export audited."""
from datetime import datetime, timedelta, timezone
from io import StringIO

import pytest
from sqlalchemy import select
from sqlalchemy.orm import sessionmaker

from devices import capture as cap
from devices.bridge import FloorBridge
from devices.config import DeviceConfig
from devices.listen import PtyTarget, replay_capture
from devices.reader import DeviceReader
from devices.shoe import CardDealt, Reply, ShoeResult
from devices.simulate import ShoeSimulator
from devices.sink import RecordingSink
from floor.models import AuditRecord
from floor.tables import table_by_number
from tests.devices.helpers import wait_until

pytestmark = pytest.mark.slow   # a simulated shoe through the real reader and bridge


class Both:
    """The bridge stores; the recording keeps what the reader produced live, to compare."""

    def __init__(self, *sinks):
        self.sinks = sinks

    def raw(self, *a):
        for s in self.sinks:
            s.raw(*a)

    def events(self, *a):
        for s in self.sinks:
            s.events(*a)

    def health(self, *a):
        for s in self.sinks:
            s.health(*a)


def _live(sink, name):
    return [e for e in sink.events_of(name) if not isinstance(e, Reply)]


@pytest.fixture
def stored_shoe(app, pty):
    """A shoe that dealt two coups, its bytes stored by the bridge; (live events, start, end)."""
    from floor.web.extensions import db
    with app.app_context():
        factory = sessionmaker(bind=db.engine, expire_on_commit=False)
        with factory() as s:
            table = table_by_number(s, 1).id
        recording = RecordingSink()
        bridge = FloorBridge(factory, {"shoe-1": table}, {"shoe-1": "shoe"})
        start = datetime.now(timezone.utc)
        reader = DeviceReader(DeviceConfig(name="shoe-1", table="1", kind="shoe", port=pty.path),
                              Both(bridge, recording), backoff_initial=0.02).start()
        sim = ShoeSimulator(pty, seed=5, speed=20).start()
        try:
            wait_until(lambda: len(recording.events_of("shoe-1", ShoeResult)) >= 2, what="two coups")
        finally:
            sim.stop()
            reader.stop()
            bridge.drain(30)
            bridge.close()
        yield _live(recording, "shoe-1"), start, datetime.now(timezone.utc)


def _export(login, start, end, user="pitboss", **extra):
    if user == "dealer":
        login.dealer(1)   # a dealer signs in at the table terminal
    else:
        login(user)
    args = {"from": start.isoformat(), "to": end.isoformat(), **extra}
    return login.client.get("/api/devices/shoe-1/capture", query_string=args)


def test_the_exported_capture_replays_to_the_events_the_reader_had(stored_shoe, login, make_reader, sink, tmp_path):
    live, start, end = stored_shoe
    resp = _export(login, start - timedelta(seconds=1), end + timedelta(seconds=1))
    assert resp.status_code == 200, resp.get_data(as_text=True)
    assert resp.mimetype == "application/x-ndjson"
    assert 'filename="shoe-1-' in resp.headers["Content-Disposition"]
    recording = cap.read(StringIO(resp.get_data(as_text=True)))
    assert recording.header.kind == "shoe" and recording.header.baudrate == 4800
    assert recording.chunks[0] == (0.0, b"")   # the port's opening, as stored

    target = PtyTarget(str(tmp_path / "bench-shoe"))
    try:
        reader = make_reader("shoe", target.path, wait_connected=False)
        replay_capture(recording, target, speed=10)
    finally:
        target.close()
    wait_until(lambda: len(_live(sink, reader.name)) >= len(live), what="every event replayed")
    assert _live(sink, reader.name) == live
    assert len([e for e in live if isinstance(e, CardDealt)]) >= 8


def test_a_range_before_the_shoe_spoke_is_an_empty_capture(stored_shoe, login):
    _, start, _ = stored_shoe
    resp = _export(login, start - timedelta(hours=2), start - timedelta(hours=1), user="admin")
    assert resp.status_code == 200
    assert cap.read(StringIO(resp.get_data(as_text=True))).chunks == []


@pytest.mark.parametrize("user", ["manager", "dealer", "cashier"])
def test_only_a_pit_boss_or_an_admin_exports(stored_shoe, login, user):
    _, start, end = stored_shoe
    resp = _export(login, start, end, user=user)
    # a dealer's table terminal session reaches nothing beyond its table (401); the others are refused (403)
    assert resp.status_code == (401 if user == "dealer" else 403)
    assert "floorman-capture" not in resp.get_data(as_text=True)


def test_bad_ranges_are_clear_errors_and_every_export_is_audited(stored_shoe, login, app):
    _, start, end = stored_shoe
    login("pitboss")
    get = login.client.get
    assert get("/api/devices/shoe-1/capture", query_string={"from": "yesterday"}).status_code == 400
    assert get("/api/devices/shoe-1/capture", query_string={"from": end.isoformat(),
                                                           "to": start.isoformat()}).status_code == 400
    too_long = {"from": (end - timedelta(hours=25)).isoformat(), "to": end.isoformat()}
    assert "24 hours" in get("/api/devices/shoe-1/capture", query_string=too_long).get_json()["message"]
    assert get("/api/devices/no-such/capture").status_code == 404
    assert get("/api/devices/shoe-1/capture", query_string={"from": start.isoformat()}).status_code == 200
    from floor.web.extensions import db
    with app.app_context():
        entries = db.session.execute(select(AuditRecord).where(AuditRecord.action == "device.capture_export")).scalars().all()
    assert [e.subject for e in entries] == ["device:shoe-1"]
