"""Alerts shown on the floor tablets and the pit console until someone acknowledges them."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from floor.models.base import Base, utcnow


class Alert(Base):
    __tablename__ = "alerts"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    kind: Mapped[str] = mapped_column(String(40), index=True)
    severity: Mapped[str] = mapped_column(String(10), default="info")   # info | warning | critical
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"))
    message: Mapped[str] = mapped_column(String(300))
    data: Mapped[dict | None]
    acknowledged_at: Mapped[datetime | None]
    acknowledged_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    acknowledged_note: Mapped[str | None] = mapped_column(String(500))   # what the pit boss found
