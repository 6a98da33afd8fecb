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


class LineLock(Base):
    """Betting closed by a device's line: "no more bets" from the wheel, a coup starting or a card
    coming out of the shoe, a card read by the scanner. ``arrived_at`` is when its bytes arrived,
    stamped by the reader, however late the device process got round to the rest; a round's bets
    placed after its first line lock are never paid (docs/rules.md)."""

    __tablename__ = "line_locks"
    __table_args__ = (Index("ix_line_locks_table_at", "table_id", "arrived_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    device: Mapped[str] = mapped_column(String(60))
    arrived_at: Mapped[datetime]
    what: Mapped[str] = mapped_column(String(40))   # no_more_bets | result | coup_start | card


class LinePause(Base):
    """Betting paused at a table because the device process is behind its line: the lock the line
    may already have given is not known yet. Open while ``ended_at`` is None."""

    __tablename__ = "line_pauses"
    __table_args__ = (Index("ix_line_pauses_table_open", "table_id", "ended_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    device: Mapped[str] = mapped_column(String(60))
    started_at: Mapped[datetime]
    behind_ms: Mapped[int]
    ended_at: Mapped[datetime | None]


class DeviceMark(Base):
    """How far the floor has handled a device's line: every game event decoded from the chunks that
    arrived before ``chunk_at``, and the first ``events`` of the chunk that arrived at ``chunk_at``.
    Written in the very transaction that handles an event, so after a crash a device process knows
    exactly which events of its stored bytes are still to be handled, and handles each once."""

    __tablename__ = "device_marks"

    device: Mapped[str] = mapped_column(String(60), primary_key=True)
    chunk_at: Mapped[datetime]
    events: Mapped[int]
