"""Must-move (004 "Règle du Must move", made exact), and opening and closing tables.

A game whose main table is full opens a must-move table; further must-move tables chain behind it
(main <- MM1 <- MM2). Each link applies the same rule between a table and the one it feeds:

- while the feeding table has more than ``mustmove_keep_main_full_above`` players (8), the fed table
  is kept at its maximum: every seat that opens there is filled at once by the first player in the
  feeding table's must-move order;
- with 8 or fewer, a move happens only when the fed table has fewer than ``mustmove_main_below`` (8).

The must-move order at a table is the order in which its players sat there. Who is due to move is
derived from the seats every time (whoever freed the seat: the floor, the dealer terminal, a job),
and published as "mustmove.due" to the floor and the chain's table terminals when a transaction that
changed seats at those tables commits.
"""
from __future__ import annotations

import logging
from dataclasses import asdict, dataclass
from datetime import datetime, timezone

from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from floor import audit, notify
from floor import tables as tables_svc
from floor.actors import Actor
from floor.errors import BadInput, Conflict, InvalidState, Msg, Term
from floor.gaming_day import end_of_gaming_day
from floor.models import Bet, ListCall, MustMoveLink, Round, SeatAssignment, Table
from floor.models.rounds import ACTIVE as ROUND_ACTIVE
from floor.poker import conduct, queries, seating, waitlist
from floor.poker.queries import Chain, chain_of, chains, must_move_order, occupied
from floor.settings import HouseSettings

log = logging.getLogger(__name__)


def _now(now: datetime | None) -> datetime:
    return now or datetime.now(timezone.utc)


# --- The rule, pure ----------------------------------------------------------------------------------

def moves_due(fed_count: int, fed_seats: int, feeding_count: int, keep_full_above: int = 8,
              fed_below: int = 8) -> int:
    """How many players of the feeding table (MM1) must move to the fed table (main) now.

    Applied one move at a time, each move changing both counts: MM1 at 9 and main at 9 of 10 -> 1;
    MM1 at 8, main at 7 -> 1; MM1 at 8, main at 8 -> 0."""
    n = 0
    while fed_count < fed_seats and feeding_count > 0:
        if not (feeding_count > keep_full_above or fed_count < fed_below):
            break
        fed_count += 1
        feeding_count -= 1
        n += 1
    return n


# --- Chains ------------------------------------------------------------------------------------------


@dataclass
class DueMove:
    game_id: int
    from_table_id: int
    from_table: int
    to_table_id: int
    to_table: int
    assignment_id: int
    player_id: int
    player_name: str
    from_seat: int
    order: int            # 1 = first in the feeding table's must-move order

    def as_dict(self) -> dict:
        return asdict(self)


def due_moves(session: Session, settings: HouseSettings, chain: Chain | None = None) -> list[DueMove]:
    out: list[DueMove] = []
    for ch in ([chain] if chain else chains(session)):
        for i in range(1, len(ch.tables)):
            fed, feeding = session.get(Table, ch.tables[i - 1]), session.get(Table, ch.tables[i])
            if fed.status != "open" or feeding.status != "open":
                continue
            order = must_move_order(session, feeding.id)
            n = moves_due(occupied(session, fed.id), fed.seat_count, len(order),
                          settings.mustmove_keep_main_full_above, settings.mustmove_main_below)
            for k, a in enumerate(order[:n], start=1):
                out.append(DueMove(ch.game_id, feeding.id, feeding.number, fed.id, fed.number, a.id, a.player_id,
                                   a.player.name, a.seat.number, k))
    return out


@dataclass(frozen=True)
class InOrder:
    """A player in a must-move table's order: ``order`` 1 moves first; ``due``: his move is due now."""

    order: int
    assignment: SeatAssignment
    due: bool


@dataclass(frozen=True)
class ChainTable:
    table_id: int
    table: int
    role: str                   # main | mm1 | mm2 ...
    order: list[InOrder]        # empty for the main table


@dataclass(frozen=True)
class ChainState:
    """A must-move chain as the floor sees it: each table's order, the moves due, the break prompts."""

    game_id: int
    tables: list[ChainTable]
    due: list[DueMove]
    breaks: list[dict]


def chain_state(session: Session, chain: Chain, settings: HouseSettings) -> ChainState:
    due = due_moves(session, settings, chain)
    due_ids = {d.assignment_id for d in due}
    tables = [ChainTable(tid, chain.number(tid), chain.role(tid),
                         [InOrder(k, a, a.id in due_ids) for k, a in enumerate(must_move_order(session, tid), start=1)]
                         if i > 0 else [])
              for i, tid in enumerate(chain.tables)]
    return ChainState(chain.game_id, tables, due, break_prompts(session, chain))


