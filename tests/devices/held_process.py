"""A device process for the tests of events handled once across crashes: one reader on a port with its
journal, the real bridge and the rounds' dispatch, whose table worker can be held on purpose until the
process is killed:

- ``before:<Event>``: the chunk that brings an event of that class is stored, and its events are not
  handled (the worker is held before the first of them);
- ``after:<Event>``: that event is handled and committed, and the worker is held before the next one;
- ``none``: nothing held.

When it holds, the process writes the file HELD_FILE so the test knows (a state, not a time). With a
REDIS_CHANNEL, its live feed goes out on the Redis message queue as the device process's does.

    python -m tests.devices.held_process DB_URL PORT JOURNAL_DIR KIND TABLE_NUMBER HOLD HELD_FILE [REDIS_CHANNEL]
"""
from __future__ import annotations

import sys
import threading
from pathlib import Path

from sqlalchemy.orm import sessionmaker

from devices import scanner, shoe, wheel
from devices.bridge import FloorBridge
from devices.config import DeviceConfig
from devices.dispatch import RoundsDispatch
from devices.reader import DeviceReader
from floor.tables import table_by_number
from tests.conftest import make_engine
from tests.floor.rounds.helpers import HOUSE

EVENTS = {"WinningNumber": wheel.WinningNumber, "CardDealt": shoe.CardDealt, "CardRead": scanner.CardRead}


class HeldBridge(FloorBridge):
    def __init__(self, *args, hold: str, held_file: str, **kw) -> None:
        super().__init__(*args, **kw)
        when, _, name = hold.partition(":")
        self.when, self.cls = when, EVENTS.get(name)
        self.held_file = Path(held_file)

    def _hold(self) -> None:
        self.held_file.write_text("held")
        threading.Event().wait()   # until killed

    def _events(self, device, events, arrived_at):
        if self.when == "before" and any(isinstance(e, self.cls) for e in events):
            self._hold()
        return super()._events(device, events, arrived_at)

    def _one(self, device, item, at, index=None):
        out = super()._one(device, item, at, *([] if index is None else [index]))
        if self.when == "after" and isinstance(item, self.cls):
            self._hold()
        return out


REDIS = "redis://127.0.0.1:6379/0"


def main(url: str, port: str, journal_dir: str, kind: str, number: int, hold: str, held_file: str,
         channel: str | None = None) -> None:
    factory = sessionmaker(bind=make_engine(url), expire_on_commit=False)
    with factory() as s:
        table_id = table_by_number(s, number).id
    name = f"{kind}-{number}"
    readers: dict[str, DeviceReader] = {}
    dispatch = RoundsDispatch(factory, HOUSE, send=lambda d, c: readers[d].send(c))
    # the lag pause off: this process is held behind its line on purpose
    emit = None
    if channel:
        from floor.web.live_queue import LiveQueue
        queue = LiveQueue(REDIS, channel, write_only=True)
        emit = lambda ev, payload, room: queue.emit(ev, payload, namespace="/live", room=room)   # noqa: E731
    bridge = HeldBridge(factory, {name: table_id}, {name: kind}, emit=emit, dispatch=dispatch, lag_limit_s=0,
                        hold=hold, held_file=held_file)
    readers[name] = DeviceReader(DeviceConfig(name=name, table=str(number), kind=kind, port=port), bridge,
                                 backoff_initial=0.02, backoff_max=0.2, journal_dir=journal_dir).start()
    threading.Event().wait()   # until killed


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6], sys.argv[7],
         *sys.argv[8:9])
