"""Fill and credit slips: requested at the table by denomination, issued by the cage, received at
the table, each step signed by its own account; cancellable with a reason until received. The
ledger moves the chips between the cage and the tray when the slip is received, never before.

Serial numbers count every slip of the house from 1, never repeating, never skipping: a slip's
serial is taken in the transaction that writes it, under a lock (PostgreSQL: an advisory lock;
SQLite: the write lock every transaction takes first), so a rolled-back request uses none. A
cancelled slip keeps its serial.
"""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Mapping

from sqlalchemy import func, select, text, update
from sqlalchemy.orm import Session

from floor import audit, notify
from floor.accounting.chips import parse_chips
from floor.accounting.common import SUPERVISORS, TABLE_STAFF, day_of, live_table, signer
from floor.accounting.posting import post_slip
from floor.actors import Actor
from floor.errors import BadInput, InvalidState, NotAllowed, NotFound
from floor.models import ChipSlip, SlipKind, SlipState
from floor.settings import HouseSettings

_SERIAL_LOCK = 0x5C1_1D00   # the slips' serials, one writer at a time
CAGE = ("cashier",)
ROOMS = ("role:cashier", "role:pit_boss", "role:floor_manager")


def _publish(session: Session, slip: ChipSlip) -> None:
    notify.publish(session, "slip.changed", {"table_id": slip.table_id, "id": slip.id, "serial": slip.serial,
                                             "state": slip.state}, notify.table_room(slip.table_id), *ROOMS)


def _audit(session: Session, actor: Actor, slip: ChipSlip, step: str, at: datetime, **extra) -> None:
    audit.record(session, actor, f"slip.{step}", f"slip:{slip.serial}",
                 after={"kind": slip.kind, "table_id": slip.table_id, "chips": slip.chips, "total": slip.total,
                        "state": slip.state, **extra}, at=at)


def next_serial(session: Session) -> int:
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _SERIAL_LOCK})
    session.flush()
    return int(session.execute(select(func.coalesce(func.max(ChipSlip.serial), 0))).scalar_one()) + 1


def request_slip(session: Session, actor: Actor, table_id: int, kind: str, chips: Mapping, *,
                 house: HouseSettings, at: datetime | None = None) -> ChipSlip:
    staff_id = signer(actor, TABLE_STAFF)
    try:
        kind = SlipKind(kind)
    except ValueError:
        raise BadInput("a slip is a fill or a credit", field="kind") from None
    live_table(session, table_id)
    stored, total = parse_chips(chips, house)
    if total > house.max_amount_cents:
        raise BadInput("an amount is a whole number of cents from 1 to {maximum}", field="chips",
                       maximum=house.max_amount_cents)
    at = at or datetime.now(timezone.utc)
    slip = ChipSlip(serial=next_serial(session), kind=kind, state=SlipState.REQUESTED, table_id=table_id,
                    gaming_day=day_of(at, house), chips=stored, total=total, requested_by=staff_id,
                    requested_by_name=actor.name, requested_at=at)
    session.add(slip)
    session.flush()
    _audit(session, actor, slip, "request", at)
    _publish(session, slip)
    return slip


def get_slip(session: Session, serial: int, table_id: int | None = None) -> ChipSlip:
    slip = session.execute(select(ChipSlip).where(ChipSlip.serial == serial)).scalar()
    if slip is None or (table_id is not None and slip.table_id != table_id):
        raise NotFound("no slip {serial}", serial=serial)
    return slip


def _step(session: Session, slip: ChipSlip, from_states: tuple[str, ...], **values) -> None:
    """Move the slip on only if it is still where this step starts: of two taps, one goes through."""
    done = session.execute(update(ChipSlip).where(ChipSlip.id == slip.id, ChipSlip.state.in_(from_states))
                           .values(**values)).rowcount
    if done != 1:
        session.refresh(slip)
        raise InvalidState("slip {serial} is already {state}", code="slip_" + slip.state, serial=slip.serial,
                           state=slip.state)
    session.refresh(slip)


def issue_slip(session: Session, actor: Actor, serial: int, *, at: datetime | None = None) -> ChipSlip:
    """The cage signs: the chips of a fill leave the cage, or the cage takes a credit's chips on."""
    staff_id = signer(actor, CAGE)
    slip = get_slip(session, serial)
    if staff_id == slip.requested_by:
        raise NotAllowed("each step of a slip is signed by its own account", code="same_signer")
    at = at or datetime.now(timezone.utc)
    _step(session, slip, (SlipState.REQUESTED,), state=SlipState.ISSUED, issued_by=staff_id,
          issued_by_name=actor.name, issued_at=at)
    _audit(session, actor, slip, "issue", at)
    _publish(session, slip)
    return slip