def break_prompts(session: Session, chain: Chain) -> list[dict]:
    """When a must-move table and the table it feeds fit together at the fed one, the floor breaks it;
    not while players of the game wait on its list or are called to it (it was opened for them)."""
    if queries.waiting_count(session, chain.game_id):
        return []
    out = []
    for i in range(1, len(chain.tables)):
        fed, feeding = session.get(Table, chain.tables[i - 1]), session.get(Table, chain.tables[i])
        called = session.execute(select(func.count(ListCall.id)).where(ListCall.table_id == feeding.id,
                                                                      ListCall.closed_at.is_(None))).scalar()
        n_fed, n_feeding = occupied(session, fed.id), occupied(session, feeding.id)
        if not called and n_fed + n_feeding <= fed.seat_count:
            out.append({"table_id": feeding.id, "table": feeding.number, "into_table": fed.number,
                        "players": n_feeding, "into_players": n_fed, "into_seats": fed.seat_count})
    return out


# --- Moving, refusing, breaking ---------------------------------------------------------------------

def _lock_table(session: Session, table_id: int) -> Table:
    return session.execute(select(Table).where(Table.id == table_id).with_for_update(of=Table)
                           .execution_options(populate_existing=True)).scalar_one()


def _due_for(session: Session, settings: HouseSettings, from_table: Table, player_id: int) -> tuple[Chain, DueMove]:
    chain = chain_of(session, from_table.id)
    if chain is None or chain.position(from_table.id) == 0:
        raise Conflict("table {from_table} is not a must-move table", code="not_mustmove", from_table=from_table.number)
    _lock_table(session, chain.tables[chain.position(from_table.id) - 1])
    a = session.execute(select(SeatAssignment).where(
        SeatAssignment.table_id == from_table.id, SeatAssignment.player_id == player_id,
        SeatAssignment.left_at.is_(None)).with_for_update().execution_options(populate_existing=True)
    ).scalar_one_or_none()
    if a is None:
        raise Conflict("this player no longer sits at table {from_table} (moved or left already)",
                       code="not_seated", from_table=from_table.number)
    due = [d for d in due_moves(session, settings, chain) if d.from_table_id == from_table.id]
    for d in due:
        if d.player_id == player_id:
            return chain, d
    if due:
        raise Conflict("{player} is not due to move: {player_name} is first in table {from_table}'s must-move order", code="not_due", player=a.player.name, player_name=due[0].player_name, from_table=from_table.number)
    raise Conflict("nobody at table {from_table} is due to move now", code="not_due", from_table=from_table.number)


def move(session: Session, actor: Actor, settings: HouseSettings, from_table: Table, player_id: int,
         seat_number: int | None = None, now: datetime | None = None) -> SeatAssignment:
    """The due player moves to the table his must-move table feeds, with his chips (no buy-in)."""
    now = _now(now)
    _chain, due = _due_for(session, settings, from_table, player_id)
    to_table = session.get(Table, due.to_table_id)
    seat_number = seating.pick_seat(session, to_table, seat_number)
    seating.check_seat_free(session, to_table, seat_number)
    a = session.get(SeatAssignment, due.assignment_id)
    seating.leave(session, actor, settings, a, "must_move", None, now)
    new = seating.sit(session, actor, settings, to_table, seat_number, player_id, 0, now, arrival="must_move")
    audit.record(session, actor, "mustmove.move", f"player:{player_id}",
                 after={"from_table": from_table.number, "to_table": to_table.number, "seat": seat_number,
                        "order": due.order})
    return new


def refuse(session: Session, actor: Actor, settings: HouseSettings, from_table: Table, player_id: int,
           reason: str | None = None, now: datetime | None = None):
    """He refuses to move: he stops for the rest of the gaming day (a ban, with who decided it), leaves
    his seat and every list; the next in order becomes due."""
    now = _now(now)
    waitlist.lock_player_lists(session, player_id)
    _chain, due = _due_for(session, settings, from_table, player_id)
    until = end_of_gaming_day(now, settings.timezone, settings.gaming_day_rollover)
    # A sentence kept as its template and values (said in the reader's language); what the floor
    # person typed stays as typed, inside it.
    if (reason or "").strip():
        text = Msg("refused to move from table {from_table} to table {to_table} (must-move): {note}",
                   from_table=due.from_table, to_table=due.to_table, note=reason.strip())
    else:
        text = Msg("refused to move from table {from_table} to table {to_table} (must-move)",
                   from_table=due.from_table, to_table=due.to_table)
    b = conduct.ban(session, actor, player_id, text, until, now=now, house=settings)
    seating.leave(session, actor, settings, session.get(SeatAssignment, due.assignment_id), "refused_move", None, now)
    waitlist.close_player_entries(session, actor, player_id, "banned", now)
    audit.record(session, actor, "mustmove.refuse", f"player:{player_id}",
                 after={"from_table": due.from_table, "to_table": due.to_table, "ban": b.id,
                        "until": until.isoformat()})
    return b


