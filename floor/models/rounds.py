"""Live-game rounds: one state machine per table, its bets, the cards and results as recorded,
the settlement (one per round, enforced by a unique key), shoes, and every raw device frame.

A round's ``status`` is the current state; every change of it is also a RoundEvent row, so the
timeline of a round (issue "pit boss") is the events, the cards and the device frames in order.
"""
from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import JSON, BigInteger, CheckConstraint, ForeignKey, Index, LargeBinary, String, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column

from floor.models.base import Base, sentence, utcnow, whole_cents

# betting -> locked (no more bets; roulette) or dealing (card games) -> result -> settled
#         \-> held (device fault, disagreement) -> settled | voided by the pit boss
class RoundStatus(StrEnum):
    """Where a round is; stored and sent as its value ("betting", ...)."""

    BETTING = "betting"
    LOCKED = "locked"
    DEALING = "dealing"
    RESULT = "result"
    HELD = "held"
    SETTLED = "settled"
    VOIDED = "voided"


class ShoeStatus(StrEnum):
    ACTIVE = "active"
    LAST_COUP = "last_coup"   # the cut card came out: the next coup is the last
    FINISHED = "finished"


class CardSource(StrEnum):
    """Who read a card: the smart shoe, a scanner, or the dealer typing it."""

    SHOE = "shoe"
    SCANNER = "scanner"
    DEALER = "dealer"


class SettlementOutcome(StrEnum):
    SETTLED = "settled"
    VOIDED = "voided"


ROUND_STATUSES = tuple(RoundStatus)
ACTIVE = (RoundStatus.BETTING, RoundStatus.LOCKED, RoundStatus.DEALING, RoundStatus.RESULT)
ACTIVE_SQL = "status IN ('betting', 'locked', 'dealing', 'result')"


class Shoe(Base):
    """A baccarat shoe: the host numbers shoes and coups itself (the shoe sends no ids)."""

    __tablename__ = "shoes"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    number: Mapped[int]
    decks: Mapped[int] = mapped_column(default=8)
    status: Mapped[str] = mapped_column(String(20), default="active")   # active | last_coup | finished
    last_coup: Mapped[int | None]          # the coup the cut card made the last (None: the next one)
    confirmed_at: Mapped[datetime] = mapped_column(default=utcnow)
    confirmed_by: Mapped[str] = mapped_column(String(120), default="")
    cut_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]


