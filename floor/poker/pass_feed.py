"""The live feed of the players' passes: each pass has a room of its own (``pass:<id>``), sent its own
state (``pass.changed``, shaped as the pass's state route answers it), never another player's.

A game's list changes (someone added, called, seated, moved or taken off) or a seat at one of its
tables frees up: every pass whose player waits on that list may see another place or wait. The
changes of a transaction are gathered here and the states worked out once, as it commits: all the
affected passes in one pass over their lists (floor.poker.passes.views), not one page asking the
server again per phone, which with hundreds of phones open would load the API process with the same
list computed once per phone. An ended pass is sent why it ended (as its 410 answer says it).

The states are worked out with the house settings of the process that sends live updates: the web
layer installs them with the emitter (``use_settings``). No emitter, nobody listens: nothing is
computed."""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timezone

from sqlalchemy import event, or_, select
from sqlalchemy.orm import Session

from floor import notify
from floor.models import PlayerPass, WaitlistEntry
from floor.settings import HouseSettings

log = logging.getLogger(__name__)

EVENT = "pass.changed"
_KEY = "floor_pass_changes"
_settings: HouseSettings | None = None


def room(pass_id: int) -> str:
    return f"pass:{pass_id}"


def use_settings(settings: HouseSettings | None) -> None:
    """The house settings the passes' states are worked out with (waits): the live feed's process's."""
    global _settings
    _settings = settings


@dataclass
class _Changes:
    games: set[int] = field(default_factory=set)      # passes of the players waiting on these lists
    players: set[int] = field(default_factory=set)    # and these players' passes
    ended: set[int] = field(default_factory=set)      # passes ended in this transaction


def _changes(session: Session) -> _Changes:
    return session.info.setdefault(_KEY, _Changes())


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


def publish(session: Session, changes: _Changes, settings: HouseSettings, now: datetime | None = None) -> None:
    """Send every pass the transaction touched its own state, computed now (the changes flushed)."""
    from floor.poker import passes     # passes uses this module to end passes: imported when needed
    now = now or datetime.now(timezone.utc)
    session.flush()
    touched = []
    if changes.games:
        touched.append(PlayerPass.player_id.in_(select(WaitlistEntry.player_id).where(
            WaitlistEntry.game_id.in_(sorted(changes.games)), WaitlistEntry.closed_at.is_(None))))
    if changes.players:
        touched.append(PlayerPass.player_id.in_(sorted(changes.players)))
    live = set(session.execute(select(PlayerPass.id).where(PlayerPass.ended_at.is_(None), or_(*touched)))
               .scalars()) if touched else set()
    gone = {}
    for p in session.execute(select(PlayerPass).where(PlayerPass.id.in_(sorted(live | changes.ended)))).scalars():
        why = passes.ended(p, now)
        if why is not None:
            gone[p.id] = why
    for pass_id, state in sorted(passes.views(session, settings, live - set(gone), now).items()):
        notify.publish(session, EVENT, state, room(pass_id))
    for pass_id, why in sorted(gone.items()):
        notify.publish(session, EVENT, why, room(pass_id))


@event.listens_for(Session, "before_commit")
def _before_commit(session: Session) -> None:
    if session.in_nested_transaction():
        return
    changes: _Changes | None = session.info.pop(_KEY, None)
    if changes is None or _settings is None or not notify.live():
        return
    try:
        publish(session, changes, _settings)
    except Exception:   # a live update must never stop the change it reports; the phone catches up on waking
        log.exception("could not work out the passes' states")


@event.listens_for(Session, "after_rollback")
def _drop(session: Session) -> None:
    if session.in_nested_transaction():   # a savepoint, not the transaction itself
        return
    session.info.pop(_KEY, None)
