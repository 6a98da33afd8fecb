"""Bans: who may not be listed or seated, why, decided by whom, until when."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from floor.models.base import Base, sentence, utcnow


class Ban(Base):
    __tablename__ = "bans"

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    scope: Mapped[str] = mapped_column(String(20), default="poker_room")
    _reason: Mapped[str] = mapped_column("reason", String(300), key="reason")
    reason_msg: Mapped[dict | None]      # a ban the floor decided (warnings): its reason's template and values
    reason = sentence("reason", "reason_msg", 300)
    decided_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    starts_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime | None]      # None: until lifted
    lifted_at: Mapped[datetime | None]
    lifted_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    lift_reason: Mapped[str | None] = mapped_column(String(300))
