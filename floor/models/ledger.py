"""Double-entry ledger: accounts with a running balance, and transfers between two of them.

Every movement of money is one Transfer row (never edited) that takes ``amount`` from one account
and gives it to another, and moves both running balances in the same transaction. So the balances
always sum to zero, and a player's balance is held at or above zero by the database itself (the
CHECK below, on a row the UPDATE locks).

Accounts are named by a unique key: ``player:<id>`` (a remote player's balance), ``cage`` (money
coming in and going out through the cashier: its balance is minus what players hold),
``tray:<table>`` (the table's chip tray: pays winners, takes losers), ``in_play:<table>`` (stakes
on the layout until the round is settled or voided), ``commission:<table>`` (the house's
commission, e.g. 5 % on baccarat banker wins) and ``chips:<table>`` (chips in front of the seated
players, what the dealer terminal's seat bets are funded by).
"""
from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import BigInteger, CheckConstraint, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from floor.models.base import Base, utcnow, whole_cents

# A tournament has its own: ``prize_pool:t<id>``, ``bounties:t<id>``, ``fees:t<id>`` (the house's
# revenue) and ``overlay:t<id>`` (what the house adds to reach a guarantee).
ACCOUNT_KINDS = ("player", "cage", "tray", "in_play", "commission", "chips", "prize_pool", "bounties", "fees",
                 "overlay")


class TransferKind(StrEnum):
    """Why money moved; stored and sent as its value."""

    # the cage
    DEPOSIT = "deposit"
    WITHDRAWAL = "withdrawal"
    # a round: the stake onto the layout, then its settlement (or a correction by a ruling)
    STAKE = "stake"
    REFUND = "refund"
    RETURN = "return"
    WIN = "win"
    LOSE = "lose"
    COMMISSION = "commission"
    CORRECTION = "correction"
    # a tournament
    BUY_IN = "buy_in"
    FEE = "fee"
    BOUNTY_STAKE = "bounty_stake"
    REBUY = "rebuy"
    ADD_ON = "add_on"
    PRIZE = "prize"
    BOUNTY = "bounty"
    OVERLAY = "overlay"
    CANCELLATION = "cancellation"
    CANCELLATION_KEPT = "cancellation_kept"
    # a table's chips: a fill (cage -> tray), a credit (tray -> cage), chips sold for a buy-in (tray -> chips)
    FILL = "fill"
    TABLE_CREDIT = "table_credit"
    CHIPS_SOLD = "chips_sold"


class CashRequestKind(StrEnum):
    CREDIT = "credit"
    DEBIT = "debit"


class Account(Base):
    __tablename__ = "accounts"
    __table_args__ = (
        CheckConstraint("kind <> 'player' OR balance >= 0", name="player_not_negative"),
        *whole_cents("balance"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(40), unique=True)
    kind: Mapped[str] = mapped_column(String(20))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), index=True)
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"))
    balance: Mapped[int] = mapped_column(BigInteger, default=0)   # cents, kept by ledger.post only
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Transfer(Base):
    """``amount`` cents from one account to another. Never updated, never deleted."""

    __tablename__ = "transfers"
    __table_args__ = (
        CheckConstraint("amount > 0", name="amount_positive"),
        CheckConstraint("from_account_id <> to_account_id", name="two_accounts"),
        *whole_cents("amount"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    from_account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    to_account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    kind: Mapped[str] = mapped_column(String(20))   # a TransferKind
    round_id: Mapped[int | None] = mapped_column(ForeignKey("rounds.id"), index=True)
    bet_id: Mapped[int | None] = mapped_column(ForeignKey("bets.id"), index=True)
    memo: Mapped[str | None] = mapped_column(String(200))


class CashRequest(Base):
    """A cashier's credit or debit above the house's two-person threshold: it waits here, and moves
    only when a second, different pit boss approves it. Decided once (the conditional update on
    ``decision``), never edited afterwards."""

    __tablename__ = "cash_requests"
    __table_args__ = tuple(whole_cents("amount"))

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    kind: Mapped[str] = mapped_column(String(10))          # a CashRequestKind
    amount: Mapped[int] = mapped_column(BigInteger)
    memo: Mapped[str | None] = mapped_column(String(200))
    requested_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    requested_by_name: Mapped[str] = mapped_column(String(120))
    requested_at: Mapped[datetime] = mapped_column(default=utcnow)
    decision: Mapped[str | None] = mapped_column(String(10))   # approved | rejected | withdrawn; None: waiting
    decided_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    decided_by_name: Mapped[str | None] = mapped_column(String(120))
    decided_at: Mapped[datetime | None]
    reason: Mapped[str | None] = mapped_column(String(200))

    @property
    def state(self) -> str:
        """pending until decided, then approved | rejected | withdrawn."""
        return self.decision or "pending"
