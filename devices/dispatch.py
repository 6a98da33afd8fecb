"""What the bridge does with a device's game events: the live rounds' entry points (floor.rounds).

The rounds apply the game's host rules (their engines: results after "no more bets", misspins,
misdeals, the shoe's result compared with the host's); the reader's ``Silence`` tells them a wheel
was lost mid-spin. Each call runs in the bridge's session for that event; after its commit, the
command the rounds ask of the device (a wheel's ``*R``) is written through ``send``, and a
settlement follows in its own transaction, so a crash in between leaves a round at "result" for
recovery.
"""
from __future__ import annotations

import threading
from datetime import datetime
from typing import Callable

from sqlalchemy.orm import Session

from devices.scanner import CardRead, PlayerCardRead
from devices.shoe import CardDealt, CardDrawn, CoupStart, CutCard, LockStatus, ShoeError, ShoeResult
from devices.wheel import WheelStatus, WinningNumber
from devices.events import ClockStep, Refused, Silence
from floor import alerts, rounds
from floor.rounds import hand
from floor.actors import Actor
from floor.models import AlertKind, AlertSeverity, Table
from floor.pit import visits
from floor.errors import Msg
from floor.settings import HouseSettings

SHOE_ERRORS = {1: Msg("unreadable card"), 2: Msg("overdraw"), 3: Msg("button misuse"), 4: Msg("card pulled back"),
               5: Msg("card pulled back"), 6: Msg("bad card code"), 7: Msg("draw timeout")}
# A device event by name, as words (a frame's summary, kept to show later: said in the reader's language)
EVENTS = {"WheelStatus": Msg("wheel status"), "WinningNumber": Msg("winning number"), "SelfTest": Msg("self test"),
          "CommandReply": Msg("command reply"), "CardDealt": Msg("card dealt"), "CardDrawn": Msg("card drawn"),
          "CardRepeated": Msg("card repeated"), "CutCard": Msg("cut card"), "CoupStart": Msg("coup start"),
          "Standby": Msg("standby"), "LockStatus": Msg("lock status"), "ShoeResult": Msg("shoe result"),
          "ShoeError": Msg("shoe error"), "ShoeErrorCleared": Msg("shoe error cleared"), "CardRead": Msg("card read"),
          "PlayerCardRead": Msg("player card read"), "Silence": Msg("silence"), "ClockStep": Msg("clock step")}


def event_name(event) -> str:
    name = type(event).__name__
    return EVENTS.get(name, name)


class RoundsDispatch:
    def __init__(self, session_factory: Callable[[], Session], house: HouseSettings,
                 send: Callable[[str, str], bool] | None = None) -> None:
        self.session_factory = session_factory
        self.house = house
        self.send = send   # (device, command): the readers' ``send``, set once they run
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
        if not isinstance(event, (PlayerCardRead, ClockStep)) and hand.journal(session, table_id, device, raw,
                                                                               event_name(event), at):
            return None   # the table is on entry by hand: its device's readings are kept, they drive nothing
        if isinstance(event, WheelStatus):
            self._spin[device] = event.spin
            out = rounds.wheel_status(session, table_id, event.state, event.spin, event.flag_names, at,
                                      winning=event.winning, rpm=event.rpm, direction=event.direction,
                                      house=self.house, **common)
        elif isinstance(event, WinningNumber):
            out = rounds.wheel_number(session, table_id, self._spin.get(device), event.number, at,
                                      alone=event.alone, direction=event.direction, **common)
        elif isinstance(event, CardDealt):
            out = rounds.card(session, table_id, event.card, "shoe", event.target, at, index=event.index,
                              house=self.house, **common)
        elif isinstance(event, CardDrawn):
            out = rounds.card(session, table_id, event.card, "shoe", "burn", at, house=self.house, **common)
        elif isinstance(event, CardRead):
            out = rounds.card(session, table_id, event.card, "scanner", None, at, house=self.house, **common)
        elif isinstance(event, PlayerCardRead):
            rounds.device_frame(session, table_id, device, raw, EVENTS["PlayerCardRead"], at)
            visits.card_read(session, table_id, event.card_number, at)
            return None
        elif isinstance(event, ShoeResult):
            out = rounds.shoe_result(session, table_id, event.winner, event.player_pair, event.banker_pair, at, **common)
        elif isinstance(event, CoupStart):
            out = rounds.coup_start(session, table_id, at, house=self.house, **common)
        elif isinstance(event, CutCard):
            out = rounds.cut_card(session, table_id, at, **common)
        elif isinstance(event, LockStatus):
            out = rounds.shoe_lock(session, table_id, event.locked, at, **common)
        elif isinstance(event, Refused):
            out = rounds.refused_frame(session, table_id, event.reason, at, raw=event.raw, device=device)
        elif isinstance(event, ClockStep):
            table = session.get(Table, table_id)
            alerts.raise_alert(session, Actor.device(device, table_id), AlertKind.CLOCK_STEP,
                               Msg("The clock of the host reading {device} (table {table}) jumped {seconds} s: "
                                   "the line's times and deadlines keep to its steady clock",
                                   device=device, table=table.number if table else table_id, seconds=event.seconds),
                               severity=AlertSeverity.WARNING, table_id=table_id,
                               data={"device": device, "seconds": event.seconds}, at=at)
            return None
        elif isinstance(event, Silence):
            if kind != "wheel":
                return None   # a silent shoe or scanner is the device's health, not the round's
            out = rounds.device_fault(session, table_id, Msg("wheel lost (no status line for {seconds} s mid-round)", seconds=event.seconds),
                                      at, device=device)
        elif isinstance(event, ShoeError):
            out = rounds.device_fault(session, table_id, Msg("shoe error {code}: {error}", code=event.code, error=SHOE_ERRORS.get(event.code, Msg("unknown"))), at, **common)
        else:
            rounds.device_frame(session, table_id, device, raw, event_name(event), at)
            return None
        return self._after(out, device)

    def _after(self, out, device: str):
        """After the event's own transaction has committed (the bridge calls this): the command the
        rounds ask of the device, then the settlement in a new transaction."""
        if out is None or not (out.settle or out.command):
            return None

        def follow_up() -> None:
            if out.command and self.send is not None:
                self.send(device, out.command)
            if out.settle:
                with self.session_factory() as s:   # held or voided meanwhile: the pit boss decides
                    rounds.commit_then_settle(s, out, house=self.house)
        return follow_up
