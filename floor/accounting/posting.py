"""The one place the table's chips move in the ledger: a fill, a credit, chips sold for a buy-in.

Every movement goes through the ledger like any other money, so the books still sum to zero and
the ledger's own rules apply to it. Returns the transfer's id, kept on the slip or the buy-in.
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from floor import ledger
from floor.actors import Actor
from floor.models import ChipSlip, SlipKind, Transfer, TransferKind
from floor.settings import HouseSettings


def _post(session: Session, frm: int, to: int, amount: int, kind: TransferKind, *, at: datetime, memo: str) -> int:
    ledger.transfer(session, frm, to, amount, kind, at=at, memo=memo)
    return int(session.execute(select(func.max(Transfer.id)).where(
        Transfer.from_account_id == frm, Transfer.to_account_id == to, Transfer.memo == memo)).scalar_one())


def post_slip(session: Session, actor: Actor, slip: ChipSlip, *, at: datetime, house: HouseSettings) -> int:
    """A received fill (cage -> tray) or credit (tray -> cage)."""
    cage, tray = ledger.cage_account(session), ledger.table_account(session, slip.table_id, "tray")
    if slip.kind == SlipKind.FILL:
        return _post(session, cage, tray, slip.total, TransferKind.FILL, at=at, memo=f"fill slip {slip.serial}")
    return _post(session, tray, cage, slip.total, TransferKind.TABLE_CREDIT, at=at, memo=f"credit slip {slip.serial}")


def post_chips_sold(session: Session, actor: Actor, table_id: int, amount: int, buy_in_id: int, *,
                    at: datetime, house: HouseSettings) -> int:
    """Chips from the tray to the players at the table, for cash or a marker into the drop box."""
    tray, chips = ledger.table_account(session, table_id, "tray"), ledger.table_account(session, table_id, "chips")
    return _post(session, tray, chips, amount, TransferKind.CHIPS_SOLD, at=at, memo=f"buy-in {buy_in_id}")
