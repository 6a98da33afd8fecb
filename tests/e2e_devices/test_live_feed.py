"""The live feed never waits for the database: what the wheel says reaches the table's room while
the table's database work is blocked, and that work then runs in the order it arrived."""
from __future__ import annotations

from sqlalchemy import select

from devices.wheel import encode_number, encode_status
from floor.models import Round
from tests.e2e_devices.conftest import wait


def _said(rig, name: str, **payload) -> bool:
    return any(ev == name and all(p.get(k) == v for k, v in payload.items()) for ev, p, _ in list(rig.feed))


def test_the_feed_arrives_while_the_tables_database_work_is_blocked(rig, pit, db_url):
    table = rig.table_id(12)
    pit.call("post", "/api/cashier/players/1/credit", {"amount": 10_000})
    end, reader = rig.line("wheel", 12, heartbeat_s=600.0)   # the test paces the wheel: silence is not the subject
    end.write(encode_status(2, 60, None))
    r = rig.wait_betting(table)
    red = pit.call("post", "/api/tables/12/bets", {"spot": "red", "amount": 1_000, "player_id": 1})["id"]

    # another transaction holds the round (PostgreSQL: its row; SQLite: the database's write lock)
    blocker = rig.engine.connect()
    tx = blocker.begin()
    try:
        if not db_url.startswith("sqlite"):
            blocker.execute(select(Round.id).where(Round.id == r.id).with_for_update())
        end.write(encode_status(3, 60, None))
        wait(lambda: _said(rig, "device.wheel.status", state=3, spin=60), what="the ball in the rim, live")
        end.write(encode_status(4, 60, None) + encode_number(19) + encode_status(5, 60, 19))
        wait(lambda: _said(rig, "device.wheel.status", state=5, spin=60, winning=19), what="the result, live")
        assert _said(rig, "device.wheel.number", number=19)
        states = [p["state"] for ev, p, _ in list(rig.feed) if ev == "device.wheel.status"]
        assert states == [2, 3, 4, 5]
    finally:
        tx.rollback()
        blocker.close()

    # the table's work, held back meanwhile, now runs in order: locked, result, settled
    r = rig.wait_status(r.id, "settled", "held", "voided")
    assert r.status == "settled", r.held_reason
    assert r.result["number"] == 19 and rig.returned(red) == 2_000
    rig.books_balance()
    rig.no_bridge_errors()
