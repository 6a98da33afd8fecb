"""The live feed of the players' passes: each pass has a room of its own (``pass:<id>``), sent its own
state (``pass.changed``, shaped as the pass's state route answers it), never another player's.

A game's list changes (someone added, called, seated, moved or taken off) or a seat at one of its
tables frees up: every pass whose player waits on that list may see another place or wait. The
changes of a transaction are gathered here and the states worked out once, as it commits: all the
affected passes in one pass over their lists (floor.poker.passes.views), not one page asking the
server again per phone, which with hundreds of phones open would load the API process with the same
list computed once per phone. An ended pass is sent why it ended (as its 410 answer says it).

What changed is noted here; floor.poker.passes works the states out and sends them as the
transaction commits."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import event, or_, select
from sqlalchemy.orm import Session

from floor.models import PlayerPass, WaitlistEntry

EVENT = "pass.changed"
_KEY = "floor_pass_changes"


def room(pass_id: int) -> str:
    return f"pass:{pass_id}"


@dataclass
class Changes:
    games: set[int] = field(default_factory=set)      # passes of the players waiting on these lists
    players: set[int] = field(default_factory=set)    # and these players' passes
    ended: set[int] = field(default_factory=set)      # passes ended in this transaction


def _changes(session: Session) -> Changes:
    return session.info.setdefault(_KEY, Changes())


def game_changed(session: Session, game_id: int) -> None:
    """The passes of every player waiting on this game's list get their new state."""
    _changes(session).games.add(game_id)


def player_changed(session: Session, player_id: int) -> None:
    _changes(session).players.add(player_id)


def end_passes(session: Session, player_id: int, reason: str, now: datetime) -> list[PlayerPass]:
    """End this player's passes in use (the page shows that it ended), telling each."""
    live = session.execute(select(PlayerPass).where(PlayerPass.player_id == player_id,
                                                    PlayerPass.ended_at.is_(None))).scalars().all()
    for p in live:
        p.ended_at, p.ended_reason = now, reason
    _changes(session).ended.update(p.id for p in live)
    session.flush()
    return live


def end_if_done(session: Session, player_id: int, now: datetime) -> None:
    """A pass lasts while its player is on a list: his last entry closed (seated, taken off), it ends."""
    still = session.execute(select(WaitlistEntry.id).where(WaitlistEntry.player_id == player_id,
                                                           WaitlistEntry.closed_at.is_(None)).limit(1)).first()
    if still is None:
        end_passes(session, player_id, "done", now)


def take_changes(session: Session) -> Changes | None:
    """What the transaction changed for the passes, now that it commits (floor.poker.passes sends it)."""
    return session.info.pop(_KEY, None)


def touched_passes(session: Session, changes: Changes) -> set[int]:
    """The passes still in use whose player waits on a changed list, or was changed himself."""
    touched = []
    if changes.games:
        touched.append(PlayerPass.player_id.in_(select(WaitlistEntry.player_id).where(
            WaitlistEntry.game_id.in_(sorted(changes.games)), WaitlistEntry.closed_at.is_(None))))
    if changes.players:
        touched.append(PlayerPass.player_id.in_(sorted(changes.players)))
    if not touched:
        return set()
    return set(session.execute(select(PlayerPass.id).where(PlayerPass.ended_at.is_(None), or_(*touched))).scalars())


@event.listens_for(Session, "after_rollback")
def _drop(session: Session) -> None:
    if session.in_nested_transaction():   # a savepoint, not the transaction itself
        return
    session.info.pop(_KEY, None)
