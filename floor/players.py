"""Players: registered in person at the floor (no phone registration), found by name or card."""
from __future__ import annotations

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from floor import audit
from floor.actors import Actor
from floor.errors import BadInput, Conflict, NotFound
from floor.models import Player
from floor.models.people import search_key


# The columns' widths: a longer value is refused, never cut (a name cut in the database is a
# different person on the next search).
NAME_MAX = Player.__table__.c.name.type.length
CARD_MAX = Player.__table__.c.card_number.type.length
PHONE_MAX = Player.__table__.c.phone.type.length


def _same_name(name: str):
    return func.lower(Player.name) == " ".join(name.split()).lower()


def likely_duplicates(session: Session, name: str, card_number: str = "") -> list[Player]:
    """Players already registered under the same name (any case) or the same card number."""
    name, card_number = " ".join((name or "").split()), (card_number or "").strip()
    terms = ([_same_name(name)] if name else []) + ([Player.card_number == card_number] if card_number else [])
    if not terms:
        return []
    return list(session.execute(select(Player).where(or_(*terms)).order_by(Player.name)).scalars())


def create_player(session: Session, actor: Actor, name: str, card_number: str, phone: str | None = None,
                  same_name_confirmed: bool = False) -> Player:
    """Register a player. A second player with the same name is refused as a likely duplicate until
    the floor confirms it is another person (namesakes exist); a card number is never shared."""
    name = " ".join((name or "").split())
    card_number = (card_number or "").strip()
    phone = (phone or "").strip() or None
    if not name:
        raise BadInput("a player needs a name", field="name")
    if len(name) > NAME_MAX:
        raise BadInput("a name has at most {n} characters", field="name", n=NAME_MAX)
    if not card_number.isalnum():
        raise BadInput("a player-card number is letters and digits", field="card_number")
    if len(card_number) > CARD_MAX:
        raise BadInput("a player-card number has at most {n} characters", field="card_number", n=CARD_MAX)
    if phone and len(phone) > PHONE_MAX:
        raise BadInput("a phone number has at most {n} characters", field="phone", n=PHONE_MAX)
    if session.execute(select(Player.id).where(Player.card_number == card_number)).first():
        raise Conflict("card {card_number} already belongs to a player", code="card_taken", field="card_number",
                       card_number=card_number)
    if not same_name_confirmed:
        namesake = session.execute(select(Player).where(_same_name(name)).limit(1)).scalar_one_or_none()
        if namesake is not None:
            raise Conflict("{name} is already registered (card {card_number}): the same person?", code="likely_duplicate",
                           field="name", name=namesake.name, card_number=namesake.card_number)
    p = Player(name=name, card_number=card_number, phone=phone)
    session.add(p)
    session.flush()
    audit.record(session, actor, "player.create", f"player:{p.id}", after={"id": p.id, "name": p.name, "card_number": p.card_number, "phone": p.phone})
    return p


def get_player(session: Session, player_id: int) -> Player:
    p = session.get(Player, player_id)
    if p is None:
        raise NotFound("no player {player_id}", player_id=player_id)
    return p


def _escaped(word: str) -> str:
    return word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def search(session: Session, query: str, limit: int = 20) -> list[Player]:
    """Players whose name or card number holds every word typed, in any order ("mart ali", "7000"),
    accents and case aside ("chloe" finds Chloé, "MULLER" Müller)."""
    stmt = select(Player).order_by(Player.name).limit(limit)
    for word in (query or "").split():
        like = "%" + _escaped(search_key(word)) + "%"
        stmt = stmt.where(or_(Player.name_key.like(like, escape="\\"),
                              Player.card_number.ilike("%" + _escaped(word) + "%", escape="\\")))
    return list(session.execute(stmt).scalars())
