"""Betting judged by the line's own time, on a pty: the device process is held behind its line on
purpose (every table job of its bridge sleeps first), the wheel says "no more bets", and players go
on betting through the API. The lock counts from when its bytes arrived, not from when the round
heard of it: no bet placed after it stands, and the table's betting pauses, with its reason, while
the device process is behind."""
from __future__ import annotations

from sqlalchemy import select

from devices.wheel import encode_number, encode_status
from floor.games import roulette
from floor.models import Alert, Bet, LineLock, LinePause
from tests.e2e_devices.conftest import wait

BEHIND = {"delay_s": 1.0, "lag_limit_s": 0.5}   # each table job a second late; the house's 500 ms


def _paused(rig, table) -> bool:
    with rig.session() as s:
        return s.execute(select(LinePause.id).where(LinePause.table_id == table, LinePause.ended_at.is_(None))
                         ).first() is not None


def test_no_bet_after_no_more_bets_stands_however_far_behind_the_device_process_is(rig, pit):
    table = rig.table_id(12)
    pit.call("post", "/api/cashier/players/1/credit", {"amount": 100_000})
    end, reader = rig.line("wheel", 12, bridge_kw=BEHIND, heartbeat_s=600)   # the test writes each line itself
    end.write(encode_status(2, 11, None))
    r = rig.wait_betting(table)
    wait(lambda: not _paused(rig, table), what="the device process caught up")
    before = pit.call("post", "/api/tables/12/bets", {"spot": "straight", "numbers": [7], "amount": 1_000,
                                                       "player_id": 1})["id"]

    # the ball drops: states 3 and 4 on the line; the device process is a second or more behind
    for _ in range(3):
        end.write(encode_status(3, 11, None, rpm=21.8))
    end.write(encode_status(4, 11, None, rpm=21.8))
    with rig.session() as s:
        lock = wait(lambda: s.execute(select(LineLock).where(LineLock.table_id == table)).scalar_one_or_none()
                    or s.rollback(), what="the line's lock")
    assert lock.what == "no_more_bets" and lock.device == "wheel-12"
    # players keep betting on 7 through the API: every bet after the lock is refused
    refusals = []
    for i in range(6):
        resp = pit.client.post("/api/tables/12/bets", headers=pit.headers(),
                               json={"spot": "straight", "numbers": [7], "amount": 1_000, "player_id": 1,
                                     "idempotency_key": f"late-{i}"})
        assert resp.status_code == 409, resp.get_data(as_text=True)
        refusals.append(resp.get_json()["error"])
    # late (the line's lock), paused (the process behind), or closed once the round heard of it
    assert set(refusals) <= {"late", "betting_paused", "betting_closed"}, refusals

    end.write(encode_number(7))
    end.write(encode_status(5, 11, 7, rpm=21.8))
    r = rig.wait_status(r.id, "settled", "held", "voided")
    assert r.status == "settled" and r.result["number"] == 7
    assert [b.id for b in rig.bets(r.id)] == [before]
    assert rig.returned(before) == roulette.returned(roulette.bet("straight", [7]), 1_000, 7, roulette.DEFAULT) == 36_000
    assert rig.balance(1) == 100_000 - 1_000 + 36_000
    # the pit and the dealer were told why betting paused, and it resumed once the work caught up
    paused = rig.alerts(table, "betting_paused")
    assert paused and "behind the line of wheel-12" in paused[0].message
    assert paused[0].data["msg"]["template"].startswith("Betting paused at table {table}")
    wait(lambda: not _paused(rig, table), what="betting resumed")
    rig.books_balance()
    rig.no_bridge_errors()
