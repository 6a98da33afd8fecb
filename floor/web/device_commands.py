"""Commands people give to the devices, from a view: sent through the process's command channel
(floor.runtime.commands, installed by create_app) and acknowledged, or failed with an error the
person sees (400 no such command, 409 no such device or not connected, 503 no device process)."""
from __future__ import annotations

from flask import current_app
from sqlalchemy.orm import Session

from floor import device_health
from floor.errors import Conflict
from floor.web.policy import actor


def send(command: str, *, device: str | None = None, table: int | None = None, kind: str | None = None,
         code: int | None = None) -> list[str]:
    return current_app.extensions["floor_commands"].send(command, device=device, table=table, kind=kind,
                                                         code=code, by=actor().name)


def to_table(session: Session, table_number: int, kind: str, command: str) -> list[str]:
    """A command to a table's device of ``kind`` when the floor has one there (a table without one,
    dealt by hand, needs none). Errors reach the person: nothing is recorded when the device
    did not get it (the caller has not committed yet)."""
    if not device_health.at_table(session, table_number, kind):
        return []
    try:
        return send(command, table=table_number, kind=kind)
    except Conflict as exc:
        if exc.code == "no_device":   # the device process has none there any more (an old record)
            return []
        raise
