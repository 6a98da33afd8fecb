"""The poker room floor: waiting lists and their entries, calls, table-change requests, must-move
chains, players away from their seat, and busts (docs/rules.md).

Concurrency: the database holds the invariants. One open entry per player per list, one open call
per entry and per seat, one open table-change request per player and target, one open must-move link
per table and per parent. List changes lock the list row (SELECT ... FOR UPDATE) so two tablets
acting on one list queue up, and the second sees what the first did.
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from floor.models.base import Base, utcnow
from floor.models.people import Player
from floor.models.tables import Table

ENTRY_STATUSES = ("waiting", "called", "seated", "removed")
CALL_OUTCOMES = ("seated", "expired", "cancelled")
PASS_ENDINGS = ("revoked", "replaced", "done")
OPEN = text("closed_at IS NULL")


class WaitingList(Base):
    """One list per game and limit (a Game is a game at a limit)."""

    __tablename__ = "waiting_lists"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), unique=True)
    # Next position handed out; order on a list is by position (the time added, unless moved).
    next_position: Mapped[int] = mapped_column(default=1)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class WaitlistEntry(Base):
    """A player on a list, from being added in person to being seated or taken off."""

    __tablename__ = "waitlist_entries"
    __table_args__ = (
        Index("uq_waitlist_entries_open_player", "list_id", "player_id", unique=True,
              sqlite_where=OPEN, postgresql_where=OPEN),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    list_id: Mapped[int] = mapped_column(ForeignKey("waiting_lists.id"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    position: Mapped[int]
    status: Mapped[str] = mapped_column(String(10), default="waiting")   # ENTRY_STATUSES
    added_at: Mapped[datetime] = mapped_column(default=utcnow)
    added_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    added_by_name: Mapped[str] = mapped_column(String(120))
    added_terminal: Mapped[str] = mapped_column(String(120))
    note: Mapped[str | None] = mapped_column(String(200))       # e.g. "busted twice"
    expiries: Mapped[int] = mapped_column(default=0)            # calls he let run out
    closed_at: Mapped[datetime | None]
    closed_reason: Mapped[str | None] = mapped_column(String(40))

    player: Mapped[Player] = relationship(lazy="joined")


class ListCall(Base):
    """A called player: a seat is held for him until he answers or the timer runs out."""

    __tablename__ = "list_calls"
    __table_args__ = (
        Index("uq_list_calls_open_entry", "entry_id", unique=True, sqlite_where=OPEN, postgresql_where=OPEN),
        Index("uq_list_calls_open_seat", "table_id", "seat_number", unique=True,
              sqlite_where=OPEN, postgresql_where=OPEN),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    entry_id: Mapped[int] = mapped_column(ForeignKey("waitlist_entries.id"), index=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    seat_number: Mapped[int]
    called_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime]
    called_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    called_by_name: Mapped[str] = mapped_column(String(120))
    # What his entry becomes if the timer runs out, fixed when he is called (house settings then).
    expiry_action: Mapped[str] = mapped_column(String(20))     # end_of_list | remove
    outcome: Mapped[str | None] = mapped_column(String(20))    # CALL_OUTCOMES; None while open
    closed_at: Mapped[datetime | None]
    on_my_way_at: Mapped[datetime | None]    # when he answered "on my way" from his pass

    entry: Mapped[WaitlistEntry] = relationship(lazy="joined")
    table: Mapped[Table] = relationship()


class PlayerPass(Base):
    """A listed player's pass: a link (QR code) to his own entries on his phone, no login. Only the
    sha256 of its token is kept; it ends at the end of the gaming day, when he is on no list any
    more, or when the floor withdraws it (a new pass for him withdraws the old one)."""

    __tablename__ = "player_passes"

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    issued_at: Mapped[datetime] = mapped_column(default=utcnow)
    issued_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    issued_by_name: Mapped[str] = mapped_column(String(120))
    expires_at: Mapped[datetime]                      # the end of the gaming day it was issued in
    ended_at: Mapped[datetime | None]                 # withdrawn, replaced, or his last entry closed
    ended_reason: Mapped[str | None] = mapped_column(String(20))   # PASS_ENDINGS

    player: Mapped[Player] = relationship(lazy="joined")


class TableChangeRequest(Base):
    """A seated player asks to move to another table of the same game; honoured in order."""

    __tablename__ = "table_change_requests"
    __table_args__ = (
        Index("uq_table_change_requests_open", "player_id", "to_table_id", unique=True,
              sqlite_where=OPEN, postgresql_where=OPEN),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    from_table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    to_table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    requested_at: Mapped[datetime] = mapped_column(default=utcnow)
    requested_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    closed_at: Mapped[datetime | None]
    outcome: Mapped[str | None] = mapped_column(String(20))    # done | cancelled

    player: Mapped[Player] = relationship(lazy="joined")
    from_table: Mapped[Table] = relationship(foreign_keys=[from_table_id])
    to_table: Mapped[Table] = relationship(foreign_keys=[to_table_id])


class MustMoveLink(Base):
    """``table_id`` is a must-move table feeding ``feeds_table_id`` (the main table or the must-move
    table before it): main <- MM1 <- MM2."""

    __tablename__ = "mustmove_links"
    __table_args__ = (
        Index("uq_mustmove_links_open_table", "table_id", unique=True, sqlite_where=OPEN, postgresql_where=OPEN),
        Index("uq_mustmove_links_open_feeds", "feeds_table_id", unique=True,
              sqlite_where=OPEN, postgresql_where=OPEN),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    feeds_table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    opened_at: Mapped[datetime] = mapped_column(default=utcnow)
    opened_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    closed_at: Mapped[datetime | None]


class SeatAway(Base):
    """A seated player away from the table (sitting out); long enough, with a list waiting, and his
    chips are picked up."""

    __tablename__ = "seat_aways"
    __table_args__ = (
        Index("uq_seat_aways_open", "assignment_id", unique=True,
              sqlite_where=text("back_at IS NULL"), postgresql_where=text("back_at IS NULL")),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    assignment_id: Mapped[int] = mapped_column(ForeignKey("seat_assignments.id"), index=True)
    away_at: Mapped[datetime] = mapped_column(default=utcnow)
    back_at: Mapped[datetime | None]
    marked_by: Mapped[str] = mapped_column(String(120))


class Bust(Base):
    """A seated player went all-in and lost (004 "All-in"); the first may be followed by one rebuy."""

    __tablename__ = "busts"

    id: Mapped[int] = mapped_column(primary_key=True)
    assignment_id: Mapped[int] = mapped_column(ForeignKey("seat_assignments.id"), index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    rebuy: Mapped[int | None]           # cents bought back in with (once, may be under the minimum)
    recorded_by: Mapped[str] = mapped_column(String(120))
