"""What the floor, the board and the results page read: the tournament with its tables, entries,
moves and deal, a table's seats, the standings with payouts and bounties, and the results as CSV
(floor/web's schemas say how each looks)."""
from __future__ import annotations

from dataclasses import dataclass

import io
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from floor import spreadsheet
from floor import ledger
from floor.models import (Table, Tournament, TournamentDeal, TournamentDraw, TournamentElimination, TournamentEntry,
                          TournamentMove, TournamentTable)
from floor.settings import HouseSettings
from floor.games import tournament as rules
from floor.tournaments import balancing, clock, core, deals


def listing(session: Session) -> list[Tournament]:
    return list(session.execute(select(Tournament).order_by(Tournament.id.desc())).scalars())


@dataclass(frozen=True)
class Standing:
    """An entry with what he bought beside it: rebuys, add-ons and what they cost, fees included."""

    entry: TournamentEntry
    rebuys: int = 0
    add_ons: int = 0
    purchases_paid: int = 0
    banned: bool = False     # made to leave by a ban (his chips taken out of play)

    @property
    def table(self) -> int | None:
        """The number of the table he sits at (None unless seated)."""
        e = self.entry
        return e.table.number if e.table and e.seat else None


def _standings(session: Session, t: Tournament) -> list[Standing]:
    bought = purchases_by_entry(session, t)
    banned = set(session.execute(select(TournamentElimination.entry_id).where(
        TournamentElimination.tournament_id == t.id, TournamentElimination.ban_id.is_not(None))).scalars())
    return [Standing(e, (mine := bought.get(e.id, {})).get("rebuy", 0), mine.get("add_on", 0), mine.get("paid", 0),
                     e.id in banned)
            for e in core.entries(session, t)]


def purchases_by_entry(session: Session, t: Tournament) -> dict[int, dict]:
    out: dict[int, dict] = {}
    for p in core.purchases(session, t):
        row = out.setdefault(p.entry_id, {"rebuy": 0, "add_on": 0, "paid": 0})
        row[p.kind] += 1
        row["paid"] += p.price + p.fee
    return out


@dataclass(frozen=True)
class Detail:
    """A tournament with its tables, clock, entries, the moves the floor has yet to make, and its deal."""

    tournament: Tournament
    tables: list[TournamentTable]
    clock: dict
    entries: list[Standing]
    moves: list[TournamentMove]
    deal: TournamentDeal | None


def detail(session: Session, settings: HouseSettings, t: Tournament, now: datetime | None = None) -> Detail:
    now = core.now_or(now)
    return Detail(t, core.tables(session, t), clock.state(session, t, now, settings.tournament_payout_unit),
                  _standings(session, t), balancing.pending_moves(session, t),
                  deals.open_deal(session, t) or deals.paid_deal(session, t))


def tournament_at_table(session: Session, table_id: int) -> Tournament | None:
    """The running tournament this table is in play for, if any."""
    return session.execute(select(Tournament).join(TournamentTable, TournamentTable.tournament_id == Tournament.id)
                           .where(TournamentTable.table_id == table_id, TournamentTable.opened_at.is_not(None),
                                  TournamentTable.broken_at.is_(None), Tournament.status == "running")
                           .order_by(Tournament.id.desc())).scalars().first()


@dataclass(frozen=True)
class TableView:
    """A tournament table as its dealer terminal shows it."""

    tournament_id: int
    table: int
    table_id: int
    button_seat: int | None
    broken: bool
    clock: dict
    seats: list[TournamentEntry]        # by seat
    moves: list[TournamentMove]         # to or from this table, still to make
    hand: "TableHand | None"


