"""The live feed of the players' passes: each pass has a room of its own (``pass:<id>``), told that
something of his changed, never what or whose: a pass page asks for its own entries again.

A game's list changes (someone added, called, seated, moved or taken off) or a seat at one of its
tables frees up: every pass whose player waits on that list may see another place or wait."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from floor import notify
from floor.models import PlayerPass, WaitlistEntry

EVENT = "pass.changed"


def room(pass_id: int) -> str:
    return f"pass:{pass_id}"


def _tell(session: Session, pass_ids) -> None:
    rooms = [room(i) for i in sorted(set(pass_ids))]
    if rooms:
        notify.publish(session, EVENT, {}, *rooms)


def game_changed(session: Session, game_id: int) -> None:
    """Tell the passes of every player waiting on this game's list."""
    ids = session.execute(select(PlayerPass.id).join(WaitlistEntry, WaitlistEntry.player_id == PlayerPass.player_id)
                          .where(WaitlistEntry.game_id == game_id, WaitlistEntry.closed_at.is_(None),
                                 PlayerPass.ended_at.is_(None))).scalars().all()
    _tell(session, ids)


def player_changed(session: Session, player_id: int) -> None:
    _tell(session, session.execute(select(PlayerPass.id).where(PlayerPass.player_id == player_id,
                                                               PlayerPass.ended_at.is_(None))).scalars().all())


def end_passes(session: Session, player_id: int, reason: str, now: datetime) -> list[PlayerPass]:
    """End this player's passes in use (the page shows that it ended), telling each."""
    live = session.execute(select(PlayerPass).where(PlayerPass.player_id == player_id,
                                                    PlayerPass.ended_at.is_(None))).scalars().all()
    for p in live:
        p.ended_at, p.ended_reason = now, reason
    _tell(session, [p.id for p in live])
    session.flush()
    return live


def end_if_done(session: Session, player_id: int, now: datetime) -> None:
    """A pass lasts while its player is on a list: his last entry closed (seated, taken off), it ends."""
    still = session.execute(select(WaitlistEntry.id).where(WaitlistEntry.player_id == player_id,
                                                           WaitlistEntry.closed_at.is_(None)).limit(1)).first()
    if still is None:
        end_passes(session, player_id, "done", now)
