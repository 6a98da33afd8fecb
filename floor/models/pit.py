"""The pit boss's rulings on live-game rounds, and the second pit boss's approvals. Rows, never edited.

A ruling confirms a round, voids it, or corrects a mis-read card or number (and re-settles). Its
``amount`` is the money the ruling moves (what the two-person rule compares with the house
threshold): for a round not settled yet, the stakes returned (void), or the stakes and what the
result returns together (a held round confirmed or corrected: floor.rounds.twoperson); for a settled
round, what the compensating transfers move between the tray and the players. Above ``HouseSettings.dispute_two_person_cents``
the ruling waits (``needs_approval``) until a second, different pit boss approves it: nothing moves
until then. Its state is derived: applied when no approval is needed or the approval row says so,
pending without an approval row, rejected or withdrawn otherwise.
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, BigInteger, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from floor.models.base import Base, utcnow

RULING_KINDS = ("confirm", "void", "correct")
DECISIONS = ("approved", "rejected", "withdrawn")


class RoundRuling(Base):
    __tablename__ = "round_rulings"

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"), index=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    kind: Mapped[str] = mapped_column(String(10))                 # confirm | void | correct
    reason: Mapped[str] = mapped_column(String(500))
    round_status: Mapped[str] = mapped_column(String(20))         # the round's status when ruled
    correction: Mapped[dict | None] = mapped_column(JSON)        # what the pit boss entered
    result: Mapped[dict | None] = mapped_column(JSON)            # the corrected result, as computed
    replay: Mapped[dict | None] = mapped_column(JSON)            # the replay check when ruled
    amount: Mapped[int] = mapped_column(BigInteger, default=0)   # cents the ruling moves
    needs_approval: Mapped[bool] = mapped_column(default=False)
    decided_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    decided_by_name: Mapped[str] = mapped_column(String(120))
    terminal: Mapped[str] = mapped_column(String(120), default="")
    at: Mapped[datetime] = mapped_column(default=utcnow)


class RulingApproval(Base):
    """The second pit boss's answer to a ruling that needs one (one per ruling, by the unique key)."""

    __tablename__ = "ruling_approvals"

    id: Mapped[int] = mapped_column(primary_key=True)
    ruling_id: Mapped[int] = mapped_column(ForeignKey("round_rulings.id"), unique=True)
    decision: Mapped[str] = mapped_column(String(10))             # approved | rejected | withdrawn
    reason: Mapped[str] = mapped_column(String(500), default="")
    decided_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    decided_by_name: Mapped[str] = mapped_column(String(120))
    terminal: Mapped[str] = mapped_column(String(120), default="")
    at: Mapped[datetime] = mapped_column(default=utcnow)
