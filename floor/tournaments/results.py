"""What the floor, the board and the results page read: the tournament as JSON, the seats, the
standings with payouts and bounties, and the results as CSV."""
from __future__ import annotations

from dataclasses import dataclass

import csv
import io
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from floor import ledger
from floor.models import Table, Tournament, TournamentDraw, TournamentEntry, TournamentMove, TournamentTable
from floor.settings import HouseSettings
from floor.games import tournament as rules
from floor.tournaments import balancing, clock, core, deals


def listing(session: Session) -> list[Tournament]:
    return list(session.execute(select(Tournament).order_by(Tournament.id.desc())).scalars())


def entry_json(e: TournamentEntry, bought: dict | None = None) -> dict:
    """``bought``: entry id -> {"rebuy": n, "add_on": n, "paid": cents} (``purchases_by_entry``)."""
    mine = (bought or {}).get(e.id, {})
    return {"id": e.id, "player_id": e.player_id, "player_name": e.player.name, "number": e.number,
            "status": e.status, "table": e.table.number if e.table and e.seat else None, "seat": e.seat,
            "chips": e.chips, "bounty": e.bounty, "place": e.place, "prize": e.prize,
            "bounties_won": e.bounties_won, "registered_at": e.registered_at,
            "rebuys": mine.get("rebuy", 0), "add_ons": mine.get("add_on", 0), "purchases_paid": mine.get("paid", 0)}


def purchases_by_entry(session: Session, t: Tournament) -> dict[int, dict]:
    out: dict[int, dict] = {}
    for p in core.purchases(session, t):
        row = out.setdefault(p.entry_id, {"rebuy": 0, "add_on": 0, "paid": 0})
        row[p.kind] += 1
        row["paid"] += p.price + p.fee
    return out


def move_json(session: Session, m: TournamentMove) -> dict:
    e = session.get(TournamentEntry, m.entry_id)
    return {"id": m.id, "entry_id": m.entry_id, "player_name": e.player.name, "reason": m.reason,
            "from_table": session.get(Table, m.from_table_id).number, "from_seat": m.from_seat,
            "to_table": session.get(Table, m.to_table_id).number, "to_seat": m.to_seat, "at": m.at,
            "done": m.done_at is not None}


def tournament_json(session: Session, settings: HouseSettings, t: Tournament, now: datetime | None = None) -> dict:
    now = core.now_or(now)
    deal = deals.open_deal(session, t) or deals.paid_deal(session, t)
    bought = purchases_by_entry(session, t)
    return {
        "id": t.id, "name": t.name, "status": t.status, "game_id": t.game_id, "game": t.game.name,
        "scheduled_at": t.scheduled_at, "started_at": t.started_at, "finished_at": t.finished_at,
        "buy_in": t.buy_in, "fee": t.fee, "bounty_kind": t.bounty_kind, "bounty": t.bounty,
        "starting_stack": t.structure["starting_stack"],
        "late_registration_levels": t.structure["late_registration_levels"],
        "max_reentries": t.max_reentries, "max_entries": t.max_entries, "seats_per_table": t.seats_per_table,
        "final_table_size": t.final_table_size, "guarantee": t.guarantee, "tie_rule": t.tie_rule,
        "structure": t.structure, "payout_table": t.payout_table,
        "tables": [{"table": tt.table.number, "break_rank": tt.break_rank, "button_seat": tt.button_seat,
                    "in_play": tt.opened_at is not None and tt.broken_at is None,
                    "broken": tt.broken_at is not None} for tt in core.tables(session, t)],
        "clock": clock.state(session, t, now, settings.tournament_payout_unit),
        "entries": [entry_json(e, bought) for e in core.entries(session, t)],
        "moves": [move_json(session, m) for m in balancing.pending_moves(session, t)],
        "deal": deal_json(deal) if deal else None,
    }


def tournament_at_table(session: Session, table_id: int) -> Tournament | None:
    """The running tournament this table is in play for, if any."""
    return session.execute(select(Tournament).join(TournamentTable, TournamentTable.tournament_id == Tournament.id)
                           .where(TournamentTable.table_id == table_id, TournamentTable.opened_at.is_not(None),
                                  TournamentTable.broken_at.is_(None), Tournament.status == "running")
                           .order_by(Tournament.id.desc())).scalars().first()


def table_view(session: Session, settings: HouseSettings, t: Tournament, table: Table,
               now: datetime | None = None) -> dict:
    """The dealer terminal of a tournament table: the clock (blinds and antes), its players by seat,
    the button, and the moves to or from this table still to make."""
    now = core.now_or(now)
    tt = next((x for x in core.tables(session, t) if x.table_id == table.id), None)
    seats = [{"seat": e.seat, "entry_id": e.id, "player_name": e.player.name, "chips": e.chips, "bounty": e.bounty}
             for e in sorted(core.entries(session, t, "seated"), key=lambda e: e.seat or 0) if e.table_id == table.id]
    moves = [move_json(session, m) for m in balancing.pending_moves(session, t)
             if table.id in (m.from_table_id, m.to_table_id)]
    state = clock.state(session, t, now, settings.tournament_payout_unit)
    return {"tournament_id": t.id, "table": table.number, "table_id": table.id,
            "button_seat": tt.button_seat if tt else None, "broken": bool(tt and tt.broken_at),
            "clock": state, "seats": seats, "moves": moves,
            "hand": table_hand(state, {s["seat"]: s["chips"] for s in seats}, tt.button_seat if tt else None)}


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


def deal_json(d) -> dict:
    return {"id": d.id, "method": d.method, "save": d.save, "status": d.status, "entry_ids": d.entry_ids,
            "stacks": d.stacks, "prizes": d.prizes, "amounts": d.amounts, "agreed": d.agreed}


def standings(session: Session, t: Tournament) -> list[dict]:
    """Players still in by chips, then everyone placed (best first), then those out during late
    registration, not placed until it closes."""
    bought = purchases_by_entry(session, t)
    rows = [entry_json(e, bought) for e in core.entries(session, t) if e.status != "refunded"]

    def key(r):
        group = 1 if r["place"] is not None else 2 if r["status"] == "out" else 0
        return group, r["place"] or 0, -r["chips"], r["id"]
    return sorted(rows, key=key)


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
    w = csv.writer(out)
    w.writerow(CSV_COLUMNS)
    for r in standings(session, t):
        w.writerow([r["place"] or "", r["player_name"], r["number"], r["prize"], r["bounties_won"], r["status"],
                    r["rebuys"], r["add_ons"], r["purchases_paid"]])
    return out.getvalue()
