"""Read-only questions about the poker room that every other poker module asks: who sits where, the
must-move chains, bans in force, who waits. The bottom layer of floor.poker: it imports no other
poker module, so seating, lists, conduct and must-move can all build on it without cycles."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from floor import standing
from floor.errors import NotFound
from floor.models import (
    Ban,
    ListCall,
    MustMoveLink,
    Player,
    Seat,
    SeatAssignment,
    Table,
    TableChangeRequest,
    WaitlistEntry,
)


@dataclass
class Chain:
    game_id: int
    tables: list[int]                      # table ids: [main, MM1, MM2, ...]
    numbers: dict[int, int] = field(default_factory=dict)   # table id -> table number
    links: list[MustMoveLink] = field(default_factory=list)

    def position(self, table_id: int) -> int:
        return self.tables.index(table_id)

    def number(self, table_id: int) -> int:
        return self.numbers[table_id]

    @property
    def tail(self) -> int:
        return self.tables[-1]

    def role(self, table_id: int) -> str:
        pos = self.position(table_id)
        return "main" if pos == 0 else f"mm{pos}"


def open_links(session: Session) -> list[MustMoveLink]:
    return list(session.execute(select(MustMoveLink).where(MustMoveLink.closed_at.is_(None))
                                .order_by(MustMoveLink.id)).scalars())


def chains(session: Session) -> list[Chain]:
    links = open_links(session)
    if not links:
        return []
    by_feeds = {lk.feeds_table_id: lk for lk in links}
    fed_children = {lk.table_id for lk in links}
    out = []
    for root in sorted({lk.feeds_table_id for lk in links} - fed_children):
        chain = Chain(game_id=by_feeds[root].game_id, tables=[root])
        while chain.tables[-1] in by_feeds:
            lk = by_feeds[chain.tables[-1]]
            chain.links.append(lk)
            chain.tables.append(lk.table_id)
        chain.numbers = dict(session.execute(select(Table.id, Table.number).where(Table.id.in_(chain.tables))).all())
        out.append(chain)
    return out


def chain_of(session: Session, table_id: int) -> Chain | None:
    for chain in chains(session):
        if table_id in chain.tables:
            return chain
    return None


def left_main_at(session: Session, player_id: int, chain: Chain) -> datetime | None:
    """When this player last left the chain's main table (a seat change there is not leaving it)."""
    return session.execute(select(func.max(SeatAssignment.left_at)).where(
        SeatAssignment.player_id == player_id, SeatAssignment.table_id == chain.tables[0],
        SeatAssignment.left_at.is_not(None), SeatAssignment.reason_left != "seat_change")).scalar()


def must_move_order(session: Session, table_id: int) -> list[SeatAssignment]:
    return list(session.execute(select(SeatAssignment).where(
        SeatAssignment.table_id == table_id, SeatAssignment.left_at.is_(None))
        .order_by(SeatAssignment.sat_at, SeatAssignment.id)).scalars())


def occupied(session: Session, table_id: int) -> int:
    seated = session.execute(select(func.count(SeatAssignment.id)).where(
        SeatAssignment.table_id == table_id, SeatAssignment.left_at.is_(None))).scalar()
    held = session.execute(select(func.count(ListCall.id)).where(
        ListCall.table_id == table_id, ListCall.closed_at.is_(None))).scalar()
    return seated + held


def active_ban(session: Session, player_id: int, at: datetime | None = None, scope: str = "poker_room") -> Ban | None:
    """The ban that bars him from the poker area (or, with another scope, that area): floor.standing."""
    return standing.ban_in_force(session, player_id, "live_games" if scope == "live_games" else "poker", at)


def open_assignment(session: Session, table_id: int, seat_number: int, lock: bool = False) -> SeatAssignment | None:
    q = (select(SeatAssignment).join(Seat, Seat.id == SeatAssignment.seat_id)
         .where(SeatAssignment.table_id == table_id, Seat.number == seat_number, SeatAssignment.left_at.is_(None)))
    if lock:
        q = q.with_for_update(of=SeatAssignment).execution_options(populate_existing=True)
    return session.execute(q).scalar_one_or_none()


def lock_player(session: Session, player_id: int) -> Player:
    p = session.execute(select(Player).where(Player.id == player_id).with_for_update()
                        .execution_options(populate_existing=True)).scalar_one_or_none()
    if p is None:
        raise NotFound("no player {player_id}", player_id=player_id)
    return p


def seats_in_game(session: Session, player_id: int, game_id: int) -> list[SeatAssignment]:
    return list(session.execute(
        select(SeatAssignment).join(Table, Table.id == SeatAssignment.table_id)
        .where(SeatAssignment.player_id == player_id, SeatAssignment.left_at.is_(None), Table.game_id == game_id)
    ).scalars())


def free_seats(session: Session, table: Table) -> list[int]:
    """Seat numbers nobody sits in and no call holds."""
    taken = set(session.execute(select(Seat.number).join(SeatAssignment, SeatAssignment.seat_id == Seat.id)
                                .where(SeatAssignment.table_id == table.id, SeatAssignment.left_at.is_(None))).scalars())
    held = set(session.execute(select(ListCall.seat_number).where(ListCall.table_id == table.id,
                                                                  ListCall.closed_at.is_(None))).scalars())
    return [s.number for s in table.seats if s.number not in taken and s.number not in held]


def open_table_changes(session: Session, to_table_id: int | None = None) -> list[TableChangeRequest]:
    q = select(TableChangeRequest).where(TableChangeRequest.closed_at.is_(None)).order_by(TableChangeRequest.id)
    if to_table_id is not None:
        q = q.where(TableChangeRequest.to_table_id == to_table_id)
    return list(session.execute(q).scalars())


def open_entries(session: Session, game_id: int) -> list[WaitlistEntry]:
    return list(session.execute(select(WaitlistEntry).where(
        WaitlistEntry.game_id == game_id, WaitlistEntry.closed_at.is_(None)).order_by(WaitlistEntry.position)).scalars())


def open_entries_of_player(session: Session, player_id: int) -> list[WaitlistEntry]:
    """The lists a player is on now (his open entries), in game order."""
    return list(session.execute(select(WaitlistEntry).where(
        WaitlistEntry.player_id == player_id, WaitlistEntry.closed_at.is_(None)).order_by(WaitlistEntry.game_id)).scalars())


def waiting_count(session: Session, game_id: int) -> int:
    return session.execute(select(func.count(WaitlistEntry.id)).where(
        WaitlistEntry.game_id == game_id, WaitlistEntry.closed_at.is_(None))).scalar()


def list_tables(session: Session, game_id: int | None = None) -> list[Table]:
    """Open poker tables that take players from the list (not those a must-move table fills)."""
    fed = set()
    for chain in chains(session):
        fed.update(chain.tables[:-1])
    q = select(Table).where(Table.kind == "poker", Table.status == "open", Table.tournament_id.is_(None)
                            ).order_by(Table.number)
    if game_id is not None:
        q = q.where(Table.game_id == game_id)
    return [t for t in session.execute(q).scalars() if t.id not in fed]
