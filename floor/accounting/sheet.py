"""A table's shifts and gaming day from its verified counts, slips, buy-ins and drop count, and the
reconciliation of each with the rounds it settled (the formula: floor/games/table_win.py).

A shift runs from a verified opening count to the next verified closing count of the table. Its
drop is the buy-ins the dealer recorded in it (the drop box is counted once per gaming day); the
gaming day's drop is the count room's verified count when there is one, else the recorded buy-ins.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from floor import alerts
from floor.accounting.drop import buy_ins, drop_count
from floor.accounting.slips import table_slips
from floor.accounting.tray import TrayMoves, tray_moves
from floor.actors import Actor
from floor.errors import Money, Msg
from floor.games.table_win import Reconciliation, hold_basis_points, over_threshold, reconcile
from floor.models import (AlertKind, AlertSeverity, BuyIn, ChipSlip, CountKind, DealerStint, DropCount, Staff,
                          Table, TrayCount)
from floor.settings import HouseSettings


@dataclass
class CountView:
    """A count and what the ledger says the tray held then (None: no verified count before it)."""

    count: TrayCount
    expected: int | None

    @property
    def difference(self) -> int | None:
        return None if self.expected is None else self.count.total - self.expected


def previous_verified(session: Session, count: TrayCount) -> TrayCount | None:
    return session.execute(select(TrayCount).where(TrayCount.table_id == count.table_id, TrayCount.id < count.id,
                                                   TrayCount.verified_by.is_not(None))
                           .order_by(TrayCount.id.desc()).limit(1)).scalar()


def expected_total(session: Session, count: TrayCount) -> int | None:
    """The previous verified count plus the tray's chip movements in the ledger since."""
    before = previous_verified(session, count)
    if before is None:
        return None
    return before.total + tray_moves(session, count.table_id, before.ledger_mark, count.ledger_mark).net


def view(session: Session, count: TrayCount) -> CountView:
    return CountView(count, expected_total(session, count))


@dataclass
class TableShift:
    table_id: int
    opening: TrayCount
    closing: TrayCount | None
    moves: TrayMoves
    reconciliation: Reconciliation | None      # None while the shift is open

    @property
    def drop(self) -> int:
        return self.moves.sold


def _shift(session: Session, opening: TrayCount, closing: TrayCount | None) -> TableShift:
    moves = tray_moves(session, opening.table_id, opening.ledger_mark, closing.ledger_mark if closing else None)
    rec = None
    if closing is not None:
        rec = reconcile(drop=moves.sold, opening=opening.total, closing=closing.total, fills=moves.fills,
                        credits=moves.credits, rounds_win=moves.rounds_win + moves.other)
    return TableShift(opening.table_id, opening, closing, moves, rec)


def shifts(session: Session, table_id: int, day: date) -> list[TableShift]:
    """The table's shifts opened (a verified opening count) in the gaming day, in order."""
    counts = list(session.execute(select(TrayCount).where(TrayCount.table_id == table_id,
                                                          TrayCount.verified_by.is_not(None),
                                                          TrayCount.gaming_day >= day)
                                  .order_by(TrayCount.id)).scalars())
    out = []
    for i, c in enumerate(counts):
        if c.kind != CountKind.OPENING or c.gaming_day != day:
            continue
        closing = next((d for d in counts[i + 1:] if d.kind in (CountKind.CLOSING, CountKind.OPENING)), None)
        if closing is not None and closing.kind != CountKind.CLOSING:
            closing = None          # opened again without a closing count: that shift never closed
        out.append(_shift(session, c, closing))
    return out


@dataclass
class TableDay:
    table_id: int
    table: int
    name: str
    game: str
    shifts: list[TableShift]
    recorded_drop: int                 # buy-ins the dealers recorded in the day
    counted_drop: int | None           # the count room's verified count
    fills: int = 0
    credits: int = 0
    opening: int | None = None         # of the day's first shift
    closing: int | None = None         # of its last closed shift
    win: int | None = None
    hold_bp: int | None = None
    rounds_win: int | None = None
    difference: int | None = None
    round_ids: list[int] = field(default_factory=list)

    @property
    def drop(self) -> int:
        return self.counted_drop if self.counted_drop is not None else self.recorded_drop

    @property
    def drop_difference(self) -> int | None:
        return None if self.counted_drop is None else self.counted_drop - self.recorded_drop


def table_day(session: Session, table: Table, day: date) -> TableDay:
    found = shifts(session, table.id, day)
    recorded = sum(b.amount for b in buy_ins(session, table.id, day))
    counted = drop_count(session, table.id, day)
    out = TableDay(table.id, table.number, table.name, table.kind, found, recorded,
                   counted.total if counted is not None and counted.verified_by is not None else None)
    closed = [s for s in found if s.reconciliation is not None]
    out.fills = sum(s.moves.fills for s in found)
    out.credits = sum(s.moves.credits for s in found)
    out.round_ids = sorted(set().union(*(s.moves.round_ids for s in found)))
    if found:
        out.opening = found[0].opening.total
    if closed:
        out.closing = closed[-1].closing.total
        day_rec = reconcile(drop=out.drop, opening=sum(s.opening.total for s in closed),
                            closing=sum(s.closing.total for s in closed),
                            fills=sum(s.moves.fills for s in closed), credits=sum(s.moves.credits for s in closed),
                            rounds_win=sum(s.reconciliation.rounds_win for s in closed))
        out.win, out.hold_bp = day_rec.inventory_win, hold_basis_points(day_rec.inventory_win, out.drop)
        out.rounds_win, out.difference = day_rec.rounds_win, day_rec.difference
    return out


