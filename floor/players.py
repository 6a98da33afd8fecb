"""Players: registered in person at the floor (no phone registration), found by name or card."""
from __future__ import annotations

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from floor import audit
from floor.actors import Actor
from floor.errors import BadInput, Conflict, NotFound
from floor.models import Player


def player_json(p: Player) -> dict:
    return {"id": p.id, "name": p.name, "card_number": p.card_number, "phone": p.phone}


def create_player(session: Session, actor: Actor, name: str, card_number: str, phone: str | None = None) -> Player:
    name = (name or "").strip()
    card_number = (card_number or "").strip()
    if not name:
        raise BadInput("a player needs a name", field="name")
    if not card_number.isalnum():
        raise BadInput("a player-card number is letters and digits", field="card_number")
    if session.execute(select(Player.id).where(Player.card_number == card_number)).first():
        raise Conflict("card {card_number} already belongs to a player", code="card_taken", card_number=card_number)
    p = Player(name=name, card_number=card_number, phone=(phone or "").strip() or None)
    session.add(p)
    session.flush()
    audit.record(session, actor, "player.create", f"player:{p.id}", after=player_json(p))
    return p


def get_player(session: Session, player_id: int) -> Player:
    p = session.get(Player, player_id)
    if p is None:
        raise NotFound("no player {player_id}", player_id=player_id)
    return p


def search(session: Session, query: str, limit: int = 20) -> list[Player]:
    q = (query or "").strip()
    stmt = select(Player).order_by(Player.name).limit(limit)
    if q:
        like = f"%{q}%"
        stmt = stmt.where(or_(Player.name.ilike(like), Player.card_number.ilike(like)))
    return list(session.execute(stmt).scalars())