def approve_slip(session: Session, actor: Actor, serial: int, *, at: datetime | None = None) -> ChipSlip:
    """A second person (a floor manager or pit boss, never the one who asked) approves a slip before
    it is received: the ledger's check wants it when the slip is above the house's two-person
    threshold. Approved once."""
    staff_id = signer(actor, SUPERVISORS)
    slip = get_slip(session, serial)
    if staff_id == slip.requested_by:
        raise NotAllowed("the two-person rule: a second, different person must approve this", code="own_request")
    at = at or datetime.now(timezone.utc)
    done = session.execute(update(ChipSlip).where(ChipSlip.id == slip.id, ChipSlip.approved_by.is_(None),
                                                  ChipSlip.state.in_((SlipState.REQUESTED, SlipState.ISSUED)))
                           .values(approved_by=staff_id, approved_by_name=actor.name)).rowcount
    if done != 1:
        session.refresh(slip)
        if slip.approved_by is not None:
            raise InvalidState("slip {serial} is already approved", code="already_approved", serial=serial)
        raise InvalidState("slip {serial} is already {state}", code="slip_" + slip.state, serial=slip.serial,
                           state=slip.state)
    session.refresh(slip)
    _audit(session, actor, slip, "approve", at)
    _publish(session, slip)
    return slip


def receive_slip(session: Session, actor: Actor, serial: int, *, table_id: int | None = None,
                 house: HouseSettings, at: datetime | None = None) -> ChipSlip:
    """The table signs that the chips arrived (a fill) or left (a credit): the ledger moves them now."""
    staff_id = signer(actor, TABLE_STAFF)
    slip = get_slip(session, serial, table_id)
    if slip.state == SlipState.REQUESTED:
        raise InvalidState("the cage has not issued slip {serial} yet", code="slip_not_issued", serial=serial)
    if staff_id == slip.issued_by:
        raise NotAllowed("each step of a slip is signed by its own account", code="same_signer")
    at = at or datetime.now(timezone.utc)
    _step(session, slip, (SlipState.ISSUED,), state=SlipState.RECEIVED, received_by=staff_id,
          received_by_name=actor.name, received_at=at)
    transfer_id = post_slip(session, actor, slip, at=at, house=house)
    session.execute(update(ChipSlip).where(ChipSlip.id == slip.id).values(transfer_id=transfer_id))
    session.refresh(slip)
    _audit(session, actor, slip, "receive", at, transfer=transfer_id)
    notify.publish(session, "table_money.changed", {"table_id": slip.table_id, "what": "slip", "id": slip.id},
                   notify.table_room(slip.table_id), "role:pit_boss", "role:floor_manager")
    _publish(session, slip)
    return slip


def cancel_slip(session: Session, actor: Actor, serial: int, reason: str, *, table_id: int | None = None,
                at: datetime | None = None) -> ChipSlip:
    """Until it is received, a slip can be cancelled, with a reason; it keeps its serial."""
    signer(actor, TABLE_STAFF + CAGE)
    reason = (reason or "").strip() if isinstance(reason, str) else ""
    if not reason:
        raise BadInput("say why", field="reason")
    slip = get_slip(session, serial, table_id)
    at = at or datetime.now(timezone.utc)
    _step(session, slip, (SlipState.REQUESTED, SlipState.ISSUED), state=SlipState.CANCELLED,
          cancelled_by=actor.staff_id, cancelled_by_name=actor.name, cancelled_at=at, cancel_reason=reason[:200])
    _audit(session, actor, slip, "cancel", at, reason=slip.cancel_reason)
    _publish(session, slip)
    return slip


def cage_queue(session: Session, limit: int = 100) -> list[ChipSlip]:
    """What the cage has to issue, and what it issued that the table has not received yet, oldest first."""
    return list(session.execute(select(ChipSlip).where(ChipSlip.state.in_((SlipState.REQUESTED, SlipState.ISSUED)))
                                .order_by(ChipSlip.serial).limit(limit)).scalars())


def table_slips(session: Session, table_id: int, limit: int = 100) -> list[ChipSlip]:
    return list(session.execute(select(ChipSlip).where(ChipSlip.table_id == table_id)
                                .order_by(ChipSlip.serial.desc()).limit(limit)).scalars())