def day_figures(session: Session, day: date, table_number: int | None = None) -> list[TableDay]:
    q = select(Table).where(Table.kind != "poker").order_by(Table.number)
    if table_number is not None:
        q = q.where(Table.number == table_number)
    return [table_day(session, t, day) for t in session.execute(q).scalars()]


@dataclass
class TableSheet:
    """The pit's sheet of one table and gaming day: its figures and every row behind them."""

    day: TableDay
    gaming_day: date
    counts: list[CountView]
    slips: list[ChipSlip]
    buy_ins: list[BuyIn]
    drop_count: DropCount | None
    count_due: "CountDue | None" = None


@dataclass(frozen=True)
class CountDue:
    """The tray is to be counted: a new dealer took the table in an open shift and nobody has
    counted it since (the house's ``count_at_dealer_change``)."""

    since: datetime          # when the new dealer took the table
    dealer_name: str


def count_due(session: Session, table_id: int, house: HouseSettings) -> CountDue | None:
    """The dealer change whose count is still owed, if the house counts at each change. A shift is
    open from an opening count to the next closing one; the dealer who was at the table when it
    opened owes nothing (the opening count is his), each one who took it after owes a count, and any
    count entered since (verified or not yet) answers it."""
    if not house.count_at_dealer_change:
        return None
    shift = session.execute(select(TrayCount.kind).where(TrayCount.table_id == table_id,
                                                         TrayCount.kind.in_((CountKind.OPENING, CountKind.CLOSING)))
                            .order_by(TrayCount.id.desc()).limit(1)).scalar()
    if shift != CountKind.OPENING:
        return None                                   # no shift open at this table
    last_count = session.execute(select(func.max(TrayCount.counted_at)).where(TrayCount.table_id == table_id)).scalar()
    change = session.execute(select(DealerStint.started_at, Staff.name).join(Staff, Staff.id == DealerStint.staff_id)
                             .where(DealerStint.table_id == table_id, DealerStint.started_at > last_count)
                             .order_by(DealerStint.started_at.desc()).limit(1)).first()
    return CountDue(change.started_at, change.name) if change else None


def table_sheet(session: Session, table_id: int, day: date, house: HouseSettings | None = None) -> TableSheet:
    """``house``: given, the sheet says whether a count is due now (the terminal's and the pit's view
    of today); without it (a past day, a report) it does not."""
    table = session.get(Table, table_id)
    counts = list(session.execute(select(TrayCount).where(TrayCount.table_id == table_id, TrayCount.gaming_day == day)
                                  .order_by(TrayCount.id)).scalars())
    slips = [s for s in table_slips(session, table_id, limit=500) if s.gaming_day == day][::-1]
    return TableSheet(table_day(session, table, day), day, [view(session, c) for c in counts], slips,
                      buy_ins(session, table_id, day), drop_count(session, table_id, day),
                      count_due(session, table_id, house) if house is not None else None)


def check_closing(session: Session, actor: Actor, closing: TrayCount, *, house: HouseSettings,
                  at: datetime | None = None) -> TableShift | None:
    """When a closing count is verified: the shift it closes, and an alert for the pit when its
    inventory win and its rounds' win differ by more than the house's threshold. The alert lists
    the shift's rounds and counts so the pit can look for a short payout, a missed bet or a miscount."""
    opening = session.execute(select(TrayCount).where(
        TrayCount.table_id == closing.table_id, TrayCount.id < closing.id, TrayCount.verified_by.is_not(None),
        TrayCount.kind.in_((CountKind.OPENING, CountKind.CLOSING))).order_by(TrayCount.id.desc()).limit(1)).scalar()
    if opening is None or opening.kind != CountKind.OPENING:
        return None
    shift = _shift(session, opening, closing)
    rec = shift.reconciliation
    if over_threshold(rec, house.table_reconciliation_alert_cents):
        table = session.get(Table, closing.table_id)
        rounds = sorted(shift.moves.round_ids)
        alerts.raise_alert(
            session, actor, AlertKind.TABLE_RECONCILIATION,
            Msg("table {table}: the tray's win {inventory} and the rounds' win {rounds} differ by {difference}",
                table=table.number, inventory=Money(rec.inventory_win), rounds=Money(rec.rounds_win),
                difference=Money(rec.difference)),
            severity=AlertSeverity.WARNING, table_id=table.id, at=at,
            data={"counts": [opening.id, closing.id], "rounds": rounds, "inventory_win": rec.inventory_win,
                  "rounds_win": rec.rounds_win, "difference": rec.difference, "fills": rec.fills,
                  "credits": rec.credits, "drop": rec.drop})
    return shift
