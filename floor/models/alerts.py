"""Alerts shown on the floor tablets and the pit console until someone acknowledges them."""
from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from floor.errors import Msg
from floor.models.base import Base, utcnow


class AlertKind(StrEnum):
    """What an alert is about; stored and sent as its value."""

    # the wheel's integrity (a pit boss closes them, with a note)
    POSSIBLE_BIAS = "possible_bias"
    DIRECTION_NOT_ALTERNATING = "direction_not_alternating"
    SPEED_OUT_OF_RANGE = "speed_out_of_range"
    PACE_BELOW_TARGET = "pace_below_target"
    # rounds and the devices that feed them
    ROUND_HELD = "round_held"
    RULING_PENDING = "ruling_pending"
    CARD_NO_ROUND = "card_no_round"
    IMPOSSIBLE_CARD = "impossible_card"
    RESULT_WITHOUT_NO_MORE_BETS = "result_without_no_more_bets"
    DEVICE_FAULT = "device_fault"
    DEVICE_LOST = "device_lost"
    DEVICE_DISCONNECTED = "device_disconnected"
    DEVICE_FRAME_REFUSED = "device_frame_refused"
    BETTING_PAUSED = "betting_paused"     # the device process behind its line
    LATE_BETS = "late_bets"               # bets placed after the line closed betting, refunded
    CLOCK_STEP = "clock_step"             # the host's wall clock jumped
    ENTRY_BY_HAND = "entry_by_hand"       # a table switched to entry by hand (its device not used) or back
    # the poker room
    PLAYER_BANNED = "player_banned"
    CHIP_PICKUP = "chip_pickup"
    SEAT_AT_RISK = "seat_at_risk"
    SEAT_FORFEITED = "seat_forfeited"
    # a table's chips: its inventory win differs from its rounds' win by more than the house allows
    TABLE_RECONCILIATION = "table_reconciliation"


class AlertSeverity(StrEnum):
    INFO = "info"
    WARNING = "warning"
    CRITICAL = "critical"


class Alert(Base):
    __tablename__ = "alerts"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    kind: Mapped[str] = mapped_column(String(40), index=True)
    severity: Mapped[str] = mapped_column(String(10), default=AlertSeverity.INFO)
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"))
    message: Mapped[str] = mapped_column(String(300))
    data: Mapped[dict | None]
    acknowledged_at: Mapped[datetime | None]
    acknowledged_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    acknowledged_note: Mapped[str | None] = mapped_column(String(500))   # what the pit boss found

    @property
    def sentence(self) -> str:
        """The message as a Msg when it was raised as one, so the web layer says it in the reader's
        language; else the stored text."""
        kept = (self.data or {}).get("msg")
        return Msg.from_json(kept) if isinstance(kept, dict) and "template" in kept else self.message

    @property
    def acknowledged(self) -> bool:
        return self.acknowledged_at is not None
