"""A listed player's pass: his place, his wait and his call on his own phone, without a login.

The floor issues it when he is on a list (the tablet shows it as a QR code, or prints it on a slip).
The link carries an unguessable token (``secrets.token_urlsafe``, 192 bits); only its sha256 is kept.
It reads and acts on that player's open entries and nothing else, and lasts until the end of the
gaming day, until he is on no list any more (seated or taken off), or until the floor withdraws it;
a new pass for him withdraws the one before. From it he may answer a call ("on my way") or take
himself off a list. Every issue, withdrawal, answer and taking off is audited."""
from __future__ import annotations

import hashlib
import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone

from sqlalchemy import event, select
from sqlalchemy.orm import Session

from floor import audit, notify
from floor.actors import Actor
from floor.errors import N_, BadInput, Conflict, FloorError, NotFound
from floor.gaming_day import end_of_gaming_day
from floor.models import Game, ListCall, Player, PlayerPass, WaitlistEntry
from floor.poker import pass_feed, queries, waitlist
from floor.settings import HouseSettings

log = logging.getLogger(__name__)

TOKEN_BYTES = 24    # 192 bits of secrets.token_urlsafe: 32 characters in the link


class PassEnded(FloorError):
    """The pass was good once and is no more (withdrawn, replaced, the day over, no list left)."""
    code = "pass_ended"
    status = 410


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _now(now: datetime | None) -> datetime:
    return now or datetime.now(timezone.utc)


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo else at.replace(tzinfo=timezone.utc)


@dataclass(frozen=True)
class Issued:
    pass_: PlayerPass
    token: str           # said once, to be put in the link: never stored


def issue(session: Session, actor: Actor, settings: HouseSettings, player_id: int,
          now: datetime | None = None) -> Issued:
    """A pass for a player on at least one list; the one he had before stops working."""
    now = _now(now)
    if actor.staff_id is None:
        raise BadInput("only staff give a player his pass", field="actor")
    player = session.get(Player, player_id)
    if player is None:
        raise NotFound("no player {player_id}", player_id=player_id)
    if not queries.open_entries_of_player(session, player_id):
        raise Conflict("{player} is on no list: a pass shows a player's lists", code="not_listed", player=player.name)
    replaced = pass_feed.end_passes(session, player_id, "replaced", now)
    token = secrets.token_urlsafe(TOKEN_BYTES)
    p = PlayerPass(player_id=player_id, token_hash=token_hash(token), issued_at=now, issued_by=actor.staff_id,
                   issued_by_name=actor.name,
                   expires_at=end_of_gaming_day(now, settings.timezone, settings.gaming_day_rollover))
    session.add(p)
    session.flush()
    audit.record(session, actor, "pass.issue", f"player:{player_id}",
                 after={"pass": p.id, "expires_at": p.expires_at.isoformat(), "replaced": [x.id for x in replaced]})
    return Issued(p, token)


def revoke(session: Session, actor: Actor, player_id: int, now: datetime | None = None) -> list[PlayerPass]:
    """The floor withdraws the player's pass: its page says so from now on."""
    now = _now(now)
    player = session.get(Player, player_id)
    if player is None:
        raise NotFound("no player {player_id}", player_id=player_id)
    ended = pass_feed.end_passes(session, player_id, "revoked", now)
    if not ended:
        raise Conflict("{player} has no pass in use", code="no_pass", player=player.name)
    audit.record(session, actor, "pass.revoke", f"player:{player_id}", after={"passes": [p.id for p in ended]})
    return ended


def holder(session: Session, token: str, now: datetime | None = None) -> PlayerPass:
    """The pass a link's token opens, if it is still good."""
    now = _now(now)
    if not token or len(token) > 100:
        raise NotFound("no such pass", code="no_pass")
    p = session.execute(select(PlayerPass).where(PlayerPass.token_hash == token_hash(token))
                        .execution_options(populate_existing=True)).scalar_one_or_none()
    if p is None:
        raise NotFound("no such pass", code="no_pass")
    gone = ended(p, now)
    if gone is not None:
        raise gone
    return p


def ended(p: PlayerPass, now: datetime) -> PassEnded | None:
    """Why this pass no longer opens his lists (what his page says), or None while it is good."""
    if p.ended_at is not None:
        if p.ended_reason in ("revoked", "replaced"):
            return PassEnded(N_("the floor has withdrawn this pass"), code="pass_revoked")
        return PassEnded(N_("this pass has ended: you are on no waiting list now"), code="pass_done")
    if now >= _aware(p.expires_at):
        return PassEnded(N_("this pass ended with the gaming day"), code="pass_expired")
    return None


def player_actor(p: PlayerPass) -> Actor:
    """The player himself, acting from his pass (the audit names the pass as his terminal)."""
    return Actor(p.player.name, "player", f"pass:{p.id}")


# --- what his page shows ---------------------------------------------------------------------------

@dataclass(frozen=True)
class PassCall:
    table: int
    seat: int
    called_at: datetime
    expires_at: datetime
    on_my_way_at: datetime | None


@dataclass(frozen=True)
class PassList:
    entry_id: int
    game: Game
    status: str                          # waiting | called
    place: int
    waiting: int                         # how many are on that list
    estimated_wait_minutes: int | None
    estimated_wait_range: list[int] | None
    call: PassCall | None


