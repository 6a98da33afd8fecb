"""The one place the table's chips move in the ledger: a fill, a credit, chips sold for a buy-in.

Every movement passes the ledger's one check (``ledger.authorize``) like any other money, and the
books still sum to zero. A fill or credit is ``table_slip`` money: above the house's
``slip_two_person_cents`` (counted per person and gaming day by the check) it needs its second
person, the floor manager or pit boss who approved the slip (never the one who asked for it nor the
one receiving it). Chips sold for a buy-in are ``table_chips``. Returns the transfer's id, kept on
the slip or the buy-in.
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from floor import ledger
from floor.actors import Actor
from floor.models import ChipSlip, SlipKind, Staff, Transfer, TransferKind
from floor.settings import HouseSettings


def _post(session: Session, frm: int, to: int, amount: int, kind: TransferKind, *, at: datetime, memo: str,
          grant) -> int:
    ledger.transfer(session, frm, to, amount, kind, at=at, memo=memo, grant=grant)
    return int(session.execute(select(func.max(Transfer.id)).where(
        Transfer.from_account_id == frm, Transfer.to_account_id == to, Transfer.memo == memo)).scalar_one())


def _approver(session: Session, slip: ChipSlip) -> Actor | None:
    if slip.approved_by is None:
        return None
    staff = session.get(Staff, slip.approved_by)
    return Actor(staff.name, staff.role, "slip-approval", staff.id)


def post_slip(session: Session, actor: Actor, slip: ChipSlip, *, at: datetime, house: HouseSettings) -> int:
    """A received fill (cage -> tray) or credit (tray -> cage)."""
    grant = ledger.authorize(session, actor, ledger.Purpose.TABLE_SLIP, slip.total, house=house, at=at,
                             approval=_approver(session, slip), requested_by=slip.requested_by)
    cage, tray = ledger.cage_account(session), ledger.table_account(session, slip.table_id, "tray")
    if slip.kind == SlipKind.FILL:
        return _post(session, cage, tray, slip.total, TransferKind.FILL, at=at, memo=f"fill slip {slip.serial}",
                     grant=grant)
    return _post(session, tray, cage, slip.total, TransferKind.TABLE_CREDIT, at=at,
                 memo=f"credit slip {slip.serial}", grant=grant)


def post_chips_sold(session: Session, actor: Actor, table_id: int, amount: int, buy_in_id: int, *,
                    at: datetime, house: HouseSettings) -> int:
    """Chips from the tray to the players at the table, for cash or a marker into the drop box."""
    grant = ledger.authorize(session, actor, ledger.Purpose.TABLE_CHIPS, amount, house=house, at=at)
    tray, chips = ledger.table_account(session, table_id, "tray"), ledger.table_account(session, table_id, "chips")
    return _post(session, tray, chips, amount, TransferKind.CHIPS_SOLD, at=at, memo=f"buy-in {buy_in_id}",
                 grant=grant)
