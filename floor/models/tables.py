"""Games and limits, tables, seats, and who sits where."""
from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from floor.models.base import Base, utcnow


class TableKind(StrEnum):
    """The game a table deals (a round's kind is its table's); stored and sent as its value."""

    POKER = "poker"
    BACCARAT = "baccarat"
    BLACKJACK = "blackjack"
    ROULETTE = "roulette"
    CASINO_HOLDEM = "casino_holdem"


class TableStatus(StrEnum):
    OPEN = "open"
    CLOSED = "closed"
    SUSPENDED = "suspended"


TABLE_KINDS = tuple(TableKind)
TABLE_STATUSES = tuple(TableStatus)
POKER_VARIANTS = ("holdem", "omaha", "omaha_hilo", "sixplus")
STRUCTURES = ("no_limit", "pot_limit", "fixed_limit")


class Game(Base):
    """A game at a limit, e.g. No-Limit Hold'em 2/5: what a waiting list is for."""

    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    kind: Mapped[str] = mapped_column(String(20))
    variant: Mapped[str | None] = mapped_column(String(20))      # poker only
    structure: Mapped[str | None] = mapped_column(String(20))    # poker only
    small_blind: Mapped[int] = mapped_column(default=0)          # cents
    big_blind: Mapped[int] = mapped_column(default=0)            # cents
    min_bet: Mapped[int] = mapped_column(default=0)              # cents, table games
    max_bet: Mapped[int] = mapped_column(default=0)              # cents, table games


class Table(Base):
    __tablename__ = "tables"
    __table_args__ = (
        CheckConstraint("seat_count BETWEEN 1 AND 12", name="seat_count"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[int] = mapped_column(unique=True)
    name: Mapped[str] = mapped_column(String(80))
    kind: Mapped[str] = mapped_column(String(20))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seat_count: Mapped[int]
    status: Mapped[str] = mapped_column(String(20), default="closed")
    # What the table is doing is this row: a closed table does nothing; an open poker table plays its
    # cash game, unless a tournament holds it (this column, set when the tournament starts playing
    # there and cleared when it breaks or ends); another kind plays its table game. Only one at a time:
    # everything that reads or changes the table's use goes through floor/tables.py ``occupancy``.
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id", use_alter=True))
    # Optimistic lock: two tablets changing the same table at once, one gets a conflict.
    version: Mapped[int] = mapped_column(default=1)

    game: Mapped[Game] = relationship(lazy="joined")
    seats: Mapped[list["Seat"]] = relationship(order_by="Seat.number", back_populates="table")

    __mapper_args__ = {"version_id_col": version}


class Seat(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    number: Mapped[int]

    table: Mapped[Table] = relationship(back_populates="seats")


class SeatAssignment(Base):
    """A player's stay in a seat: from sitting down to leaving. Never edited but to close it.

    The partial unique indexes make "one player per seat" and "one seat per player per table"
    hold in the database, so two tablets seating at once cannot both win.
    """

    __tablename__ = "seat_assignments"
    __table_args__ = (
        Index("uq_seat_assignments_open_seat", "seat_id", unique=True,
              sqlite_where=text("left_at IS NULL"), postgresql_where=text("left_at IS NULL")),
        Index("uq_seat_assignments_open_player_table", "player_id", "table_id", unique=True,
              sqlite_where=text("left_at IS NULL"), postgresql_where=text("left_at IS NULL")),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id"))
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    sat_at: Mapped[datetime] = mapped_column(default=utcnow)
    left_at: Mapped[datetime | None]
    # How he came to this seat: "new" (from the list or walk-up), "must_move", "table_change",
    # "seat_change", "rebuy". The blind rules differ for each (docs/rules.md).
    arrival: Mapped[str] = mapped_column(String(20), default="new")
    buy_in: Mapped[int] = mapped_column(default=0)         # cents brought to the table
    chips_out: Mapped[int | None]                          # cents taken away on leaving
    reason_left: Mapped[str | None] = mapped_column(String(40))

    seat: Mapped[Seat] = relationship()
    player: Mapped["Player"] = relationship()  # noqa: F821


from floor.models.people import Player  # noqa: E402,F401  (relationship target)
