"""The append-only, hash-chained audit log."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import String, Text
from sqlalchemy.orm import Mapped, mapped_column

from floor.models.base import Base


class AuditRecord(Base):
    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime]
    actor_id: Mapped[int | None]
    actor: Mapped[str] = mapped_column(String(120))      # staff name, device name or "system"
    role: Mapped[str] = mapped_column(String(20))
    terminal: Mapped[str] = mapped_column(String(120))   # tablet, table terminal or device
    action: Mapped[str] = mapped_column(String(80), index=True)
    subject: Mapped[str] = mapped_column(String(120), index=True)   # e.g. "table:3"
    before: Mapped[str | None] = mapped_column(Text)     # canonical JSON
    after: Mapped[str | None] = mapped_column(Text)      # canonical JSON
    prev_hash: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64), unique=True)
