"""Dealers on the floor: clocked in and out (shifts), and where each one is at any time (stints at a
table or on a break). Rows are never edited but to close them; a round carries the dealer who
dealt it (``rounds.dealer_id``)."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String, text
from sqlalchemy.orm import Mapped, mapped_column

from floor.models.base import Base, utcnow


class DealerShift(Base):
    __tablename__ = "dealer_shifts"
    __table_args__ = (
        Index("uq_dealer_shifts_open", "staff_id", unique=True,
              sqlite_where=text("clock_out IS NULL"), postgresql_where=text("clock_out IS NULL")),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    staff_id: Mapped[int] = mapped_column(ForeignKey("staff.id"), index=True)
    clock_in: Mapped[datetime] = mapped_column(default=utcnow)
    clock_out: Mapped[datetime | None]
    clocked_in_by: Mapped[str] = mapped_column(String(120), default="")
    clocked_out_by: Mapped[str | None] = mapped_column(String(120))


class DealerStint(Base):
    """A dealer at a table (``table_id``) or on a break (None), from ``started_at`` until the next."""

    __tablename__ = "dealer_stints"
    __table_args__ = (
        Index("uq_dealer_stints_open_dealer", "staff_id", unique=True,
              sqlite_where=text("ended_at IS NULL"), postgresql_where=text("ended_at IS NULL")),
        Index("uq_dealer_stints_open_table", "table_id", unique=True,
              sqlite_where=text("ended_at IS NULL AND table_id IS NOT NULL"),
              postgresql_where=text("ended_at IS NULL AND table_id IS NOT NULL")),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    shift_id: Mapped[int] = mapped_column(ForeignKey("dealer_shifts.id"), index=True)
    staff_id: Mapped[int] = mapped_column(ForeignKey("staff.id"), index=True)
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"), index=True)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    ended_at: Mapped[datetime | None]
    how: Mapped[str] = mapped_column(String(20))        # clock_in | rotation | relief | login | break
    by: Mapped[str] = mapped_column(String(120), default="")
