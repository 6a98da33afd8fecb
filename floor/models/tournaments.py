"""Live poker tournaments: the event and its templates, entries, the tables given to it, the clock's
pauses, every random draw (with its seed), eliminations, the moves the floor makes, and deals.

The rules themselves are pure (floor.games.tournament); these rows are what the floor recorded so
any result can be redone: each draw keeps its seed and label, each elimination the chips at the start
of the hand, each deal the stacks it was computed from. Money moves only through the ledger (the
tournament's prize-pool, bounty and fee accounts); the amounts here say what was paid, not balances.

Concurrency: every change locks the tournament row first (SELECT ... FOR UPDATE), so two tablets
acting on one tournament queue up; partial unique indexes keep one player per seat and one live entry
per player in the database itself.
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, BigInteger, CheckConstraint, ForeignKey, Index, String, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from floor.models.base import Base, utcnow
from floor.models.people import Player
from floor.models.tables import Game, Table

TOURNAMENT_STATUSES = ("registering", "running", "finished", "cancelled")
BOUNTY_KINDS = ("none", "knockout", "progressive", "mystery")
# registered: paid, waiting for the start; seated: playing; alternate: paid, waiting for a seat;
# out: eliminated (place set); finished: the winner, or placed by a deal; refunded: unregistered
# or cancelled before playing.
ENTRY_STATUSES = ("registered", "alternate", "seated", "out", "finished", "refunded")
LIVE = text("status IN ('registered', 'alternate', 'seated')")
SEATED = text("status = 'seated'")


class TournamentTemplate(Base):
    """A weekly event kept ready: creating it is choosing the template and the start time."""

    __tablename__ = "tournament_templates"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120), unique=True)
    settings: Mapped[dict] = mapped_column(JSON)   # the tournament's fields, as the API takes them
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    created_by_name: Mapped[str] = mapped_column(String(120))


class Tournament(Base):
    __tablename__ = "tournaments"
    __table_args__ = (
        CheckConstraint("buy_in >= 0 AND fee >= 0 AND bounty >= 0 AND guarantee >= 0", name="money"),
        CheckConstraint("seats_per_table BETWEEN 2 AND 12", name="seats_per_table"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    template_id: Mapped[int | None] = mapped_column(ForeignKey("tournament_templates.id"))
    scheduled_at: Mapped[datetime | None]
    buy_in: Mapped[int] = mapped_column(BigInteger)            # cents to the prize pool
    fee: Mapped[int] = mapped_column(BigInteger, default=0)    # cents to the house
    bounty_kind: Mapped[str] = mapped_column(String(12), default="none")
    bounty: Mapped[int] = mapped_column(BigInteger, default=0)  # cents per entry to the bounty account
    mystery_envelopes: Mapped[list] = mapped_column(JSON, default=list)  # cents, mystery bounties only
    structure: Mapped[dict] = mapped_column(JSON)              # floor.games.tournament.structure_to_data
    max_reentries: Mapped[int] = mapped_column(default=0)      # per player; 0: freezeout
    max_entries: Mapped[int] = mapped_column(default=0)        # 0: as many as there are seats
    seats_per_table: Mapped[int] = mapped_column(default=9)
    final_table_size: Mapped[int] = mapped_column(default=9)
    guarantee: Mapped[int] = mapped_column(BigInteger, default=0)
    payout_table: Mapped[list] = mapped_column(JSON)           # payout_table_to_data
    tie_rule: Mapped[str] = mapped_column(String(12))           # fixed at creation from the house setting
    status: Mapped[str] = mapped_column(String(12), default="registering")
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    step_index: Mapped[int] = mapped_column(default=0)         # the step the clock last announced
    hands: Mapped[int] = mapped_column(default=0)              # hands with an elimination, numbered
    # late registration closed early (the house's bubble rule): the guarantee no longer applies
    registration_closed_at: Mapped[datetime | None]
    guarantee_void: Mapped[bool] = mapped_column(default=False)
    # The guarantee is house money: above the two-person threshold a second person approves it
    # before the start (floor.ledger's check, purpose overlay); the one who set it cannot.
    created_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    guarantee_approved_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    guarantee_approved_by_name: Mapped[str | None] = mapped_column(String(120))
    # A cancellation asked for and waiting for a second person: {reason, rule, stacks, by, by_name, at}
    cancel_request: Mapped[dict | None] = mapped_column(JSON)
    # hand for hand: None outside it; 0 entered, no hand dealt yet; else the hand number being played
    hfh_hand: Mapped[int | None]
    hfh_left: Mapped[int | None]                               # players in when that hand was dealt (None between hands)
    hfh_done: Mapped[list] = mapped_column(JSON, default=list)  # table numbers that finished that hand
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    version: Mapped[int] = mapped_column(default=1)

    game: Mapped[Game] = relationship(lazy="joined")

    __mapper_args__ = {"version_id_col": version}


class TournamentTable(Base):
    """A table given to the tournament, in the house's breaking order (rank 1 breaks first)."""

    __tablename__ = "tournament_tables"
    __table_args__ = (UniqueConstraint("tournament_id", "table_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    break_rank: Mapped[int]
    button_seat: Mapped[int | None]
    opened_at: Mapped[datetime | None]
    broken_at: Mapped[datetime | None]

    table: Mapped[Table] = relationship(lazy="joined")

    @property
    def in_play(self) -> bool:
        return self.opened_at is not None and self.broken_at is None

    @property
    def broken(self) -> bool:
        return self.broken_at is not None


class TournamentEntry(Base):
    """One buy-in of one player: his first entry is number 1, each re-entry the next number."""

    __tablename__ = "tournament_entries"
    __table_args__ = (
        UniqueConstraint("tournament_id", "player_id", "number"),
        Index("uq_tournament_entries_live_player", "tournament_id", "player_id", unique=True,
              sqlite_where=LIVE, postgresql_where=LIVE),
        Index("uq_tournament_entries_seat", "tournament_id", "table_id", "seat", unique=True,
              sqlite_where=SEATED, postgresql_where=SEATED),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    number: Mapped[int] = mapped_column(default=1)
    status: Mapped[str] = mapped_column(String(12))
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"))
    seat: Mapped[int | None]
    chips: Mapped[int] = mapped_column(BigInteger, default=0)   # last count the floor recorded
    bounty: Mapped[int] = mapped_column(BigInteger, default=0)  # cents on his head now
    place: Mapped[int | None]
    prize: Mapped[int] = mapped_column(BigInteger, default=0)   # cents paid for his place or deal
    bounties_won: Mapped[int] = mapped_column(BigInteger, default=0)
    paid_with: Mapped[str] = mapped_column(String(10))          # cash | balance
    registered_at: Mapped[datetime] = mapped_column(default=utcnow)
    registered_by_name: Mapped[str] = mapped_column(String(120))
    out_at: Mapped[datetime | None]

    player: Mapped[Player] = relationship(lazy="joined")
    table: Mapped[Table | None] = relationship(lazy="joined")


class TournamentPurchase(Base):
    """Chips bought by a player still in: a rebuy or the add-on, its price to the prize pool and its
    fee to the house (both through the ledger)."""

    __tablename__ = "tournament_purchases"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    entry_id: Mapped[int] = mapped_column(ForeignKey("tournament_entries.id"), index=True)
    kind: Mapped[str] = mapped_column(String(8))              # rebuy | add_on
    price: Mapped[int] = mapped_column(BigInteger)            # cents to the prize pool
    fee: Mapped[int] = mapped_column(BigInteger, default=0)   # cents to the house
    chips: Mapped[int] = mapped_column(BigInteger)
    paid_with: Mapped[str] = mapped_column(String(10))
    status: Mapped[str] = mapped_column(String(10), default="paid")   # paid | refunded
    at: Mapped[datetime] = mapped_column(default=utcnow)
    by_name: Mapped[str] = mapped_column(String(120))


class TournamentPause(Base):
    """The clock stopped, with why; resumed_at None while it still is."""

    __tablename__ = "tournament_pauses"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    paused_at: Mapped[datetime]
    resumed_at: Mapped[datetime | None]
    reason: Mapped[str] = mapped_column(String(200))
    by_name: Mapped[str] = mapped_column(String(120))


class TournamentDraw(Base):
    """A random choice: its seed (recorded before the draw), its label and what came out."""

    __tablename__ = "tournament_draws"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    kind: Mapped[str] = mapped_column(String(20))   # seat_draw | late_seat | balance | tie | mystery
    label: Mapped[str] = mapped_column(String(80))
    seed_hex: Mapped[str] = mapped_column(String(128))
    algorithm: Mapped[str] = mapped_column(String(60))
    result: Mapped[dict] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(default=utcnow)


class TournamentElimination(Base):
    """A player out: the hand, his chips when it started, who knocked him out, what he got."""

    __tablename__ = "tournament_eliminations"
    __table_args__ = (UniqueConstraint("entry_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    entry_id: Mapped[int] = mapped_column(ForeignKey("tournament_entries.id"))
    hand: Mapped[int]                         # players out on the same hand share it
    place: Mapped[int]
    chips_at_start: Mapped[int] = mapped_column(BigInteger)
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"))
    seat: Mapped[int | None]
    winners: Mapped[list] = mapped_column(JSON, default=list)   # entry ids of the pot's winners
    prize: Mapped[int] = mapped_column(BigInteger, default=0)
    bounty_paid: Mapped[int] = mapped_column(BigInteger, default=0)   # to the winners in cash
    at: Mapped[datetime] = mapped_column(default=utcnow)
    by_name: Mapped[str] = mapped_column(String(120))
    # a player made to leave by a ban (floor.standing): which one, and his chips, taken out of play
    ban_id: Mapped[int | None] = mapped_column(ForeignKey("bans.id"))
    chips_removed: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")


class TournamentMove(Base):
    """A move the floor must make (balance, a table broken, the final table); done_at once made."""

    __tablename__ = "tournament_moves"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    entry_id: Mapped[int] = mapped_column(ForeignKey("tournament_entries.id"))
    draw_id: Mapped[int] = mapped_column(ForeignKey("tournament_draws.id"))
    reason: Mapped[str] = mapped_column(String(12))    # balance | break | final_table
    from_table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    from_seat: Mapped[int]
    to_table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    to_seat: Mapped[int]
    at: Mapped[datetime] = mapped_column(default=utcnow)
    done_at: Mapped[datetime | None]

    entry: Mapped[TournamentEntry] = relationship()
    from_table: Mapped[Table] = relationship(foreign_keys=[from_table_id])
    to_table: Mapped[Table] = relationship(foreign_keys=[to_table_id])

    @property
    def done(self) -> bool:
        return self.done_at is not None


class TournamentDeal(Base):
    """A deal offered at the final table: computed from the stacks, paid once everyone agreed."""

    __tablename__ = "tournament_deals"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    method: Mapped[str] = mapped_column(String(10))      # icm | chip_chop
    save: Mapped[int] = mapped_column(BigInteger, default=0)
    entry_ids: Mapped[list] = mapped_column(JSON)
    stacks: Mapped[list] = mapped_column(JSON)
    prizes: Mapped[list] = mapped_column(JSON)           # the prizes left, first place down
    amounts: Mapped[list] = mapped_column(JSON)          # in the order of entry_ids
    agreed: Mapped[list] = mapped_column(JSON, default=list)   # entry ids that said yes
    status: Mapped[str] = mapped_column(String(10), default="offered")   # offered | agreed | paid | withdrawn
    at: Mapped[datetime] = mapped_column(default=utcnow)
    by_name: Mapped[str] = mapped_column(String(120))
    # Everyone agreed ("agreed"): the payouts wait for a second person, neither the one who offered
    # the deal nor the one who recorded the last agreement (floor.ledger's check, purpose deal).
    offered_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    agreed_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    approved_by: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    approved_by_name: Mapped[str | None] = mapped_column(String(120))
