"""A player's standing: may he be put anywhere on the floor now? Asked in this one place by every
path that puts a player somewhere (a waiting list, a poker seat, a tournament entry, a seat at a live
game), so a ban holds in every room.

Bans (floor.models.Ban) have a scope: ``poker_room`` bars the poker area (its lists, its tables, its
tournaments: a player banned for the gaming day after his third warning plays no tournament either);
``live_games`` bars the live-game tables; ``house`` bars the whole floor. Warnings count towards a
poker-room ban (floor.poker.conduct) and bar nothing by themselves.

A ban also acts on where the player already is, in every area it bars: the poker room frees his
seats and lists itself (floor.poker.conduct); an area beside it (a running tournament) registers
what it does with ``when_banned``, and ``ban_takes_effect`` runs them all when a ban is made."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Callable

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from floor.actors import Actor
from floor.errors import Conflict
from floor.models import Ban, Player
from floor.settings import HouseSettings

# where a player is put -> the ban scopes that bar him there
AREAS = {"poker": ("poker_room", "house"), "live_games": ("live_games", "house")}
SCOPES = ("poker_room", "live_games", "house")


def ban_in_force(session: Session, player_id: int, area: str = "poker", at: datetime | None = None) -> Ban | None:
    """The ban that bars this player from this area now (the latest), or None."""
    at = at or datetime.now(timezone.utc)
    return session.execute(
        select(Ban).where(Ban.player_id == player_id, Ban.scope.in_(AREAS[area]), Ban.lifted_at.is_(None),
                          Ban.starts_at <= at, or_(Ban.expires_at.is_(None), Ban.expires_at > at))
        .order_by(Ban.id.desc()).limit(1)
    ).scalar_one_or_none()


def refuse_if_barred(session: Session, player_id: int, area: str, at: datetime | None = None) -> None:
    """Raise Conflict ``player_banned`` (with the reason and until when) if the player may not be put
    in this area now."""
    b = ban_in_force(session, player_id, area, at)
    if b is None:
        return
    player = session.get(Player, player_id)
    name = player.name if player is not None else f"#{player_id}"
    if b.expires_at is not None:
        raise Conflict("{player} is banned until {until}: {reason}", code="player_banned", player=name,
                       until=b.expires_at, reason=b.reason)
    raise Conflict("{player} is banned until further notice: {reason}", code="player_banned", player=name,
                   reason=b.reason)


# What each area does with a player in it when a ban barring that area takes effect: fn(session,
# actor, house, ban, now). Registered at import by the area (floor.tournaments.bans), like timer jobs.
_WHEN_BANNED: list[tuple[str, Callable]] = []


def when_banned(area: str):
    def deco(fn):
        _WHEN_BANNED.append((area, fn))
        return fn
    return deco


def ban_takes_effect(session: Session, actor: Actor, house: HouseSettings, ban: Ban, now: datetime) -> None:
    """Apply a new ban where the player already is, in each area its scope bars (in the caller's
    transaction: the ban and its effects commit together)."""
    for area, fn in _WHEN_BANNED:
        if ban.scope in AREAS[area] and ban.starts_at <= now:
            fn(session, actor, house, ban, now)