class Round(Base):
    __tablename__ = "rounds"
    __table_args__ = (
        UniqueConstraint("table_id", "number"),
        # One live round per table: two processes opening betting at once cannot both win.
        Index("uq_rounds_active_table", "table_id", unique=True,
              sqlite_where=text(ACTIVE_SQL), postgresql_where=text(ACTIVE_SQL)),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    number: Mapped[int]                       # per table, 1, 2, 3...
    kind: Mapped[str] = mapped_column(String(20))
    status: Mapped[str] = mapped_column(String(20), index=True)
    shoe_id: Mapped[int | None] = mapped_column(ForeignKey("shoes.id"), index=True)
    coup: Mapped[int | None]                  # baccarat: coup number in the shoe
    spin: Mapped[int | None]                  # roulette: the wheel's spin number that settles it
    opened_at: Mapped[datetime] = mapped_column(default=utcnow)
    closes_at: Mapped[datetime | None]        # the betting timer
    locked_at: Mapped[datetime | None]        # "no more bets"
    result_at: Mapped[datetime | None]
    ended_at: Mapped[datetime | None]         # settled or voided
    result: Mapped[dict | None]               # what settles it: {"number": 17}, the coup, the hands
    device: Mapped[dict | None]               # device bookkeeping (wheel: spin, bare number, state 5...)
    _held_reason: Mapped[str | None] = mapped_column("held_reason", String(200), key="held_reason")
    held_msg: Mapped[dict | None]             # why it is held: its template and values
    held_reason = sentence("held_reason", "held_msg", 200)
    # who dealt it: the dealer on the table when betting opened (pace and results per dealer)
    dealer_id: Mapped[int | None] = mapped_column(ForeignKey("staff.id"), index=True)
    steps: Mapped[int] = mapped_column(default=0)   # shared sequence of cards and decisions
    # Every change is a conditional UPDATE (... WHERE version = :seen): two processes moving the
    # same round at once, one of them gets a conflict instead of both winning.
    version: Mapped[int] = mapped_column(default=1)

    __mapper_args__ = {"version_id_col": version}


class RoundEvent(Base):
    """A state change or a decision, as a row (never edited)."""

    __tablename__ = "round_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int | None] = mapped_column(ForeignKey("rounds.id"), index=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    kind: Mapped[str] = mapped_column(String(30))     # status | decision | misspin | alert | ...
    status_from: Mapped[str | None] = mapped_column(String(20))
    status_to: Mapped[str | None] = mapped_column(String(20))
    step: Mapped[int | None]                           # decisions: place among the round's cards
    data: Mapped[dict | None]
    actor: Mapped[str] = mapped_column(String(120), default="system")

    # a table's last event of a kind (its entry mode, read at every device event)
    __table_args__ = (Index("ix_round_events_table_kind", "table_id", "kind", "id"),)


class RoundCard(Base):
    """A card as read (shoe, scanner) or typed (dealer), accepted into the round or not."""

    __tablename__ = "round_cards"
    __table_args__ = (
        Index("uq_round_cards_step", "round_id", "step", unique=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int | None] = mapped_column(ForeignKey("rounds.id"))
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    shoe_id: Mapped[int | None] = mapped_column(ForeignKey("shoes.id"), index=True)
    step: Mapped[int | None]
    at: Mapped[datetime] = mapped_column(default=utcnow)
    card: Mapped[str] = mapped_column(String(3))
    source: Mapped[str] = mapped_column(String(10))   # shoe | scanner | dealer
    target: Mapped[str | None] = mapped_column(String(30))   # player, banker, burn, seat:3:1, dealer, board
    accepted: Mapped[bool] = mapped_column(default=True)
    _reason: Mapped[str | None] = mapped_column("reason", String(200), key="reason")
    reason_msg: Mapped[dict | None]           # why it was refused: its template and values
    reason = sentence("reason", "reason_msg", 200)


class Bet(Base):
    """A stake on one spot of one round. Never edited: the outcome is in the transfers."""

    __tablename__ = "bets"
    __table_args__ = (
        CheckConstraint("amount > 0", name="amount_positive"),
        *whole_cents("amount", "requested"),
        # A retried request with the same key counts once (per funding account).
        Index("uq_bets_idempotency", "account_id", "idempotency_key", unique=True,
              sqlite_where=text("idempotency_key IS NOT NULL"),
              postgresql_where=text("idempotency_key IS NOT NULL")),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"), index=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))   # who funds it, who is paid
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), index=True)
    seat: Mapped[int | None]
    hand: Mapped[int] = mapped_column(default=1)          # blackjack: 2 for the second split hand
    spot: Mapped[str] = mapped_column(String(30))          # red, straight, banker, ante, aa_bonus, bet, double...
    numbers: Mapped[list | None] = mapped_column(JSON)   # roulette numbers
    amount: Mapped[int] = mapped_column(BigInteger)
    requested: Mapped[int] = mapped_column(BigInteger)     # asked for (Casino Hold'em cuts to the max)
    source: Mapped[str] = mapped_column(String(10))        # api | dealer | decision
    idempotency_key: Mapped[str | None] = mapped_column(String(100))
    placed_at: Mapped[datetime] = mapped_column(default=utcnow)
    placed_by: Mapped[str] = mapped_column(String(120), default="")


class Settlement(Base):
    """The one settlement (or void) of a round: its unique round_id is the exactly-once guard.
    It is inserted in the same transaction as the round's transfers."""

    __tablename__ = "settlements"
    __table_args__ = tuple(whole_cents("staked", "returned", "commission"))

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"), unique=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    outcome: Mapped[str] = mapped_column(String(10))       # settled | voided
    bets: Mapped[int] = mapped_column(default=0)
    staked: Mapped[int] = mapped_column(BigInteger, default=0)
    returned: Mapped[int] = mapped_column(BigInteger, default=0)
    commission: Mapped[int] = mapped_column(BigInteger, default=0)
    actor: Mapped[str] = mapped_column(String(120), default="system")
    _reason: Mapped[str | None] = mapped_column("reason", String(200), key="reason")
    reason_msg: Mapped[dict | None]           # a void's reason the floor gave: its template and values
    reason = sentence("reason", "reason_msg", 200)


class DeviceFrame(Base):
    """A raw frame as received from a table device, filed against its round when there is one."""

    __tablename__ = "device_frames"

    id: Mapped[int] = mapped_column(primary_key=True)
    device: Mapped[str] = mapped_column(String(60))
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"), index=True)
    arrived_at: Mapped[datetime] = mapped_column(default=utcnow)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    _summary: Mapped[str] = mapped_column("summary", String(200), key="summary", default="")
    summary_msg: Mapped[dict | None]          # what the decoder read in it: its template and values
    summary = sentence("summary", "summary_msg", 200)
    round_id: Mapped[int | None] = mapped_column(ForeignKey("rounds.id"), index=True)
