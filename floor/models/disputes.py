"""Pit boss rulings on poker hands: what was entered, what the rules gave, who decided and why."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from floor.models.base import Base, utcnow


class PokerRuling(Base):
    __tablename__ = "poker_rulings"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    hand_ref: Mapped[str] = mapped_column(String(60))     # the hand number on the dealer terminal, or as noted
    variant: Mapped[str] = mapped_column(String(20))
    inputs: Mapped[dict]                                   # seats, hole cards, contributions, folds, boards, rake
    result: Mapped[dict]                                   # pots and chips won per seat, as computed
    reason: Mapped[str] = mapped_column(String(500))
    decided_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    decided_at: Mapped[datetime] = mapped_column(default=utcnow)

    table: Mapped["Table"] = relationship()  # noqa: F821


from floor.models.tables import Table  # noqa: E402,F401  (relationship target)
