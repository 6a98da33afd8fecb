"""Everything the floor tablet shows, derived from the database in one read: tables with their seats
(held by calls, away, due to move, must-move order), the lists, the proposals for free seats, the
must-move chains and their due moves, the prompts (open a must-move table, break one, pick up chips),
table-change requests and open alerts."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from floor import alerts
from floor import tables as tables_svc
from floor.errors import Msg
from floor.models import Game, ListCall, Seat, SeatAway, Table
from floor.poker import mustmove, queries, seating, waitlist
from floor.settings import HouseSettings


def open_prompts(session: Session, settings: HouseSettings, lists: list[waitlist.GameList]) -> list[dict]:
    """A game whose tables taking list players are full, with enough players waiting, and a closed
    table of that game: the floor is prompted to open it (as a must-move table if one is open)."""
    out = []
    for lst in lists:
        game_id = lst.game.id
        waiting = sum(1 for e in lst.entries if e.entry.status == "waiting")
        if waiting < settings.table_open_min_waiting:
            continue
        takers = queries.list_tables(session, game_id)
        if any(queries.free_seats(session, t) for t in takers):
            continue
        closed = session.execute(select(Table).where(Table.game_id == game_id, Table.status == "closed")
                                 .order_by(Table.number).limit(1)).scalar_one_or_none()
        if closed is None:
            continue
        mm = bool(takers)
        out.append({"game_id": game_id, "table_id": closed.id, "table": closed.number, "must_move": mm,
                    "waiting": waiting,
                    "message": Msg("{game}: tables full, {waiting} waiting: open table {table} as a must-move table",
                                   game=lst.game.name, waiting=waiting, table=closed.number) if mm else
                    Msg("{game}: {waiting} waiting: open table {table}", game=lst.game.name, waiting=waiting,
                        table=closed.number)})
    return out


def floor_state(session: Session, settings: HouseSettings, now: datetime | None = None) -> dict:
    now = now or datetime.now(timezone.utc)
    tables = tables_svc.floor_tables(session)
    chains = queries.chains(session)
    role = {}
    for ch in chains:
        for tid in ch.tables:
            role[tid] = {"role": ch.role(tid), "chain_main": ch.number(ch.tables[0]),
                         "feeds": ch.number(ch.tables[ch.position(tid) - 1]) if ch.position(tid) else None}
    calls = {(c.table_id, c.seat_number): c for c in session.execute(
        select(ListCall).where(ListCall.closed_at.is_(None))).scalars()}
    aways = {a_id: at for a_id, at in session.execute(
        select(SeatAway.assignment_id, SeatAway.away_at).where(SeatAway.back_at.is_(None))).all()}
    seated = tables_svc.occupants(session)
    due = mustmove.due_moves(session, settings)
    due_by_assignment = {d.assignment_id: d for d in due}
    orders = {}
    for ch in chains:
        for tid in ch.tables[1:]:
            for k, a in enumerate(queries.must_move_order(session, tid), start=1):
                orders[a.id] = k
    seat_ids = {(tid, n): sid for sid, tid, n in session.execute(select(Seat.id, Seat.table_id, Seat.number)).all()}
    for t in tables:
        t["mustmove"] = role.get(t["id"])
        for s in t["seats"]:
            a = seated.get(seat_ids[(t["id"], s["number"])])
            c = calls.get((t["id"], s["number"]))
            s["call"] = c
            s["arrival"] = a.arrival if a else None
            s["away_since"] = aways[a.id].isoformat() if a and a.id in aways else None
            s["mm_order"] = orders.get(a.id) if a else None
            d = due_by_assignment.get(a.id) if a else None
            s["due_to"] = d.to_table if d else None
    lists = waitlist.lists(session, settings, now)
    return {
        "now": now.isoformat(),
        "call_response_minutes": settings.call_response_minutes,
        "tables": tables,
        "lists": lists,
        "proposals": [p.as_dict() for p in waitlist.proposals(session, settings, now)],
        "mustmove": [mustmove.chain_state(session, ch, settings) for ch in chains],
        "due": [d.as_dict() for d in due],
        "open_prompts": open_prompts(session, settings, lists),
        "pickups": seating.pickup_due(session, settings, now),
        "table_changes": queries.open_table_changes(session),
        "alerts": alerts.open_alerts(session),
    }


__all__ = ["floor_state", "open_prompts", "Game", "func"]
