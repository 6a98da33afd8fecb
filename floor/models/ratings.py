"""Player ratings: who sat at which seat of a live-game table, from when to when.

A visit is opened when the player is identified at the seat (his player card read by the table's
scanner, or the dealer picking him) and closed when he leaves, another player is identified at that
seat, or the table closes. Seat bets are funded by the chips on the table, so this row is what ties
a seat's bets to a player. Rows are never edited but to close them.
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String, text
from sqlalchemy.orm import Mapped, mapped_column

from floor.models.base import Base, utcnow

IDENTIFIED_BY = ("card", "dealer")


class PlayerVisit(Base):
    __tablename__ = "player_visits"
    __table_args__ = (
        # one player per seat at a time, one open seat per player per table: two terminals
        # identifying at once cannot both win
        Index("uq_player_visits_open_seat", "table_id", "seat", unique=True,
              sqlite_where=text("ended_at IS NULL"), postgresql_where=text("ended_at IS NULL")),
        Index("uq_player_visits_open_player", "player_id", "table_id", unique=True,
              sqlite_where=text("ended_at IS NULL"), postgresql_where=text("ended_at IS NULL")),
        Index("ix_player_visits_table_seat_start", "table_id", "seat", "started_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    seat: Mapped[int]
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    ended_at: Mapped[datetime | None]
    identified_by: Mapped[str] = mapped_column(String(10))        # card | dealer
    started_by: Mapped[str] = mapped_column(String(120), default="")
    ended_by: Mapped[str | None] = mapped_column(String(120))
    end_reason: Mapped[str | None] = mapped_column(String(20))    # left | replaced | table_closed
