"""The raw byte stream of every serial device, kept as received so any round can be replayed."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from floor.models.base import Base


class DeviceChunk(Base):
    """One read from a port: the bytes exactly as they arrived, and when. An empty chunk marks a
    (re)opened port, so a replay drops a half frame from before the break as the live decoder did."""

    __tablename__ = "device_chunks"
    __table_args__ = (Index("ix_device_chunks_device_at", "device", "arrived_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    device: Mapped[str] = mapped_column(String(60))
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"))
    arrived_at: Mapped[datetime]
    data: Mapped[bytes] = mapped_column(LargeBinary)