def at_table(session: Session, settings: HouseSettings, t: Tournament, table: Table,
             now: datetime | None = None) -> TableView:
    """The dealer terminal of a tournament table: the clock (blinds and antes), its players by seat,
    the button, and the moves to or from this table still to make."""
    now = core.now_or(now)
    tt = next((x for x in core.tables(session, t) if x.table_id == table.id), None)
    seats = [e for e in sorted(core.entries(session, t, "seated"), key=lambda e: e.seat or 0) if e.table_id == table.id]
    moves = [m for m in balancing.pending_moves(session, t) if table.id in (m.from_table_id, m.to_table_id)]
    state = clock.state(session, t, now, settings.tournament_payout_unit)
    button = tt.button_seat if tt else None
    return TableView(t.id, table.number, table.id, button, bool(tt and tt.broken_at), state, seats, moves,
                     table_hand(state, {e.seat: e.chips for e in seats}, button))


@dataclass(frozen=True)
class TableHand:
    """The blinds and antes a tournament table posts for its next hand."""

    button: int
    small_blind_seat: int
    big_blind_seat: int
    first_preflop: int
    first_postflop: int
    heads_up: bool
    postings: tuple   # of floor.games.tournament Posting: seat, what, amount (chips)


def table_hand(state: dict, stacks: dict[int, int], button: int | None) -> TableHand | None:
    """The blinds and antes this table posts at the level on the clock (on a break: the next level),
    with the button where it was recorded (or, his seat empty, the next player clockwise); heads-up
    the button posts the small blind and acts first before the flop."""
    if len(stacks) < 2 or button is None or state["big_blind"] is None:
        return None
    seats = sorted(stacks)
    if button not in stacks:
        button = next((s for s in seats if s > button), seats[0])
    h = rules.hand_postings(state["small_blind"], state["big_blind"], state["ante"], state["big_blind_ante"], seats,
                            button, stacks=dict(stacks))
    p = h.positions
    return TableHand(p.button, p.small_blind, p.big_blind, p.first_preflop, p.first_postflop, len(seats) == 2,
                     h.postings)


def standings(session: Session, t: Tournament) -> list[Standing]:
    """Players still in by chips, then everyone placed (best first), then those out during late
    registration, not placed until it closes."""
    def key(s: Standing):
        e = s.entry
        group = 1 if e.place is not None else 2 if e.status == "out" else 0
        return group, e.place or 0, -e.chips, e.id
    return sorted((s for s in _standings(session, t) if s.entry.status != "refunded"), key=key)


def money(session: Session, t: Tournament) -> dict:
    """Where the money stands: paid in, paid out, and what each account holds (fees are the house's)."""
    n = core.entries_count(session, t)
    accounts = {k: ledger.balance(session, core.account(session, t, k)) for k in ("prize_pool", "bounties", "fees", "overlay")}
    bought = core.purchases(session, t)
    to_pool, to_house = core.purchases_in(session, t)
    return {"entries": n, "collected": core.pool_collected(session, t), "fees": n * t.fee + to_house,
            "bounty_stakes": n * t.bounty, "rebuys": sum(1 for p in bought if p.kind == "rebuy"),
            "add_ons": sum(1 for p in bought if p.kind == "add_on"), "purchases_to_pool": to_pool,
            "purchases_fees": to_house, "prize_pool": core.prize_pool(session, t), "accounts": accounts}


def draws(session: Session, t: Tournament) -> list[dict]:
    return [{"id": d.id, "kind": d.kind, "label": d.label, "seed_hex": d.seed_hex, "algorithm": d.algorithm,
             "result": d.result, "at": d.at}
            for d in session.execute(select(TournamentDraw).where(TournamentDraw.tournament_id == t.id)
                                     .order_by(TournamentDraw.id)).scalars()]


CSV_COLUMNS = ("place", "player", "entry", "prize_cents", "bounties_cents", "status", "rebuys", "add_ons",
               "purchases_cents")


def results_csv(session: Session, t: Tournament) -> str:
    out = io.StringIO()
    w = spreadsheet.writer(out)
    w.writerow(CSV_COLUMNS)
    for s in standings(session, t):
        e = s.entry
        w.writerow([e.place or "", e.player.name, e.number, e.prize, e.bounties_won, "banned" if s.banned else e.status,
                    s.rebuys, s.add_ons, s.purchases_paid])
    return out.getvalue()
