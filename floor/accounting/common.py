"""What every step of the table's money checks: who may sign it, and the table it is for."""
from __future__ import annotations

from datetime import date, datetime

from sqlalchemy.orm import Session

from floor.actors import Actor
from floor.errors import NotAllowed, NotFound
from floor.gaming_day import gaming_day
from floor.models import Table
from floor.settings import HouseSettings

TABLE_STAFF = ("dealer", "floor_manager", "pit_boss")   # count, request, receive, record a buy-in
SUPERVISORS = ("floor_manager", "pit_boss")             # verify a count
COUNT_ROOM = ("cashier", "pit_boss")                    # count the drop


def signer(actor: Actor, roles: tuple[str, ...]) -> int:
    """The account that signs this step: a person (never the system or a device) of one of ``roles``."""
    if actor.staff_id is None or actor.role not in roles:
        raise NotAllowed("a {role} may not sign this", code="wrong_role", role=actor.role)
    return actor.staff_id


def live_table(session: Session, table_id: int) -> Table:
    table = session.get(Table, table_id)
    if table is None or table.kind == "poker":
        raise NotFound("no table-game table {table_id}", table_id=table_id)
    return table


def day_of(at: datetime, house: HouseSettings) -> date:
    return gaming_day(at, house.timezone, house.gaming_day_rollover)
