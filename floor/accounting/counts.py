"""Tray counts: entered by one person, verified by a second (a floor manager or pit boss, another
account); an unverified count is not a count. Each count knows what the tray should hold: the
previous verified count plus the tray's chip movements in the ledger since (``tray.py``)."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Mapping

from sqlalchemy import update
from sqlalchemy.orm import Session

from floor import audit, notify
from floor.accounting.chips import parse_chips
from floor.accounting.common import SUPERVISORS, TABLE_STAFF, day_of, live_table, signer
from floor.accounting.sheet import check_closing
from floor.accounting.tray import ledger_mark
from floor.actors import Actor
from floor.errors import BadInput, InvalidState, NotAllowed, NotFound
from floor.models import CountKind, TrayCount
from floor.settings import HouseSettings


def enter_count(session: Session, actor: Actor, table_id: int, kind: str, chips: Mapping, *,
                house: HouseSettings, at: datetime | None = None) -> TrayCount:
    staff_id = signer(actor, TABLE_STAFF)
    try:
        kind = CountKind(kind)
    except ValueError:
        raise BadInput("a count is opening, closing or interim", field="kind") from None
    live_table(session, table_id)
    stored, total = parse_chips(chips, house, allow_empty=True)
    at = at or datetime.now(timezone.utc)
    count = TrayCount(table_id=table_id, kind=kind, gaming_day=day_of(at, house), chips=stored, total=total,
                      ledger_mark=ledger_mark(session), counted_by=staff_id, counted_by_name=actor.name, counted_at=at)
    session.add(count)
    session.flush()
    audit.record(session, actor, "tray.count", f"table:{table_id}",
                 after={"count": count.id, "kind": kind, "chips": stored, "total": total}, at=at)
    notify.publish(session, "table_money.changed", {"table_id": table_id, "what": "count", "id": count.id},
                   notify.table_room(table_id), "role:pit_boss", "role:floor_manager")
    return count


def verify_count(session: Session, actor: Actor, count_id: int, *, house: HouseSettings, table_id: int | None = None,
                 at: datetime | None = None) -> TrayCount:
    """A second person signs the count; never the one who counted. Verified once."""
    staff_id = signer(actor, SUPERVISORS)
    count = session.get(TrayCount, count_id)
    if count is None or (table_id is not None and count.table_id != table_id):
        raise NotFound("no count {count_id}", count_id=count_id)
    if count.counted_by == staff_id:
        raise NotAllowed("a second person verifies a count, not the one who counted it", code="own_count")
    at = at or datetime.now(timezone.utc)
    done = session.execute(update(TrayCount).where(TrayCount.id == count_id, TrayCount.verified_by.is_(None))
                           .values(verified_by=staff_id, verified_by_name=actor.name, verified_at=at)).rowcount
    if done != 1:
        raise InvalidState("this count is already verified", code="already_verified")
    session.refresh(count)
    audit.record(session, actor, "tray.verify", f"table:{count.table_id}",
                 after={"count": count.id, "kind": count.kind, "total": count.total}, at=at)
    notify.publish(session, "table_money.changed", {"table_id": count.table_id, "what": "count", "id": count.id},
                   notify.table_room(count.table_id), "role:pit_boss", "role:floor_manager")
    if count.kind == CountKind.CLOSING:
        check_closing(session, actor, count, house=house, at=at)
    return count
