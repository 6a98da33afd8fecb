"""After players go out: alternates take the freed seats, then tables are broken and balanced, and
the final table drawn, by the pure rules (floor.games.tournament.rebalance) from a recorded seed.
The moves are applied at once (the seats in the database are the truth) and shown to the floor until
someone confirms each was made."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from floor import audit, notify
from floor.actors import Actor
from floor.errors import InvalidState, NotFound
from floor.games import tournament as rules
from floor.models import Tournament, TournamentDraw, TournamentMove
from floor.tournaments import core, registration


def _apply(session: Session, t: Tournament, plan: rules.TablePlan, draw_row: TournamentDraw,
           now: datetime) -> list[TournamentMove]:
    in_play = {tt.table.number: tt for tt in core.tables(session, t, in_play=True)}
    movers = {m.player: core.entry(session, t, m.player) for m in plan.moves}
    for e in movers.values():        # off their seats first: a redraw may give a seat someone leaves
        e.seat = None
    session.flush()
    out = []
    for m in plan.moves:
        e = movers[m.player]
        e.table, e.seat = in_play[m.to_table].table, m.to_seat
        mv = TournamentMove(tournament_id=t.id, entry_id=e.id, draw_id=draw_row.id, reason=m.reason,
                            from_table_id=in_play[m.from_table].table_id, from_seat=m.from_seat,
                            to_table_id=in_play[m.to_table].table_id, to_seat=m.to_seat, at=now)
        session.add(mv)
        out.append(mv)
    for number in plan.broken:
        in_play[number].broken_at = now
        core.release_table(in_play[number])
    if plan.final_table is not None:
        in_play[plan.final_table.table].button_seat = plan.final_table.button_seat
    session.flush()
    return out


def rebalance(session: Session, t: Tournament, now: datetime) -> list[TournamentMove]:
    """Seat the alternates, then break, balance or draw the final table as the players left require."""
    registration.seat_alternates(session, t, now)
    layout = {n: row for n, row in core.layout(session, t).items() if row}
    if len(layout) < 2:
        return []
    order = [tt.table.number for tt in core.tables(session, t, in_play=True) if tt.table.number in layout]
    n = session.execute(select(func.count()).select_from(TournamentDraw).where(
        TournamentDraw.tournament_id == t.id, TournamentDraw.kind == "tables")).scalar_one() + 1
    draw = core.new_draw(t, f"tables:{n}")
    plan = rules.rebalance(draw, layout, t.seats_per_table, order, t.final_table_size)
    empty = [tt for tt in core.tables(session, t, in_play=True) if tt.table.number not in layout]
    for tt in empty:            # a table every player left (all out) is broken without a move
        tt.broken_at = now
        core.release_table(tt)
    if not plan.changed:
        return []
    row = core.record_draw(session, t, "tables", draw, {
        "moves": [{"entry_id": m.player, "from": [m.from_table, m.from_seat], "to": [m.to_table, m.to_seat],
                   "reason": m.reason} for m in plan.moves],
        "broken": list(plan.broken),
        "final_table": ({"table": plan.final_table.table, "button_seat": plan.final_table.button_seat,
                         "cards": [[s, str(c)] for s, c in plan.final_table.cards]} if plan.final_table else None)},
        now)
    moves = _apply(session, t, plan, row, now)
    core.publish(session, t, "tournament.moves", {"moves": [m.id for m in moves], "broken": list(plan.broken),
                                                  "final_table": plan.final_table is not None})
    for table_id in {m.from_table_id for m in moves} | {m.to_table_id for m in moves}:
        notify.publish(session, "tournament.seats", {"tournament_id": t.id}, notify.table_room(table_id))
    return moves


def pending_moves(session: Session, t: Tournament) -> list[TournamentMove]:
    return list(session.execute(select(TournamentMove).where(
        TournamentMove.tournament_id == t.id, TournamentMove.done_at.is_(None)).order_by(TournamentMove.id)).scalars())


def confirm_move(session: Session, actor: Actor, tournament_id: int, move_id: int,
                 now: datetime | None = None) -> TournamentMove:
    """The floor made the move (the player and his chips are at the new seat)."""
    now = core.now_or(now)
    t = core.lock(session, tournament_id)
    mv = session.get(TournamentMove, move_id)
    if mv is None or mv.tournament_id != t.id:
        raise NotFound("no move {move_id}", move_id=move_id)
    if mv.done_at is not None:
        raise InvalidState("that move was already made", code="move_done")
    mv.done_at = now
    audit.record(session, actor, "tournament.move", f"tournament:{t.id}",
                 after={"move_id": mv.id, "entry_id": mv.entry_id, "to_table_id": mv.to_table_id, "to_seat": mv.to_seat})
    core.publish(session, t, "tournament.moves", {"done": mv.id})
    return mv
