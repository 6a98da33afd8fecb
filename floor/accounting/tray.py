"""What the ledger says went into and out of a table's tray between two moments.

A moment is a ``ledger mark``: the id of the last transfer written then. The tray here is the
table's chips the dealer can count: its ``tray`` account and its ``commission`` account (the
commission is paid in chips into the tray). A bet made from a player's account (a remote balance
bet) moves the ledger's tray but never a chip, so it is left out.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from floor import ledger
from floor.models import Account, Bet, Transfer, TransferKind


@dataclass
class TrayMoves:
    fills: int = 0
    credits: int = 0
    sold: int = 0             # chips sold for buy-ins (cash or markers into the drop box)
    rounds_win: int = 0       # the house's result of the rounds in chips (stakes lost, payouts, commission, corrections)
    other: int = 0            # any other movement of the tray's chips
    round_ids: set[int] = field(default_factory=set)

    @property
    def net(self) -> int:
        return self.fills - self.credits - self.sold + self.rounds_win + self.other


def ledger_mark(session: Session) -> int:
    session.flush()
    return int(session.execute(select(func.coalesce(func.max(Transfer.id), 0))).scalar_one())


def tray_moves(session: Session, table_id: int, after: int, upto: int | None) -> TrayMoves:
    """The tray's chip movements over the transfers ``after < id <= upto`` (``upto`` None: to now)."""
    accounts = ledger.table_accounts(session, table_id)
    house = {accounts.tray, accounts.commission}
    q = (select(Transfer.amount, Transfer.kind, Transfer.from_account_id, Transfer.to_account_id, Transfer.round_id,
                Bet.player_id)
         .outerjoin(Bet, Bet.id == Transfer.bet_id)
         .where(Transfer.id > after, or_(Transfer.from_account_id.in_(house), Transfer.to_account_id.in_(house))))
    if upto is not None:
        q = q.where(Transfer.id <= upto)
    rows = session.execute(q).all()
    others = {r.from_account_id for r in rows} | {r.to_account_id for r in rows}
    kinds = dict(session.execute(select(Account.id, Account.kind).where(Account.id.in_(others - house))).all())
    out = TrayMoves()
    for amount, kind, frm, to, round_id, bet_player in rows:
        if (frm in house) == (to in house):
            continue                                  # tray <-> commission: the same chips
        other = to if frm in house else frm
        if bet_player is not None or kinds.get(other) == "player":
            continue                                  # a balance bet: no chip moved
        signed = amount if to in house else -amount
        if kind == TransferKind.FILL:
            out.fills += amount
        elif kind == TransferKind.TABLE_CREDIT:
            out.credits += amount
        elif kind == TransferKind.CHIPS_SOLD:
            out.sold += amount
        elif round_id is not None:
            out.rounds_win += signed
            out.round_ids.add(round_id)
        else:
            out.other += signed
    return out
