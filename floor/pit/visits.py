"""Who sits at a live-game seat: the player identified there by his player card (read by the table's
scanner) or picked by the dealer, from then until he leaves.

A seat's bets are funded by the chips on the table, so a visit row is what ties them to a player for
his rating. Identifying a player at a seat closes the visit of whoever was there ("replaced") and
any open visit of his at another seat of the same table (he moved). Every change is audited and
sent to the table's room and the floor.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from floor import audit, notify, standing
from floor.actors import Actor
from floor.errors import BadInput, Conflict, InvalidState, NotFound
from floor.models import Player, PlayerVisit, Table

LIVE_GAMES = ("roulette", "baccarat", "blackjack", "casino_holdem")


@dataclass(frozen=True)
class SeatedVisit:
    """A visit and the player it is."""

    visit: PlayerVisit
    player: Player


def visit_record(v: PlayerVisit, player: Player | None = None) -> dict:
    """What the audit records and the live event (visit.started, visit.ended) carry of a visit."""
    return {"id": v.id, "player_id": v.player_id, "player": player.name if player else None,
            "card_number": player.card_number if player else None, "table_id": v.table_id, "seat": v.seat,
            "started_at": v.started_at.isoformat(), "ended_at": v.ended_at.isoformat() if v.ended_at else None,
            "identified_by": v.identified_by, "end_reason": v.end_reason}


def _table(session: Session, table_id: int) -> Table:
    table = session.get(Table, table_id)
    if table is None:
        raise NotFound("no table {table_id}", table_id=table_id)
    if table.kind not in LIVE_GAMES:
        raise InvalidState("table {table} is a {kind} table: players are rated at the live games", code="wrong_game",
                           table=table.number, kind=table.kind)
    return table


def _check_seat(table: Table, seat) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= table.seat_count:
        raise BadInput("table {table} has seats 1 to {seat_count}", field="seat", table=table.number,
                       seat_count=table.seat_count)
    return seat


def player_by_card(session: Session, card_number: str) -> Player:
    card = (card_number or "").strip()
    if not card or not card.isalnum() or len(card) > 40:
        raise BadInput("a player-card number is letters and digits", field="card_number")
    p = session.execute(select(Player).where(Player.card_number == card)).scalar_one_or_none()
    if p is None:
        raise NotFound("no player with card {card_number}", code="unknown_card", card_number=card)
    return p


def _close(session: Session, actor: Actor, where, reason: str, at: datetime) -> list[PlayerVisit]:
    open_ = list(session.execute(select(PlayerVisit).where(*where, PlayerVisit.ended_at.is_(None))
                                 .with_for_update()).scalars())
    for v in open_:
        session.execute(update(PlayerVisit).where(PlayerVisit.id == v.id, PlayerVisit.ended_at.is_(None))
                        .values(ended_at=at, ended_by=actor.name, end_reason=reason))
        session.refresh(v)
        audit.record(session, actor, "visit.end", f"visit:{v.id}", after=visit_record(v), at=at)
        notify.publish(session, "visit.ended", visit_record(v), notify.table_room(v.table_id), "floor")
    return open_


def identify(session: Session, actor: Actor, table_id: int, seat: int, *, player_id: int | None = None,
             card_number: str | None = None, at: datetime | None = None) -> PlayerVisit:
    """The player at ``seat``: by his card (``card_number``, as the scanner read it) or picked by the
    dealer (``player_id``). The same player again at the same seat keeps his visit."""
    at = at or datetime.now(timezone.utc)
    table = _table(session, table_id)
    seat = _check_seat(table, seat)
    if (player_id is None) == (card_number is None):
        raise BadInput("say who: a player card or a player", field="player_id")
    if card_number is not None:
        player, how = player_by_card(session, card_number), "card"
    else:
        player, how = session.get(Player, player_id), "dealer"
        if player is None:
            raise NotFound("no player {player_id}", player_id=player_id)
    standing.refuse_if_barred(session, player.id, "live_games", at)
    here = session.execute(select(PlayerVisit).where(PlayerVisit.table_id == table.id, PlayerVisit.seat == seat,
                                                     PlayerVisit.ended_at.is_(None))).scalar_one_or_none()
    if here is not None and here.player_id == player.id:
        return here
    _close(session, actor, (PlayerVisit.table_id == table.id, PlayerVisit.seat == seat), "replaced", at)
    _close(session, actor, (PlayerVisit.table_id == table.id, PlayerVisit.player_id == player.id), "moved", at)
    v = PlayerVisit(player_id=player.id, table_id=table.id, seat=seat, started_at=at, identified_by=how,
                    started_by=actor.name)
    session.add(v)
    try:
        with session.begin_nested():
            session.flush()
    except IntegrityError:
        raise Conflict("seat {seat} at table {table} was just taken by another terminal", code="seat_taken",
                       seat=seat, table=table.number) from None
    audit.record(session, actor, "visit.start", f"visit:{v.id}", after=visit_record(v, player), at=at)
    notify.publish(session, "visit.started", visit_record(v, player), notify.table_room(table.id), "floor")
    return v


def leave(session: Session, actor: Actor, table_id: int, seat: int, at: datetime | None = None) -> PlayerVisit:
    """The player at ``seat`` leaves."""
    at = at or datetime.now(timezone.utc)
    table = _table(session, table_id)
    seat = _check_seat(table, seat)
    closed = _close(session, actor, (PlayerVisit.table_id == table.id, PlayerVisit.seat == seat), "left", at)
    if not closed:
        raise Conflict("nobody is identified at seat {seat} of table {table}", code="seat_empty", seat=seat,
                       table=table.number)
    return closed[0]


def card_read(session: Session, table_id: int, card_number: str, at: datetime) -> None:
    """The table's scanner read a player card: the dealer's terminal is told whose it is and asks
    the dealer for his seat (the scanner cannot know it)."""
    p = session.execute(select(Player).where(Player.card_number == card_number)).scalar_one_or_none()
    notify.publish(session, "scanner.player_card", {"table_id": table_id, "card_number": card_number,
                                                    "player_id": p.id if p else None, "player": p.name if p else None,
                                                    "at": at.isoformat()}, notify.table_room(table_id))


def close_table(session: Session, actor: Actor, table_id: int, at: datetime | None = None) -> int:
    """Every visit at the table ends (the table closes)."""
    return len(_close(session, actor, (PlayerVisit.table_id == table_id,), "table_closed",
                      at or datetime.now(timezone.utc)))


def seated(session: Session, table_id: int) -> list[SeatedVisit]:
    """The open visits of a table, by seat, with the players' names."""
    rows = session.execute(select(PlayerVisit, Player).join(Player, Player.id == PlayerVisit.player_id)
                           .where(PlayerVisit.table_id == table_id, PlayerVisit.ended_at.is_(None))
                           .order_by(PlayerVisit.seat)).all()
    return [SeatedVisit(v, p) for v, p in rows]