@dataclass(frozen=True)
class PassView:
    player: str                          # his own name, as the board would show it
    lists: list[PassList]
    expires_at: datetime
    at: datetime


def view(session: Session, settings: HouseSettings, p: PlayerPass, now: datetime | None = None) -> PassView:
    """His lists, each with his place and wait as the board shows them, and his call. Nobody else's
    name is in it."""
    return views(session, settings, [p.id], now)[p.id]


def views(session: Session, settings: HouseSettings, pass_ids, now: datetime | None = None) -> dict[int, PassView]:
    """The views of several passes (by id, whether still good or not: the caller knows), worked out
    in one go: the lists they are on are computed once (waitlist.lists), not once per pass, then
    each pass gets its own player's rows and nothing else."""
    now = _now(now)
    ids = sorted(set(pass_ids))
    if not ids:
        return {}
    ps = session.execute(select(PlayerPass).where(PlayerPass.id.in_(ids))).scalars().all()
    players = {p.player_id for p in ps}
    games = set(session.execute(select(WaitlistEntry.game_id).where(
        WaitlistEntry.player_id.in_(players), WaitlistEntry.closed_at.is_(None))).scalars())
    rows: dict[int, list[PassList]] = {pid: [] for pid in players}
    for gl in waitlist.lists(session, settings, now, game_ids=games) if games else []:
        for r in gl.entries:
            if r.entry.player_id not in rows:
                continue
            c = r.call
            rows[r.entry.player_id].append(PassList(
                r.entry.id, gl.game, r.entry.status, r.place, len(gl.entries), r.estimated_wait_minutes,
                r.estimated_wait_range,
                PassCall(c.table.number, c.seat_number, c.called_at, c.expires_at, c.on_my_way_at)
                if c is not None else None))
    return {p.id: PassView(waitlist.format_name(p.player.name, p.player.card_number, "first_initial"),
                           rows[p.player_id], p.expires_at, now) for p in ps}


def _own_entry(session: Session, p: PlayerPass, entry_id: int) -> WaitlistEntry:
    e = session.get(WaitlistEntry, entry_id)
    if e is None or e.player_id != p.player_id:
        # another player's entry is not his to know of: the same answer as an entry that never was
        raise NotFound("no such entry on this pass", code="no_entry")
    return e


def on_my_way(session: Session, p: PlayerPass, entry_id: int, now: datetime | None = None) -> ListCall:
    """He answers his call from his phone: the floor's tablet shows "on my way" beside the call."""
    now = _now(now)
    e = _own_entry(session, p, entry_id)
    waitlist.lock_list(session, e.game_id)
    c = session.execute(select(ListCall).where(ListCall.entry_id == e.id, ListCall.closed_at.is_(None))
                        .execution_options(populate_existing=True)).scalar_one_or_none()
    if c is None:
        raise Conflict("you are not called on this list (any more)", code="not_called")
    if c.on_my_way_at is None:
        c.on_my_way_at = now
        session.flush()
        audit.record(session, player_actor(p), "waitlist.on_my_way", f"player:{p.player_id}",
                     after={"entry": e.id, "call": c.id, "table": c.table.number, "seat": c.seat_number})
        waitlist.publish_list(session, e.game_id)
    return c


def take_off(session: Session, p: PlayerPass, entry_id: int, now: datetime | None = None) -> WaitlistEntry:
    """He takes himself off one list (the house rule expects a player who no longer wants to play to
    do so); his other lists stay."""
    now = _now(now)
    _own_entry(session, p, entry_id)
    return waitlist.remove(session, player_actor(p), entry_id, "taken off by the player", now)


# --- pushing each pass its own state (floor.poker.pass_feed notes what changed) --------------------

_settings: HouseSettings | None = None


def push_with(settings: HouseSettings | None) -> None:
    """The house settings the pushed states are worked out with (the waits): those of the process
    that sends live updates, installed by the web layer beside the emitter. None: nothing is pushed."""
    global _settings
    _settings = settings


def push(session: Session, changes: pass_feed.Changes, settings: HouseSettings, now: datetime | None = None) -> None:
    """Send every pass the transaction touched its own state, worked out now (the changes flushed) for
    all of them at once; a pass that ended, why (what its 410 says)."""
    now = _now(now)
    session.flush()
    live = pass_feed.touched_passes(session, changes)
    gone = {}
    for p in session.execute(select(PlayerPass).where(PlayerPass.id.in_(sorted(live | changes.ended)))).scalars():
        why = ended(p, now)
        if why is not None:
            gone[p.id] = why
    for pass_id, state in sorted(views(session, settings, live - set(gone), now).items()):
        notify.publish(session, pass_feed.EVENT, state, pass_feed.room(pass_id))
    for pass_id, why in sorted(gone.items()):
        notify.publish(session, pass_feed.EVENT, why, pass_feed.room(pass_id))


@event.listens_for(Session, "before_commit")
def _before_commit(session: Session) -> None:
    if session.in_nested_transaction():
        return
    changes = pass_feed.take_changes(session)
    if changes is None or _settings is None or not notify.live():
        return    # nobody listens: nothing to work out
    try:
        push(session, changes, _settings)
    except Exception:   # a live update must never stop the change it reports; the page catches up on waking
        log.exception("could not work out the passes' states")