def break_table(session: Session, actor: Actor, settings: HouseSettings, table: Table,
                now: datetime | None = None) -> list[SeatAssignment]:
    """Break a must-move table into the table it feeds: its players move in must-move order."""
    now = _now(now)
    chain = chain_of(session, table.id)
    if chain is None or chain.position(table.id) == 0:
        raise Conflict("table {table} is not a must-move table", code="not_mustmove", table=table.number)
    pos = chain.position(table.id)
    fed = _lock_table(session, chain.tables[pos - 1])
    for call in session.execute(select(ListCall).where(ListCall.table_id == table.id,
                                                       ListCall.closed_at.is_(None))).scalars().all():
        waitlist.cancel_call(session, actor, call.id, now, "table broken")
    order = must_move_order(session, table.id)
    free = queries.free_seats(session, fed)
    if len(order) > len(free):
        raise Conflict("table {table}'s {players} players do not fit into table {fed} ({free} free seats)",
                       code="does_not_fit", table=table.number, players=len(order), fed=fed.number, free=len(free))
    moved = []
    for a, seat in zip(order, free):
        player_id = a.player_id
        seating.leave(session, actor, settings, a, "must_move", None, now)
        moved.append(seating.sit(session, actor, settings, fed, seat, player_id, 0, now, arrival="must_move"))
    link = chain.links[pos - 1]
    link.closed_at = now
    child = chain.links[pos] if pos < len(chain.links) else None
    if child is not None:
        child.closed_at = now
        session.flush()
        session.add(MustMoveLink(game_id=chain.game_id, table_id=child.table_id, feeds_table_id=fed.id,
                                 opened_at=now, opened_by=actor.staff_id))
    table.status = "closed"
    session.flush()
    audit.record(session, actor, "table.break", f"table:{table.id}",
                 after={"into_table": fed.number, "moved": [m.player_id for m in moved]})
    _changed(session, settings, chain.tables)
    return moved


# --- Opening and closing tables ---------------------------------------------------------------------

def _changed(session: Session, settings: HouseSettings, table_ids) -> None:
    seating.touched(session, settings, table_ids)
    for tid in table_ids:
        notify.publish(session, "tables.changed", {"table_id": tid}, "floor", "board", notify.table_room(tid))


def open_table(session: Session, actor: Actor, settings: HouseSettings, table: Table,
               must_move: bool | None = None, feeds: Table | None = None,
               now: datetime | None = None) -> MustMoveLink | None:
    """Open a table. A poker table opened beside an open table of the same game is, by default, a
    must-move table chained behind the game's last table (main <- MM1 <- MM2)."""
    now = _now(now)
    table = _lock_table(session, table.id)
    tables_svc.refuse_if_tournament(session, table)
    if table.status == "open":
        raise Conflict("table {table} is already open", code="already_open", table=table.number)
    before = table.status
    link = None
    if table.kind == "poker":
        others = list(session.execute(select(Table).where(Table.game_id == table.game_id, Table.status == "open",
                                                          Table.id != table.id).order_by(Table.number)).scalars())
        if must_move is None:
            must_move = bool(others)
        if must_move:
            if feeds is None:
                game_chains = [c for c in chains(session) if c.game_id == table.game_id]
                if len(game_chains) == 1:
                    feeds = session.get(Table, game_chains[0].tail)
                elif len(others) == 1 and not game_chains:
                    feeds = others[0]
                else:
                    raise BadInput("say which table the must-move table feeds", field="feeds_table")
            tables_svc.refuse_if_tournament(session, feeds)
            if feeds.id == table.id or feeds.game_id != table.game_id or feeds.status != "open":
                raise BadInput("table {feeds} is not an open table of the same game", field="feeds_table", feeds=feeds.number)
            chain = chain_of(session, feeds.id)
            if chain is not None and chain.tail != feeds.id:
                raise BadInput("table {feeds} already has a must-move table; chain behind table {tail}",
                               field="feeds_table", feeds=feeds.number, tail=chain.number(chain.tail))
            link = MustMoveLink(game_id=table.game_id, table_id=table.id, feeds_table_id=feeds.id,
                                opened_at=now, opened_by=actor.staff_id)
            session.add(link)
    elif must_move:
        raise BadInput("must-move is for poker tables", field="must_move")
    table.status = "open"
    session.flush()
    audit.record(session, actor, "table.open", f"table:{table.id}", before={"status": before},
                 after={"status": "open", "feeds_table": feeds.number if link is not None else None})
    _changed(session, settings, [table.id] + ([feeds.id] if link is not None else []))
    notify.publish(session, "lists.changed", {"game_id": table.game_id}, "floor", "board")
    return link


