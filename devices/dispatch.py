"""What the bridge does with a device's game events: the live rounds' entry points (floor.rounds).

The rounds service applies the game's host rules itself (results after "no more bets", misreads,
misdeals, the shoe's result compared with the host's); from the readers' own host-rule outcomes
only what the rounds cannot see in the events is passed on: a lost line and a failed launch.
Each call runs in the bridge's session for that event; a settlement follows in its own transaction
after the event's commit, so a crash in between leaves a round at "result" for recovery.
"""
from __future__ import annotations

import threading
from datetime import datetime
from typing import Callable

from sqlalchemy.orm import Session

from devices.scanner import CardRead, PlayerCardRead
from devices.shoe import CardDealt, CardDrawn, CoupStart, CutCard, ShoeError, ShoeResult
from devices.wheel import WheelStatus, WinningNumber
from devices.wheel_rules import Hold
from floor import rounds
from floor.pit import visits
from floor.errors import InvalidState
from floor.settings import HouseSettings

SHOE_ERRORS = {1: "unreadable card", 2: "overdraw", 3: "button misuse", 4: "card pulled back",
               5: "card pulled back", 6: "bad card code", 7: "draw timeout"}


class RoundsDispatch:
    def __init__(self, session_factory: Callable[[], Session], house: HouseSettings) -> None:
        self.session_factory = session_factory
        self.house = house
        self._spin: dict[str, int] = {}     # last spin number each wheel reported
        self._chunk: dict[str, bytes] = {}  # the chunk being decoded, per device
        self._lock = threading.Lock()

    def chunk(self, device: str, data: bytes) -> None:
        """The bytes the next events came in: filed with the first of them, as received."""
        with self._lock:
            self._chunk[device] = bytes(data)

    def _raw(self, device: str) -> bytes:
        """The chunk for the first event decoded from it, then b"": every event gets its own
        timeline row, and the bytes as received are filed once."""
        with self._lock:
            return self._chunk.pop(device, b"")

    def event(self, session: Session, table_id: int, device: str, kind: str, event, at: datetime):
        raw = self._raw(device)
        common = {"raw": raw, "device": device}
        if isinstance(event, WheelStatus):
            self._spin[device] = event.spin
            out = rounds.wheel_status(session, table_id, event.state, event.spin, event.flags, at,
                                      winning=event.winning, rpm=event.rpm, direction=event.direction,
                                      house=self.house, **common)
        elif isinstance(event, WinningNumber):
            out = rounds.wheel_number(session, table_id, self._spin.get(device), event.number, at, **common)
        elif isinstance(event, CardDealt):
            out = rounds.card(session, table_id, event.card, "shoe", event.target, at, index=event.index,
                              house=self.house, **common)
        elif isinstance(event, CardDrawn):
            out = rounds.card(session, table_id, event.card, "shoe", "burn", at, house=self.house, **common)
        elif isinstance(event, CardRead):
            out = rounds.card(session, table_id, event.card, "scanner", None, at, house=self.house, **common)
        elif isinstance(event, PlayerCardRead):
            rounds.device_frame(session, table_id, device, raw, "player card", at)
            visits.card_read(session, table_id, event.card_number, at)
            return None
        elif isinstance(event, ShoeResult):
            out = rounds.shoe_result(session, table_id, event.winner, event.player_pair, event.banker_pair, at, **common)
        elif isinstance(event, CoupStart):
            out = rounds.coup_start(session, table_id, at, **common)
        elif isinstance(event, CutCard):
            out = rounds.cut_card(session, table_id, at, **common)
        elif isinstance(event, ShoeError):
            out = rounds.device_fault(session, table_id, f"shoe error {event.code}: "
                                      f"{SHOE_ERRORS.get(event.code, 'unknown')}", at, **common)
        else:
            rounds.device_frame(session, table_id, device, raw, type(event).__name__, at)
            return None
        return self._after(out)

    def outcome(self, session: Session, table_id: int, device: str, kind: str, outcome, at: datetime):
        if isinstance(outcome, Hold) and outcome.reason in ("lost", "failed_launch"):
            what = "wheel lost (no status line mid-round)" if outcome.reason == "lost" else "failed launch over 3 s"
            return self._after(rounds.device_fault(session, table_id, what, at, device=device))
        return None

    def _after(self, out):
        """Settle in a new transaction once the event's own has committed (the bridge calls this)."""
        if out is None or not out.settle:
            return None
        round_id = out.settle

        def settle() -> None:
            with self.session_factory() as s:
                try:
                    rounds.settle(s, round_id, house=self.house)
                except InvalidState:
                    return   # held or voided meanwhile: the pit boss decides, nothing to pay here
                s.commit()
        return settle
