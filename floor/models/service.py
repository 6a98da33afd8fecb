"""Heartbeats of the processes that must be alive: the scheduler, the device process."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from floor.models.base import Base


class ServiceHeartbeat(Base):
    __tablename__ = "service_heartbeats"

    name: Mapped[str] = mapped_column(String(60), primary_key=True)   # "scheduler", "device:wheel-12"
    at: Mapped[datetime]
    info: Mapped[dict | None]
