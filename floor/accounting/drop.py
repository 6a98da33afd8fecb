"""The drop: each buy-in as the dealer records it when the chips go out, and the drop box of each
table and gaming day counted in the count room by two people."""
from __future__ import annotations

from datetime import date, datetime, timezone

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from floor import audit, ledger, notify
from floor.accounting.common import COUNT_ROOM, TABLE_STAFF, day_of, live_table, signer
from floor.accounting.posting import post_chips_sold
from floor.actors import Actor
from floor.errors import BadInput, Conflict, InvalidState, NotAllowed, NotFound
from floor.models import BuyIn, BuyInMethod, DropCount, Player
from floor.settings import HouseSettings


def _changed(session: Session, table_id: int, what: str, row_id: int) -> None:
    notify.publish(session, "table_money.changed", {"table_id": table_id, "what": what, "id": row_id},
                   notify.table_room(table_id), "role:pit_boss", "role:floor_manager")


def record_buy_in(session: Session, actor: Actor, table_id: int, amount: int, method: str = "cash", *,
                  seat: int | None = None, player_id: int | None = None, house: HouseSettings,
                  at: datetime | None = None) -> BuyIn:
    staff_id = signer(actor, TABLE_STAFF)
    table = live_table(session, table_id)
    amount = ledger.amount(amount, house)
    try:
        method = BuyInMethod(method)
    except ValueError:
        raise BadInput("a buy-in is paid in cash or with a marker", field="method") from None
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= table.seat_count):
        raise BadInput("seat {seat} is not a seat of this table", field="seat", seat=seat)
    if player_id is not None and (isinstance(player_id, bool) or not isinstance(player_id, int)
                                  or session.get(Player, player_id) is None):
        raise NotFound("no player {player_id}", player_id=player_id)
    at = at or datetime.now(timezone.utc)
    row = BuyIn(table_id=table_id, gaming_day=day_of(at, house), method=method, amount=amount, seat=seat,
                player_id=player_id, recorded_by=staff_id, recorded_by_name=actor.name, at=at)
    session.add(row)
    session.flush()
    row.transfer_id = post_chips_sold(session, actor, table_id, amount, row.id, at=at, house=house)
    session.flush()
    audit.record(session, actor, "drop.buy_in", f"table:{table_id}",
                 after={"buy_in": row.id, "method": method, "amount": amount, "seat": seat, "player_id": player_id},
                 at=at)
    _changed(session, table_id, "buy_in", row.id)
    return row


def enter_drop_count(session: Session, actor: Actor, table_id: int, day: date, total: int, *,
                     house: HouseSettings, at: datetime | None = None) -> DropCount:
    """The count room's total for one table's drop box and gaming day (0 when the box was empty)."""
    staff_id = signer(actor, COUNT_ROOM)
    live_table(session, table_id)
    if isinstance(total, bool) or not isinstance(total, int) or not 0 <= total <= house.max_amount_cents:
        raise BadInput("an amount is a whole number of cents from 0 to {maximum}", field="total",
                       maximum=house.max_amount_cents)
    if not isinstance(day, date):
        raise BadInput("a gaming day is a date", field="day")
    at = at or datetime.now(timezone.utc)
    row = DropCount(table_id=table_id, gaming_day=day, total=total, counted_by=staff_id, counted_by_name=actor.name,
                    counted_at=at)
    try:
        with session.begin_nested():
            session.add(row)
            session.flush()
    except IntegrityError:
        raise Conflict("the drop of this table and day is already counted", code="drop_counted") from None
    audit.record(session, actor, "drop.count", f"table:{table_id}",
                 after={"drop_count": row.id, "day": day.isoformat(), "total": total}, at=at)
    _changed(session, table_id, "drop", row.id)
    return row


def verify_drop_count(session: Session, actor: Actor, drop_id: int, *, at: datetime | None = None) -> DropCount:
    staff_id = signer(actor, COUNT_ROOM)
    row = session.get(DropCount, drop_id)
    if row is None:
        raise NotFound("no drop count {drop_id}", drop_id=drop_id)
    if row.counted_by == staff_id:
        raise NotAllowed("a second person verifies a count, not the one who counted it", code="own_count")
    at = at or datetime.now(timezone.utc)
    done = session.execute(update(DropCount).where(DropCount.id == drop_id, DropCount.verified_by.is_(None))
                           .values(verified_by=staff_id, verified_by_name=actor.name, verified_at=at)).rowcount
    if done != 1:
        raise InvalidState("this count is already verified", code="already_verified")
    session.refresh(row)
    audit.record(session, actor, "drop.verify", f"table:{row.table_id}",
                 after={"drop_count": row.id, "day": row.gaming_day.isoformat(), "total": row.total}, at=at)
    _changed(session, row.table_id, "drop", row.id)
    return row


def buy_ins(session: Session, table_id: int, day: date) -> list[BuyIn]:
    return list(session.execute(select(BuyIn).where(BuyIn.table_id == table_id, BuyIn.gaming_day == day)
                                .order_by(BuyIn.id)).scalars())


def drop_count(session: Session, table_id: int, day: date) -> DropCount | None:
    return session.execute(select(DropCount).where(DropCount.table_id == table_id, DropCount.gaming_day == day)).scalar()
