"""Timers as rows: written in the transaction of the change that needs them, so a timer exists
exactly when that change committed, whichever process made it; the scheduler process runs them.

A timer is never edited in place except to move its status: setting a key again marks the pending
row "replaced" and inserts a new one; cancelling marks it "cancelled"; running it marks it "done"
in the same transaction as the job's work (exactly once).
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from floor.models.base import Base, utcnow

TIMER_STATUSES = ("pending", "done", "cancelled", "replaced", "failed")


class Timer(Base):
    __tablename__ = "timers"
    __table_args__ = (Index("ix_timers_status_due_at", "status", "due_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(120), index=True)       # "round:12:betting", "call-7"
    job: Mapped[str] = mapped_column(String(60))                    # a name in floor.jobs.JOBS
    args: Mapped[list] = mapped_column(JSON, default=list)          # plain ids, JSON
    due_at: Mapped[datetime]
    status: Mapped[str] = mapped_column(String(10), default="pending")
    set_at: Mapped[datetime] = mapped_column(default=utcnow)
    fired_at: Mapped[datetime | None]
    attempts: Mapped[int] = mapped_column(default=0)
    last_error: Mapped[str | None] = mapped_column(String(300))
