"""Commands a person gives a device, in the process that owns the ports (the embedded default): the
same API as through Redis, acknowledged when written to the port, refused with a reason otherwise.
(tests/production runs them across processes.)"""
from __future__ import annotations

from sqlalchemy import func, select

from devices.simulate.shoe import ShoeSimulator
from floor.models import AuditRecord, Shoe
from tests.e2e_devices.conftest import Rig, Terminal, wait


def _shoes(rig) -> int:
    with rig.session() as s:
        return s.execute(select(func.count(Shoe.id)).where(Shoe.table_id == rig.table_id(10))).scalar_one()


def test_a_pit_boss_command_reaches_the_device_and_is_audited(app, db_url, tmp_path):
    rig = Rig(app, db_url, tmp_path)
    try:
        sim, reader = rig.attach(ShoeSimulator, "shoe", 10, paced=True, speed=8)
        pit = Terminal(app.test_client())
        pit("pitboss")
        out = pit.call("post", "/api/devices/shoe-10/commands", {"command": "unlock"})
        assert out == {"device": "shoe-10", "command": "unlock", "sent": ["shoe-10"]}
        wait(lambda: "LK01" in sim.commands, 10, "LK 01 at the shoe")
        pit.call("post", "/api/devices/shoe-10/commands", {"command": "clear_error", "code": 4})
        wait(lambda: "EC04" in sim.commands, 10, "EC 04 at the shoe")
        with rig.session() as s:
            records = s.execute(select(AuditRecord.subject, AuditRecord.role)
                                .where(AuditRecord.action == "device.command")).all()
        assert records == [("device:shoe-10", "pit_boss")] * 2

        bad = pit.client.post("/api/devices/shoe-10/commands", json={"command": "reset"}, headers=pit.headers())
        assert bad.status_code == 400 and bad.get_json()["field"] == "command"
        assert "shoe has no command 'reset'" in bad.get_json()["message"]
        missing = pit.client.post("/api/devices/wheel-99/commands", json={"command": "reset"}, headers=pit.headers())
        assert missing.status_code == 404
        dealer = Terminal(app.test_client())
        dealer.dealer(10)
        refused = dealer.client.post("/api/devices/shoe-10/commands", json={"command": "unlock"},
                                     headers=dealer.headers())
        assert refused.status_code == 403

        # unplugged: the dealer confirming a new shoe is told, and nothing is recorded
        shoes = _shoes(rig)
        rig.ends[0].unplug()
        wait(lambda: not reader.health().connected, 10, "the reader to see the unplug")
        resp = dealer.client.post("/api/tables/10/shoe", json={}, headers=dealer.headers())
        assert resp.status_code == 409 and resp.get_json()["error"] == "device_not_connected"
        assert _shoes(rig) == shoes
        rig.ends[0].replug()
        wait(lambda: reader.health().connected, 10, "the reader back")
        dealer.call("post", "/api/tables/10/shoe", {})
        wait(lambda: "GP00" in sim.commands, 10, "GP 00 at the shoe")
        assert _shoes(rig) == shoes + 1

        # no process owns the devices (and no message queue to reach one): 503, nothing recorded
        app.extensions.pop("floor_devices")
        resp = dealer.client.post("/api/tables/10/shoe", json={}, headers=dealer.headers())
        assert resp.status_code == 503 and resp.get_json()["error"] == "no_device_process", resp.get_data(True)
        assert _shoes(rig) == shoes + 1
    finally:
        rig.close()


def test_a_table_without_a_shoe_device_confirms_its_shoe_without_one(app, login):
    """A baccarat table dealt by hand: nothing to tell, nothing refused."""
    login.dealer(10)
    resp = login.post("/api/tables/10/shoe", json={})
    assert resp.status_code == 201, resp.get_data(as_text=True)
    assert resp.get_json()["shoe"]["number"] == 1
