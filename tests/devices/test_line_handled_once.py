"""Handled once, across crashes: a device process killed (SIGKILL) after a chunk was stored and before
the events decoded from it were handled hands them on when it starts again, and the floor handles each
of them once: the wheel's number settles its round once, a shoe's card is dealt once. The device
process runs on its own, on a real pty, its table worker held on purpose (``held_process``)."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import uuid

import pytest
import redis
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from devices import wheel
from devices.shoe import encode_card, encode_result, encode_simple
from devices.simulate.wheel import WheelSimulator
from floor import ledger, rounds
from floor.games import roulette
from floor.models import DeviceChunk, DeviceFrame, LineLock, Round
from floor.rounds import bets
from floor.tables import table_by_number
from tests.conftest import make_engine
from tests.devices.helpers import wait_until
from tests.floor.rounds.helpers import DEALER, HOUSE
from tests.money import cash_in
from tests.servers import ROOT

REDIS = "redis://127.0.0.1:6379/0"

pytestmark = pytest.mark.slow   # device processes started, held and killed


class DeviceProcess:
    """One run of the device process; ``kill`` as a power cut would (nothing cleaned up)."""

    def __init__(self, tmp_path, db_url: str, port: str, kind: str, number: int, hold: str, run: int,
                 channel: str | None = None) -> None:
        self.held_file = tmp_path / f"held-{run}"
        self.log = open(tmp_path / f"device-process-{run}.log", "wb")
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.devices.held_process", db_url, port,
                                      str(tmp_path / "journal"), kind, str(number), hold, str(self.held_file),
                                      *([channel] if channel else [])],
                                     cwd=ROOT, start_new_session=True, stdout=subprocess.DEVNULL, stderr=self.log)

    def wait_held(self) -> None:
        wait_until(lambda: self.held_file.exists() or self.proc.poll() is not None, what="the table worker held")
        assert self.proc.poll() is None, (self.held_file.parent / self.log.name).read_text()

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        self.log.close()


class LiveFeed:
    """What the device processes send to the live feed, as the web processes read it: the messages on
    the Redis message queue's channel."""

    def __init__(self) -> None:
        self.channel = f"floorman-test-{uuid.uuid4().hex}"
        self.redis = redis.Redis.from_url(REDIS)
        self.pubsub = self.redis.pubsub()
        self.pubsub.subscribe(self.channel)
        wait_until(lambda: self.pubsub.get_message(timeout=0.1), what="subscribed to the live feed")

        self.emitted: list[tuple[str, dict]] = []

    def sent(self, event: str) -> list[dict]:
        """Every ``event`` sent so far: a marker published now comes after all of them."""
        marker = uuid.uuid4().hex
        self.redis.publish(self.channel, json.dumps({"marker": marker}))
        while True:
            m = self.pubsub.get_message(timeout=30)
            assert m is not None, "the live feed's marker never came back"
            if m["type"] != "message":
                continue
            data = json.loads(m["data"])
            if data.get("marker") == marker:
                return [d for e, d in self.emitted if e == event]
            if data.get("method") == "emit":
                args = data["data"]    # the event's arguments: one payload
                self.emitted.append((data["event"], args[0] if isinstance(args, list) else args))

    def close(self) -> None:
        self.pubsub.close()
        self.redis.close()


def _frames(engine, table_id: int, prefix: str) -> list[str]:
    with Session(engine) as s:
        return list(s.execute(select(DeviceFrame.summary).where(DeviceFrame.table_id == table_id,
                                                                DeviceFrame.summary.startswith(prefix))
                              .order_by(DeviceFrame.id)).scalars())


def _stored(engine, device: str) -> bytes:
    with Session(engine) as s:
        return b"".join(s.execute(select(DeviceChunk.data).where(DeviceChunk.device == device)
                                  .order_by(DeviceChunk.arrived_at)).scalars())