def close_table(session: Session, actor: Actor, settings: HouseSettings, table: Table, now: datetime | None = None) -> Table:
    """Close an empty table (a must-move table with players is broken instead). A table game with a
    round running is refused: its bets are on the layout and its dealer is dealing."""
    now = _now(now)
    table = _lock_table(session, table.id)
    tables_svc.refuse_if_tournament(session, table)   # its players are the tournament's, not the floor's
    if table.status == "closed":
        raise Conflict("table {table} is already closed", code="already_closed", table=table.number)
    running = session.execute(select(Round).where(Round.table_id == table.id, Round.status.in_(ROUND_ACTIVE))).scalar()
    if running is not None:   # never a round left taking bets on a closed table
        bets = session.execute(select(func.count(Bet.id)).where(Bet.round_id == running.id)).scalar()
        raise Conflict("table {table} has round {round} running ({status}; bets on the layout: {bets}): finish or void it first",
                       code="round_running", table=table.number, round=running.number, status=Term(running.status), bets=bets)
    seated = must_move_order(session, table.id)
    if seated:
        raise Conflict("{players} players still sit at table {table}; move them first (or break a must-move table)",
                       code="table_not_empty", players=len(seated), table=table.number)
    chain = chain_of(session, table.id)
    if chain is not None:
        pos = chain.position(table.id)
        if pos < len(chain.tables) - 1:
            raise Conflict("table {feeder} feeds table {table}; break it first", code="feeds_into",
                           feeder=chain.number(chain.tables[pos + 1]), table=table.number)
        chain.links[pos - 1].closed_at = now
    for call in session.execute(select(ListCall).where(ListCall.table_id == table.id,
                                                       ListCall.closed_at.is_(None))).scalars().all():
        waitlist.cancel_call(session, actor, call.id, now, "table closed")
    for req in queries.open_table_changes(session, table.id):
        req.closed_at, req.outcome = now, "cancelled"
    before = table.status
    table.status = "closed"
    session.flush()
    audit.record(session, actor, "table.close", f"table:{table.id}", before={"status": before},
                 after={"status": "closed"})
    _changed(session, settings, [table.id] + (chain.tables if chain else []))
    notify.publish(session, "lists.changed", {"game_id": table.game_id}, "floor", "board")
    return table


# --- Live: publish who is due whenever seats of a chain changed -------------------------------------

def publish_due(session: Session, table_ids: set[int], settings: HouseSettings) -> None:
    for chain in chains(session):
        if not set(chain.tables) & table_ids:
            continue
        payload = {"game_id": chain.game_id, "tables": [chain.number(t) for t in chain.tables],
                   "moves": [d.as_dict() for d in due_moves(session, settings, chain)]}
        notify.publish(session, "mustmove.due", payload, "floor", *[notify.table_room(t) for t in chain.tables])


@event.listens_for(Session, "before_commit")
def _before_commit(session: Session) -> None:
    if session.in_nested_transaction():
        return
    changed: seating.SeatChanges | None = session.info.pop(seating.SEAT_CHANGES_KEY, None)
    if not changed:
        return
    try:
        publish_due(session, changed.table_ids, changed.settings)
    except Exception:   # a live update must never stop the change it reports
        log.exception("could not work out who is due to move")


@event.listens_for(Session, "after_rollback")
def _drop(session: Session) -> None:
    if session.in_nested_transaction():   # a savepoint, not the transaction itself
        return
    session.info.pop(seating.SEAT_CHANGES_KEY, None)


__all__ = ["moves_due", "chains", "chain_of", "due_moves", "move", "refuse", "break_table", "open_table",
           "close_table", "InvalidState"]
