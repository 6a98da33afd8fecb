"""A table's chips through a shift: tray counts, fill and credit slips, buy-ins, the drop count.

Nothing here is edited where history matters: a count or a slip is a row that only gains its later
signatures (verified, issued, received, cancelled), each by a conditional update that lets one of
two simultaneous taps through. Chips are kept as ``{"<denomination in cents>": count}``.
"""
from __future__ import annotations

from datetime import date, datetime
from enum import StrEnum

from sqlalchemy import BigInteger, CheckConstraint, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from floor.models.base import Base, utcnow, whole_cents
from floor.models.tables import Table


class CountKind(StrEnum):
    OPENING = "opening"
    CLOSING = "closing"
    INTERIM = "interim"       # whenever the house asks (a dealer change, a pit boss's spot check)


class SlipKind(StrEnum):
    FILL = "fill"             # chips from the cage to the table's tray
    CREDIT = "credit"         # chips from the table's tray back to the cage


class SlipState(StrEnum):
    REQUESTED = "requested"
    ISSUED = "issued"
    RECEIVED = "received"
    CANCELLED = "cancelled"


class BuyInMethod(StrEnum):
    CASH = "cash"
    MARKER = "marker"


class TrayCount(Base):
    """The tray counted by denomination by one person; a count only when a second, different
    account (a floor manager or pit boss) has verified it. ``ledger_mark``: the last ledger
    transfer when it was counted, so what the tray should hold is read from the ledger up to there."""

    __tablename__ = "tray_counts"
    __table_args__ = tuple(whole_cents("total"))

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    kind: Mapped[str] = mapped_column(String(10))           # a CountKind
    gaming_day: Mapped[date]
    chips: Mapped[dict]
    total: Mapped[int] = mapped_column(BigInteger)
    ledger_mark: Mapped[int] = mapped_column(BigInteger, default=0)
    counted_by: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    counted_by_name: Mapped[str] = mapped_column(String(120))
    counted_at: Mapped[datetime] = mapped_column(default=utcnow)
    verified_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    verified_by_name: Mapped[str | None] = mapped_column(String(120))
    verified_at: Mapped[datetime | None]

    @property
    def verified(self) -> bool:
        return self.verified_by is not None


class ChipSlip(Base):
    """A fill or a credit: requested at the table, issued by the cage, received at the table (the
    ledger transfer between the cage and the tray happens then), or cancelled with a reason before.
    ``serial`` counts every slip of the house from 1 with no gap and no repeat."""

    __tablename__ = "chip_slips"
    __table_args__ = (
        UniqueConstraint("serial", name="uq_chip_slips_serial"),
        CheckConstraint("total > 0", name="total_positive"),
        *whole_cents("total"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    serial: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(10))            # a SlipKind
    state: Mapped[str] = mapped_column(String(10), default=SlipState.REQUESTED)   # a SlipState
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    gaming_day: Mapped[date]
    chips: Mapped[dict]
    total: Mapped[int] = mapped_column(BigInteger)
    requested_by: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    requested_by_name: Mapped[str] = mapped_column(String(120))
    requested_at: Mapped[datetime] = mapped_column(default=utcnow)
    issued_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    issued_by_name: Mapped[str | None] = mapped_column(String(120))
    issued_at: Mapped[datetime | None]
    received_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    received_by_name: Mapped[str | None] = mapped_column(String(120))
    received_at: Mapped[datetime | None]
    approved_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))      # the second person above the threshold
    approved_by_name: Mapped[str | None] = mapped_column(String(120))
    cancelled_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    cancelled_by_name: Mapped[str | None] = mapped_column(String(120))
    cancelled_at: Mapped[datetime | None]
    cancel_reason: Mapped[str | None] = mapped_column(String(200))
    transfer_id: Mapped[int | None] = mapped_column(ForeignKey("transfers.id"))

    table: Mapped[Table] = relationship(lazy="joined")


class BuyIn(Base):
    """Cash or a marker exchanged for chips at the table, as the dealer recorded it when the chips
    went out (the ledger moves them from the tray to the chips on the table)."""

    __tablename__ = "buy_ins"
    __table_args__ = (CheckConstraint("amount > 0", name="amount_positive"), *whole_cents("amount"))

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    gaming_day: Mapped[date]
    method: Mapped[str] = mapped_column(String(10))          # a BuyInMethod
    amount: Mapped[int] = mapped_column(BigInteger)
    seat: Mapped[int | None]
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    recorded_by: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    recorded_by_name: Mapped[str] = mapped_column(String(120))
    at: Mapped[datetime] = mapped_column(default=utcnow)
    transfer_id: Mapped[int | None] = mapped_column(ForeignKey("transfers.id"))


class DropCount(Base):
    """The drop box of one table and gaming day as the count room counted it: entered by one
    person, verified by a second; one per table and gaming day."""

    __tablename__ = "drop_counts"
    __table_args__ = (UniqueConstraint("table_id", "gaming_day", name="uq_drop_counts_table_id_gaming_day"),
                      CheckConstraint("total >= 0", name="total_not_negative"), *whole_cents("total"))

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    gaming_day: Mapped[date]
    total: Mapped[int] = mapped_column(BigInteger)
    counted_by: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    counted_by_name: Mapped[str] = mapped_column(String(120))
    counted_at: Mapped[datetime] = mapped_column(default=utcnow)
    verified_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    verified_by_name: Mapped[str | None] = mapped_column(String(120))
    verified_at: Mapped[datetime | None]