@pytest.mark.parametrize("restarts", [["none"], ["after:WinningNumber", "none"]], ids=["restart", "killed-again"])
def test_a_number_stored_but_not_handled_settles_its_round_once(db_url, pty, tmp_path, restarts):
    engine = make_engine(db_url)
    with Session(engine) as s:
        table = table_by_number(s, 12).id
        cash_in(s, 1, 10_000, house=HOUSE)
        s.commit()
    runs = [DeviceProcess(tmp_path, db_url, pty.path, "wheel", 12, "before:WinningNumber", 1)]
    sim = WheelSimulator(pty, seed=3, speed=8.0, hold_in=(wheel.STATE_PLACE_BETS,)).start()
    try:
        def betting():
            with Session(engine) as s:
                r = rounds.active_round(s, table, lock=False)
                return r.id if r is not None and r.status == "betting" else None
        rid = wait_until(betting, what="betting open")
        with Session(engine) as s:
            bets.place(s, DEALER, table, spot="red", amount=1_000, player_id=1, house=HOUSE)
            bets.place(s, DEALER, table, spot="straight", numbers=[7], amount=500, player_id=1, house=HOUSE)
            s.commit()
        sim.release(wheel.STATE_PLACE_BETS)
        runs[0].wait_held()
        runs[0].kill()
        spin, number = sim.results[-1]
        # killed in the gap: the number's bytes are stored, the number is not handled
        assert wheel.encode_number(number) in _stored(engine, "wheel-12")
        assert _frames(engine, table, "number") == []
        with Session(engine) as s:
            assert s.get(Round, rid).status == "locked"

        for run, hold in enumerate(restarts, start=2):
            runs.append(DeviceProcess(tmp_path, db_url, pty.path, "wheel", 12, hold, run))
            if hold != "none":   # killed again in the middle of its replay, the number handled
                runs[-1].wait_held()
                runs[-1].kill()
                assert [f.split(" (")[0] for f in _frames(engine, table, "number")] == [f"number {number}"]

        def ended():
            with Session(engine) as s:
                r = s.get(Round, rid)
                return r if r.status in ("settled", "voided", "held") else None
        r = wait_until(ended, what="the round ended")
    finally:
        for p in runs:
            p.kill()
        sim.stop()
    assert r.status == "settled", r.held_reason
    assert (r.spin, r.result["number"]) == (spin, number)
    # the number handled once: one frame of it, the bets paid once
    assert len(_frames(engine, table, "number")) == 1
    back = (roulette.returned(roulette.bet("red"), 1_000, number, roulette.DEFAULT)
            + roulette.returned(roulette.bet("straight", [7]), 500, number, roulette.DEFAULT))
    with Session(engine) as s:
        assert ledger.player_balance(s, 1) == 10_000 - 1_500 + back
        assert ledger.check(s).ok
        # the line's locks of the replayed chunks kept their own arrival times, once each
        locks = s.execute(select(LineLock.arrived_at, LineLock.what, func.count())
                          .where(LineLock.table_id == table)
                          .group_by(LineLock.arrived_at, LineLock.what)).all()
        assert locks and all(n == 1 for _, _, n in locks)
    engine.dispose()


# a coup the banker wins on a natural 9: player 2C 4D (6), banker 4H 5S (9); the shoe deals P1 B1 P2 B2
COUP = [("player", 1, "2C"), ("banker", 1, "4H"), ("player", 2, "4D"), ("banker", 2, "5S")]


def test_a_card_stored_but_not_handled_is_dealt_once_across_two_kills(db_url, pty, tmp_path):
    from devices import journal
    from floor.models import Settlement
    from tests.floor.rounds.helpers import fund
    engine = make_engine(db_url)
    with Session(engine) as s:
        table = table_by_number(s, 10).id
        rounds.new_shoe(s, DEALER, table, house=HOUSE)
        s.commit()
        fund(s, 5, 20_000)
        rid = rounds.open_betting(s, DEALER, table, house=HOUSE).id
        s.commit()
        bets.place(s, DEALER, table, spot="banker", amount=2_000, player_id=5, house=HOUSE)
        s.commit()
    frames = [encode_card(seq, target, index, card) for seq, (target, index, card) in enumerate(COUP, start=1)]
    rest = b"".join(frames[1:]) + encode_result(5, "banker")
    path = tmp_path / "journal" / "shoe-10.journal"
    feed = LiveFeed()
    runs = [DeviceProcess(tmp_path, db_url, pty.path, "shoe", 10, "before:CardDealt", 1, feed.channel)]
    try:
        wait_until(lambda: journal.read(path), what="the device process's port open")
        pty.write(encode_simple(0, "S") + frames[0])
        runs[0].wait_held()              # the first card's chunk stored, its card not dealt
        pty.write(rest)                  # the dealer goes on: read and journaled, not stored yet
        wait_until(lambda: rest in b"".join(d for _, d in journal.read(path)), what="the rest in the journal")
        wait_until(lambda: len(feed.sent("device.card")) == len(COUP), what="the cards on the live feed")
        runs[0].kill()
        assert frames[0] in _stored(engine, "shoe-10")
        assert _frames(engine, table, "card") == []

        # started again and killed once more, its replay one card in
        # the dealer's terminal saw each card once, live, as the first process read it
        assert [c["card"] for c in feed.sent("device.card")] == [c for _, _, c in COUP]
        runs.append(DeviceProcess(tmp_path, db_url, pty.path, "shoe", 10, "after:CardDealt", 2, feed.channel))
        runs[-1].wait_held()
        runs[-1].kill()
        assert _frames(engine, table, "card") == ["card 2C from shoe to player1"]

        runs.append(DeviceProcess(tmp_path, db_url, pty.path, "shoe", 10, "none", 3, feed.channel))

        def ended():
            with Session(engine) as s:
                r = s.get(Round, rid)
                return r if r.status in ("settled", "voided", "held") else None
        r = wait_until(ended, what="the coup ended")
    finally:
        for p in runs:
            p.kill()
    assert r.status == "settled", r.held_reason
    # the two replays sent no card to the table's live feed a second time
    sent = feed.sent("device.card")
    feed.close()
    assert [(c["card"], c["table_id"]) for c in sent] == [(c, table) for _, _, c in COUP]
    # each card dealt once, in the shoe's order: the coup the shoe dealt, paid once
    assert r.result["cards"] == [c for _, _, c in COUP] and r.result["winner"] == "banker"
    assert _frames(engine, table, "card") == [f"card {c} from shoe to {t}{i}" for t, i, c in COUP]
    with Session(engine) as s:
        assert s.execute(select(func.count()).select_from(Settlement).where(Settlement.round_id == rid)).scalar() == 1
        assert ledger.player_balance(s, 5) == 20_000 - 2_000 + 3_900   # 1:1 less the 5 % commission
        assert ledger.check(s).ok
    engine.dispose()
