"""The poker table between and across hands: hands with their button and blinds, who posted what,
sit-outs, missed-blind tickets (corrections are new rows), entry choices, button placements, warnings.

Append-only where history matters: a hand, a posting or a ticket is never edited; a wrong ticket is
voided by a new row pointing at it. A sit-out and a warning are only ever closed (back / lifted).
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from floor.models.base import Base, sentence, utcnow


class PokerHand(Base):
    """One hand dealt at a poker table: where the button and blinds were, as the dealer started it."""

    __tablename__ = "poker_hands"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    number: Mapped[int]                                    # 1, 2, 3... per table
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    dealer_id: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    terminal: Mapped[str] = mapped_column(String(80), default="")
    button_seat: Mapped[int | None]
    small_seat: Mapped[int | None]                         # the small blind's place (maybe dead)
    big_seat: Mapped[int | None]
    third_seat: Mapped[int | None]                         # a compulsory third blind (house setting)
    straddle_seat: Mapped[int | None]                      # set when the straddle is posted
    first_to_act: Mapped[int | None]
    dead_button: Mapped[bool] = mapped_column(default=False)
    dead_small: Mapped[bool] = mapped_column(default=False)
    heads_up: Mapped[bool] = mapped_column(default=False)
    new_game: Mapped[bool] = mapped_column(default=False)
    small_blind: Mapped[int]                               # cents
    big_blind: Mapped[int]                                 # cents
    policy: Mapped[str] = mapped_column(String(20))
    button_mode: Mapped[str] = mapped_column(String(10))   # moving | dead

    seats: Mapped[list["PokerHandSeat"]] = relationship(order_by="PokerHandSeat.seat_number",
                                                        back_populates="hand")
    postings: Mapped[list["PokerPosting"]] = relationship(order_by="PokerPosting.id", back_populates="hand")


class PokerHandSeat(Base):
    """Who sat where in a hand and whether he was dealt in, away, or waiting to come in."""

    __tablename__ = "poker_hand_seats"
    __table_args__ = (UniqueConstraint("hand_id", "seat_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("poker_hands.id"), index=True)
    seat_number: Mapped[int]
    assignment_id: Mapped[int] = mapped_column(ForeignKey("seat_assignments.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    status: Mapped[str] = mapped_column(String(10))        # dealt | away | waiting
    role: Mapped[str | None] = mapped_column(String(10))   # button | small | big | third
    note: Mapped[str] = mapped_column(String(120), default="")

    hand: Mapped[PokerHand] = relationship(back_populates="seats")


class PokerPosting(Base):
    """Money a seat put in before the cards: blinds, straddle, entry bet, dead blinds."""

    __tablename__ = "poker_postings"

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("poker_hands.id"), index=True)
    seat_number: Mapped[int]
    assignment_id: Mapped[int] = mapped_column(ForeignKey("seat_assignments.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    # small_blind | big_blind | third_blind | straddle | entry | dead_small | dead_big
    kind: Mapped[str] = mapped_column(String(20))
    amount: Mapped[int]                                    # cents
    live: Mapped[bool]
    at: Mapped[datetime] = mapped_column(default=utcnow)
    recorded_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))

    hand: Mapped[PokerHand] = relationship(back_populates="postings")

    @property
    def seat(self) -> int:   # as the rules' Posting names it: one schema reads both
        return self.seat_number


class PokerSitOut(Base):
    """A player away from his seat (seat kept): from the dealer marking him away until he is back."""

    __tablename__ = "poker_sit_outs"
    __table_args__ = (
        Index("uq_poker_sit_outs_open", "assignment_id", unique=True,
              sqlite_where=text("back_at IS NULL"), postgresql_where=text("back_at IS NULL")),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    assignment_id: Mapped[int] = mapped_column(ForeignKey("seat_assignments.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    away_at: Mapped[datetime] = mapped_column(default=utcnow)
    marked_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    back_at: Mapped[datetime | None]
    back_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    back_reason: Mapped[str | None] = mapped_column(String(40))   # back | left_seat


class PokerEntryChoice(Base):
    """A player entering the game chose to post now or to wait for the big blind (latest row wins)."""

    __tablename__ = "poker_entry_choices"

    id: Mapped[int] = mapped_column(primary_key=True)
    assignment_id: Mapped[int] = mapped_column(ForeignKey("seat_assignments.id"), index=True)
    wait_for_bb: Mapped[bool]
    at: Mapped[datetime] = mapped_column(default=utcnow)
    chosen_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))


class PokerButtonPlacement(Base):
    """The dealer put the button on a seat for the next hand (first hand of a game, or a correction)."""

    __tablename__ = "poker_button_placements"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    seat_number: Mapped[int]
    new_game: Mapped[bool] = mapped_column(default=False)
    reason: Mapped[str] = mapped_column(String(200), default="")
    at: Mapped[datetime] = mapped_column(default=utcnow)
    placed_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    after_hand_id: Mapped[int | None] = mapped_column(ForeignKey("poker_hands.id"))


class MissedBlindTicket(Base):
    """A blind that passed a player while he was away (kind "miss", recorded by New hand), a ticket the
    dealer handed by hand ("manual"), or a correction voiding one of those ("void", voids_id set).
    Only rows with counts_as_ticket count toward forfeiting the seat."""

    __tablename__ = "missed_blind_tickets"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    assignment_id: Mapped[int] = mapped_column(ForeignKey("seat_assignments.id"), index=True)
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("poker_hands.id"))
    seat_number: Mapped[int]
    kind: Mapped[str] = mapped_column(String(10))          # miss | manual | void
    blind: Mapped[str | None] = mapped_column(String(10))  # small | big | third
    counts_as_ticket: Mapped[bool] = mapped_column(default=True)
    voids_id: Mapped[int | None] = mapped_column(ForeignKey("missed_blind_tickets.id"), unique=True)
    _reason: Mapped[str] = mapped_column("reason", String(200), key="reason", default="")
    reason_msg: Mapped[dict | None]      # a ticket New hand recorded: its reason's template and values
    reason = sentence("reason", "reason_msg", 200)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    recorded_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))


class PlayerWarning(Base):
    """A warning for breaking a table rule (004 "Généralités", "Showdown"). Lifted, never deleted."""

    __tablename__ = "player_warnings"

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"))
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("poker_hands.id"))
    # cards_shown_early | electronic_device | left_without_word | other
    reason: Mapped[str] = mapped_column(String(30))
    note: Mapped[str] = mapped_column(String(300), default="")
    at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    given_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    terminal: Mapped[str] = mapped_column(String(80), default="")
    ban_id: Mapped[int | None] = mapped_column(ForeignKey("bans.id"))   # the ban this warning triggered
    lifted_at: Mapped[datetime | None]
    lifted_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    lift_reason: Mapped[str | None] = mapped_column(String(300))
