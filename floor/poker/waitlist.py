"""Waiting lists (004 "Réservations de place"; the practice of every card room).

One list per game and limit; a player may be on several lists. Only staff add a player, in person
(the entry records who and from which terminal). Order is the time added; a manager may move an
entry, with a reason. When a seat opens, the first eligible player is proposed (derived from the
seats, whoever freed them); calling him holds the seat and starts a response timer; on expiry he goes
to the end of the list the first time and off it the second (house settings, fixed on the call).

Every change to a list locks its row first (SELECT ... FOR UPDATE): two tablets acting on one list
queue up, and the second one sees what the first did and gets a 409 saying so.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime, timedelta, timezone

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from floor import audit, notify, timers
from floor import tables as tables_svc
from floor.actors import Actor
from floor.errors import BadInput, Conflict, InvalidState, Money, Msg, NotFound
from floor.games import waits
from floor.models import Bust, Game, ListCall, Player, SeatAssignment, Table, WaitingList, WaitlistEntry
from floor.poker import pass_feed, queries, seating
from floor.poker.queries import list_tables, open_entries
from floor.settings import HouseSettings

EXPIRY_ACTIONS = ("end_of_list", "remove")


def _now(now: datetime | None) -> datetime:
    return now or datetime.now(timezone.utc)


def _publish(session: Session, game_id: int) -> None:
    notify.publish(session, "lists.changed", {"game_id": game_id}, "floor", "board")
    pass_feed.game_changed(session, game_id)


def publish_list(session: Session, game_id: int) -> None:
    """Tell the floor, the board and the list's passes that a game's list changed."""
    _publish(session, game_id)


# --- Lists and locks ----------------------------------------------------------------------------------

def poker_game(session: Session, game_id: int) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise NotFound("no game {game_id}", game_id=game_id)
    if game.kind != "poker":
        raise BadInput("{game} has no waiting list (not a poker game)", field="game_id", game=game.name)
    return game


def lock_list(session: Session, game_id: int) -> WaitingList:
    """The game's list row, locked for this transaction (made on first use)."""
    q = select(WaitingList).where(WaitingList.game_id == game_id).with_for_update() \
        .execution_options(populate_existing=True)
    wl = session.execute(q).scalar_one_or_none()
    if wl is None:
        try:
            with session.begin_nested():
                session.add(WaitingList(game_id=game_id))
                session.flush()
        except IntegrityError:
            pass   # another tablet made it at the same moment
        wl = session.execute(q).scalar_one()
    return wl


def _lock_entry(session: Session, entry_id: int) -> tuple[WaitingList, WaitlistEntry]:
    entry = session.get(WaitlistEntry, entry_id)
    if entry is None:
        raise NotFound("no waiting-list entry {entry_id}", entry_id=entry_id)
    wl = lock_list(session, entry.game_id)
    entry = session.execute(select(WaitlistEntry).where(WaitlistEntry.id == entry_id)
                            .execution_options(populate_existing=True)).scalar_one()
    return wl, entry


def _closed_reason(session: Session, entry: WaitlistEntry) -> Msg:
    if entry.status == "seated":
        return Msg("{player} was already seated at {at}", player=entry.player.name, at=entry.closed_at)
    if entry.status == "removed":
        return Msg("{player} was already taken off the list at {at} ({reason})", player=entry.player.name,
                   at=entry.closed_at, reason=entry.closed_reason)
    return Msg("{player} is {status}", player=entry.player.name, status=entry.status)


def _open_call(session: Session, entry_id: int) -> ListCall | None:
    return session.execute(select(ListCall).where(ListCall.entry_id == entry_id, ListCall.closed_at.is_(None))
                           .execution_options(populate_existing=True)).scalar_one_or_none()


@dataclass(frozen=True)
class Listed:
    """A list entry with his open call, if he is called."""

    entry: WaitlistEntry
    call: ListCall | None


@dataclass(frozen=True)
class InPlace(Listed):
    """An open entry on its game's list: his place (1 = first) and his estimated wait."""

    place: int = 0
    estimated_wait_minutes: int | None = None
    estimated_wait_range: list[int] | None = None   # [low, high]


@dataclass(frozen=True)
class GameList:
    game: Game
    open_tables: list[int]
    entries: list[InPlace]
    seat_openings: int       # seats opened for the list in the window
    window_minutes: int


def listed(session: Session, e: WaitlistEntry) -> Listed:
    return Listed(e, _open_call(session, e.id) if e.status == "called" else None)


# --- Adding, moving, removing -------------------------------------------------------------------------

def add(session: Session, actor: Actor, game_id: int, player_id: int, now: datetime | None = None,
        note: str | None = None) -> WaitlistEntry:
    """Staff put a player who presents himself at the floor on a game's list (at its end)."""
    now = _now(now)
    if actor.staff_id is None and actor.role not in ("system",):
        raise BadInput("only staff put players on a list", field="actor")
    game = poker_game(session, game_id)
    wl = lock_list(session, game_id)            # locks in one order everywhere: list, then player
    player = queries.lock_player(session, player_id)
    b = queries.active_ban(session, player_id, now)
    if b is not None:
        raise Conflict("{player} is banned from the poker room: {reason}", code="banned", player=player.name, reason=b.reason)
    if queries.seats_in_game(session, player_id, game_id):
        raise Conflict("{player} already plays {game}; a seated player asks for a table change instead", code="seated_in_game", player=player.name, game=game.name)
    existing = session.execute(select(WaitlistEntry).where(
        WaitlistEntry.list_id == wl.id, WaitlistEntry.player_id == player_id,
        WaitlistEntry.closed_at.is_(None))).scalar_one_or_none()
    if existing is not None:
        raise Conflict("{player} is already on the {game} list (added by {by} at {at})", code="already_listed",
                       player=player.name, game=game.name, by=existing.added_by_name, at=existing.added_at)
    e = WaitlistEntry(list_id=wl.id, game_id=game_id, player_id=player_id, position=wl.next_position,
                      added_at=now, added_by=actor.staff_id, added_by_name=actor.name,
                      added_terminal=actor.terminal, note=note)
    wl.next_position += 1
    session.flush()
    try:
        with session.begin_nested():
            session.add(e)
            session.flush()
    except IntegrityError:
        raise Conflict("{player} was just put on the {game} list by someone else",
                       code="already_listed", player=player.name, game=game.name) from None
    audit.record(session, actor, "waitlist.add", f"player:{player_id}",
                 after={"game_id": game_id, "entry": e.id, "position": e.position, "note": note})
    _publish(session, game_id)
    return e


def remove(session: Session, actor: Actor, entry_id: int, reason: str = "removed", now: datetime | None = None
           ) -> WaitlistEntry:
    now = _now(now)
    _wl, e = _lock_entry(session, entry_id)
    if e.closed_at is not None:
        raise Conflict("{reason}", code="entry_closed", reason=_closed_reason(session, e))
    call = _open_call(session, e.id)
    if call is not None:
        _close_call(session, call, "cancelled", now)
    e.status, e.closed_at, e.closed_reason = "removed", now, (reason or "removed").strip()[:40]
    session.flush()
    audit.record(session, actor, "waitlist.remove", f"player:{e.player_id}",
                 after={"game_id": e.game_id, "entry": e.id, "reason": e.closed_reason})
    _publish(session, e.game_id)
    pass_feed.player_changed(session, e.player_id)
    pass_feed.end_if_done(session, e.player_id, now)
    return e


def lock_player_lists(session: Session, player_id: int) -> None:
    """Lock every list this player is on, in game order, before a change that will touch them all."""
    games = session.execute(select(WaitlistEntry.game_id).where(
        WaitlistEntry.player_id == player_id, WaitlistEntry.closed_at.is_(None)).order_by(WaitlistEntry.game_id)).scalars()
    for game_id in sorted(set(games)):
        lock_list(session, game_id)


def close_player_entries(session: Session, actor: Actor, player_id: int, reason: str,
                         now: datetime | None = None, except_game: int | None = None) -> list[WaitlistEntry]:
    out = []
    for e in session.execute(select(WaitlistEntry).where(WaitlistEntry.player_id == player_id,
                                                         WaitlistEntry.closed_at.is_(None))).scalars().all():
        if e.game_id != except_game:
            out.append(remove(session, actor, e.id, reason, now))
    return out


def move(session: Session, actor: Actor, entry_id: int, to_place: int, reason: str,
         now: datetime | None = None) -> WaitlistEntry:
    """Put an entry at place ``to_place`` (1 = first) of its list; the floor says why."""
    if not (reason or "").strip():
        raise BadInput("moving a player on the list needs a reason", field="reason")
    wl, e = _lock_entry(session, entry_id)
    if e.closed_at is not None:
        raise Conflict("{reason}", code="entry_closed", reason=_closed_reason(session, e))
    entries = open_entries(session, e.game_id)
    if not 1 <= to_place <= len(entries):
        raise BadInput("the list has places 1 to {places}", field="to_place", places=len(entries))
    before = [x.id for x in entries].index(e.id) + 1
    entries.remove(e)
    entries.insert(to_place - 1, e)
    # Renumber the open entries after the last position handed out, keeping positions unique.
    base = wl.next_position
    for k, x in enumerate(entries):
        x.position = base + k
    wl.next_position = base + len(entries)
    session.flush()
    audit.record(session, actor, "waitlist.move", f"player:{e.player_id}",
                 before={"place": before}, after={"place": to_place, "reason": reason.strip(), "entry": e.id})
    _publish(session, e.game_id)
    return e


def _to_end(wl: WaitingList, e: WaitlistEntry) -> None:
    e.position = wl.next_position
    wl.next_position += 1


# --- Proposals: who gets the next open seat -----------------------------------------------------------

@dataclass
class Proposal:
    table_id: int
    table: int
    seat: int
    kind: str                   # "table_change" | "list"
    player_id: int
    player_name: str
    game_id: int
    entry_id: int | None = None
    request_id: int | None = None

    def as_dict(self) -> dict:
        return asdict(self)


def proposals(session: Session, settings: HouseSettings, now: datetime | None = None,
              game_id: int | None = None) -> list[Proposal]:
    """For every free seat (nobody sits, no call holds it) at a table taking players from the list:
    first the table-change requests for that table, in order, then the first eligible player of the
    game's list (not banned, not seated in that game, not cooling off for that table, not called)."""
    now = _now(now)
    called = set(session.execute(select(WaitlistEntry.player_id).join(ListCall, ListCall.entry_id == WaitlistEntry.id)
                                 .where(ListCall.closed_at.is_(None))).scalars())
    out: list[Proposal] = []
    used_entries: set[int] = set()
    used_players: set[int] = set(called)
    cache: dict[tuple[int, int], bool] = {}
    for table in list_tables(session, game_id):
        free = queries.free_seats(session, table)
        if not free:
            continue
        candidates = []
        for r in queries.open_table_changes(session, table.id):
            frm = session.execute(select(SeatAssignment).where(
                SeatAssignment.player_id == r.player_id, SeatAssignment.table_id == r.from_table_id,
                SeatAssignment.left_at.is_(None))).scalar_one_or_none()
            if frm is not None and seating.refusal(session, settings, table, r.player_id, now, "table_change", frm) is None:
                candidates.append(("table_change", r.player_id, r.player.name, None, r.id))
        for e in open_entries(session, table.game_id):
            if e.status == "waiting":
                candidates.append(("list", e.player_id, e.player.name, e.id, None))
        for seat in free:
            while candidates:
                kind, pid, name, entry_id, req_id = candidates.pop(0)
                if pid in used_players or (entry_id is not None and entry_id in used_entries):
                    continue
                if kind == "list":
                    key = (table.id, pid)
                    if key not in cache:
                        cache[key] = seating.refusal(session, settings, table, pid, now) is None
                    if not cache[key]:
                        continue
                    used_entries.add(entry_id)
                used_players.add(pid)
                out.append(Proposal(table.id, table.number, seat, kind, pid, name, table.game_id, entry_id, req_id))
                break
    return out


def _check_in_turn(session: Session, settings: HouseSettings, table: Table, e: WaitlistEntry, now: datetime,
                   reason: str | None) -> None:
    """Calling or seating someone other than the proposed player needs a reason from the floor."""
    props = [p for p in proposals(session, settings, now, table.game_id) if p.table_id == table.id]
    if any(p.entry_id == e.id for p in props) or (reason or "").strip():
        return
    if props:
        first = props[0]
        if first.kind == "table_change":
            raise Conflict("{first} comes first for table {table} (table change); give a reason to call {player} "
                           "before him", code="not_first", first=first.player_name, table=table.number,
                           player=e.player.name)
        raise Conflict("{first} comes first for table {table}; give a reason to call {player} before him",
                       code="not_first", first=first.player_name, table=table.number, player=e.player.name)


# --- Calling -------------------------------------------------------------------------------------------

def call(session: Session, actor: Actor, settings: HouseSettings, entry_id: int, table: Table,
         seat_number: int | None = None, now: datetime | None = None, reason: str | None = None) -> ListCall:
    """Call a player for a seat: the seat is held for him and his response timer starts."""
    now = _now(now)
    wl, e = _lock_entry(session, entry_id)
    if e.closed_at is not None:
        raise Conflict("{reason}", code="entry_closed", reason=_closed_reason(session, e))
    if e.status == "called":
        c = _open_call(session, e.id)
        raise Conflict("{player} was already called by {by} at {at} (table {table}, seat {seat})",
                       code="already_called", player=e.player.name, by=c.called_by_name, at=c.called_at,
                       table=session.get(Table, c.table_id).number, seat=c.seat_number)
    if table.game_id != e.game_id:
        raise BadInput("table {table} does not play this list's game", field="table_number", table=table.number)
    tables_svc.refuse_if_tournament(session, table)
    if table.status != "open":
        raise InvalidState("table {table} is {status}", table=table.number, status=table.status)
    other = session.execute(select(ListCall).join(WaitlistEntry, WaitlistEntry.id == ListCall.entry_id).where(
        WaitlistEntry.player_id == e.player_id, ListCall.closed_at.is_(None))).scalar_one_or_none()
    if other is not None:
        raise Conflict("{player} is already called to table {number}",
                       code="already_called", player=e.player.name, number=session.get(Table, other.table_id).number)
    if table.id not in {t.id for t in list_tables(session, table.game_id)}:
        raise Conflict("seats at table {table} are filled in must-move order, not from the list",
                       code="mustmove_fed", table=table.number)
    seating.check_may_sit(session, settings, table, e.player_id, now)
    _check_in_turn(session, settings, table, e, now, reason)
    seat_number = seating.pick_seat(session, table, seat_number)
    seating.check_seat_free(session, table, seat_number)
    c = ListCall(entry_id=e.id, table_id=table.id, seat_number=seat_number, called_at=now,
                 expires_at=now + timedelta(minutes=settings.call_response_minutes),
                 called_by=actor.staff_id, called_by_name=actor.name,
                 expiry_action=settings.call_expiry_first if e.expiries == 0 else settings.call_expiry_second)
    session.flush()
    try:
        with session.begin_nested():
            session.add(c)
            session.flush()
    except IntegrityError:
        raise Conflict("seat {seat_number} at table {table} was just taken by another call",
                       code="seat_held", seat_number=seat_number, table=table.number) from None
    e.status = "called"
    session.flush()
    timers.set_timer(session, f"call-{c.id}", "waitlist.call_expired", c.expires_at, c.id)
    audit.record(session, actor, "waitlist.call", f"player:{e.player_id}",
                 after={"entry": e.id, "call": c.id, "table": table.number, "seat": seat_number,
                        "expires_at": c.expires_at.isoformat(), "reason": reason})
    _publish(session, e.game_id)
    notify.publish(session, "tables.changed", {"table_id": table.id}, "floor", notify.table_room(table.id))
    return c


def _close_call(session: Session, c: ListCall, outcome: str, now: datetime) -> None:
    c.outcome, c.closed_at = outcome, now
    timers.cancel_timer(session, f"call-{c.id}")
    notify.publish(session, "tables.changed", {"table_id": c.table_id}, "floor", notify.table_room(c.table_id))


def _lock_call(session: Session, call_id: int) -> tuple[WaitingList, ListCall]:
    c = session.get(ListCall, call_id)
    if c is None:
        raise NotFound("no call {call_id}", call_id=call_id)
    wl = lock_list(session, c.entry.game_id)
    c = session.execute(select(ListCall).where(ListCall.id == call_id)
                        .execution_options(populate_existing=True)).scalar_one()
    session.execute(select(WaitlistEntry).where(WaitlistEntry.id == c.entry_id)
                    .execution_options(populate_existing=True)).scalar_one()
    return wl, c


def _call_closed(c: ListCall) -> Conflict:
    return Conflict("the call of {player} is already over ({outcome} at {at})", code="call_closed",
                    player=c.entry.player.name, outcome=c.outcome, at=c.closed_at)


def cancel_call(session: Session, actor: Actor, call_id: int, now: datetime | None = None,
                reason: str | None = None) -> WaitlistEntry:
    """Take the call back: he keeps his place on the list, the seat is free again."""
    now = _now(now)
    _wl, c = _lock_call(session, call_id)
    if c.closed_at is not None:
        raise _call_closed(c)
    _close_call(session, c, "cancelled", now)
    e = c.entry
    e.status = "waiting"
    session.flush()
    audit.record(session, actor, "waitlist.call_cancel", f"player:{e.player_id}", after={"call": c.id, "reason": reason})
    _publish(session, e.game_id)
    return e


def expire_call(session: Session, call_id: int, now: datetime | None = None) -> ListCall | None:
    """The response time ran out: to the end of the list (the first time) or off it (the second),
    as fixed when he was called. Does nothing if the call was answered or is not due yet."""
    now = _now(now)
    c = session.get(ListCall, call_id)
    if c is None:
        return None
    wl, c = _lock_call(session, call_id)
    if c.closed_at is not None or now < c.expires_at:
        return None
    actor = Actor.system("scheduler")
    c.outcome, c.closed_at = "expired", now
    e = c.entry
    e.expiries += 1
    if c.expiry_action == "remove":
        e.status, e.closed_at, e.closed_reason = "removed", now, "no_response"
    else:
        e.status = "waiting"
        _to_end(wl, e)
    session.flush()
    audit.record(session, actor, "waitlist.call_expired", f"player:{e.player_id}",
                 after={"call": c.id, "entry": e.id, "action": c.expiry_action, "expiries": e.expiries})
    _publish(session, e.game_id)
    pass_feed.player_changed(session, e.player_id)
    pass_feed.end_if_done(session, e.player_id, now)
    notify.publish(session, "tables.changed", {"table_id": c.table_id}, "floor", notify.table_room(c.table_id))
    return c


# --- Seating from the list -----------------------------------------------------------------------------

@dataclass
class Seated:
    assignment: SeatAssignment
    entry: WaitlistEntry
    other_entries: list[WaitlistEntry]      # his other lists, kept unless the floor dropped them
    dropped: list[WaitlistEntry]


def seat(session: Session, actor: Actor, settings: HouseSettings, entry_id: int, buy_in: int,
         table: Table | None = None, seat_number: int | None = None, now: datetime | None = None,
         drop_other_lists: bool = False, reason: str | None = None) -> Seated:
    """Seat a listed player (called or not): checks the house rules and the buy-in, takes him off
    that game's list and keeps (or drops) his other lists."""
    now = _now(now)
    if drop_other_lists:   # all his lists, in game order, before this one (no lock-order deadlock)
        pre = session.get(WaitlistEntry, entry_id)
        if pre is not None:
            lock_player_lists(session, pre.player_id)
    _wl, e = _lock_entry(session, entry_id)
    if e.closed_at is not None:
        raise Conflict("{reason}", code="entry_closed", reason=_closed_reason(session, e))
    c = _open_call(session, e.id)
    if c is not None:
        if table is None:
            table = session.get(Table, c.table_id)
        if seat_number is None and table.id == c.table_id:
            seat_number = c.seat_number
    elif table is None:
        raise BadInput("say at which table he sits", field="table_number")
    if table.game_id != e.game_id:
        raise BadInput("table {table} does not play this list's game", field="table_number", table=table.number)
    if table.id not in {t.id for t in list_tables(session, table.game_id)}:
        raise Conflict("seats at table {table} are filled in must-move order, not from the list",
                       code="mustmove_fed", table=table.number)
    if c is None:
        _check_in_turn(session, settings, table, e, now, reason)
    if seat_number is None:
        seat_number = seating.pick_seat(session, table, None)
    hold = c if (c is not None and c.table_id == table.id) else None
    # Check everything before changing anything (a refused seat leaves the call as it was).
    seating.check_may_sit(session, settings, table, e.player_id, now)
    seating.check_seat_free(session, table, seat_number, hold)
    seating.check_buy_in(seating.buy_in_limits(session, settings, table, e.player_id, now), buy_in)
    if c is not None:
        _close_call(session, c, "seated", now)
        session.flush()
    a = seating.seat_player(session, actor, settings, table, seat_number, e.player_id, buy_in, now, for_call=hold)
    e.status, e.closed_at, e.closed_reason = "seated", now, "seated"
    session.flush()
    audit.record(session, actor, "waitlist.seat", f"player:{e.player_id}",
                 after={"entry": e.id, "table": table.number, "seat": seat_number, "buy_in": buy_in,
                        "drop_other_lists": drop_other_lists})
    _publish(session, e.game_id)
    others = [x for x in session.execute(select(WaitlistEntry).where(
        WaitlistEntry.player_id == e.player_id, WaitlistEntry.closed_at.is_(None))).scalars()]
    dropped = []
    if drop_other_lists:
        for x in others:
            dropped.append(remove(session, actor, x.id, "seated elsewhere", now))
        others = []
    pass_feed.player_changed(session, e.player_id)
    pass_feed.end_if_done(session, e.player_id, now)
    return Seated(a, e, others, dropped)


def walk_up(session: Session, actor: Actor, settings: HouseSettings, table: Table, seat_number: int | None,
            player_id: int, buy_in: int, now: datetime | None = None, reason: str | None = None) -> SeatAssignment:
    """Seat a player who is on no list: only when nobody eligible waits for that seat (or with a reason)."""
    now = _now(now)
    if table.kind != "poker":
        raise InvalidState("table {table} is not a poker table", table=table.number)
    tables_svc.refuse_if_tournament(session, table)
    lock_list(session, table.game_id)
    if table.id not in {t.id for t in list_tables(session, table.game_id)}:
        raise Conflict("seats at table {table} are filled in must-move order, not from the floor",
                       code="mustmove_fed", table=table.number)
    props = [p for p in proposals(session, settings, now, table.game_id) if p.table_id == table.id]
    if props and props[0].player_id != player_id and not (reason or "").strip():
        raise Conflict("{player_name} waits for table {table}: seat him first, or give a reason",
                       code="list_waiting", player_name=props[0].player_name, table=table.number)
    seat_number = seating.pick_seat(session, table, seat_number)
    a = seating.seat_player(session, actor, settings, table, seat_number, player_id, buy_in, now)
    for e in session.execute(select(WaitlistEntry).where(WaitlistEntry.player_id == player_id,
                                                         WaitlistEntry.game_id == table.game_id,
                                                         WaitlistEntry.closed_at.is_(None))).scalars().all():
        c = _open_call(session, e.id)
        if c is not None:
            _close_call(session, c, "seated", now)
        e.status, e.closed_at, e.closed_reason = "seated", now, "seated"
        _publish(session, e.game_id)
    pass_feed.player_changed(session, player_id)
    pass_feed.end_if_done(session, player_id, now)
    if reason:
        audit.record(session, actor, "seat.walk_up", f"player:{player_id}", after={"table": table.number, "reason": reason})
    return a


# --- Views: the floor's lists, the public board ----------------------------------------------------

# Leaving a seat without leaving the game does not open a seat for the list.
_NOT_AN_OPENING = ("seat_change", "table_change", "must_move")


def seat_openings(session: Session, game_id: int, since: datetime) -> int:
    return session.execute(select(func.count(SeatAssignment.id)).join(Table, Table.id == SeatAssignment.table_id)
                           .where(Table.game_id == game_id, SeatAssignment.left_at >= since,
                                  SeatAssignment.reason_left.not_in(_NOT_AN_OPENING))).scalar()


def seat_minutes(session: Session, game_id: int, since: datetime, now: datetime) -> float:
    """Minutes of play in the game's seats between ``since`` and ``now``, summed over every seat."""
    rows = session.execute(select(SeatAssignment.sat_at, SeatAssignment.left_at)
                           .join(Table, Table.id == SeatAssignment.table_id)
                           .where(Table.game_id == game_id, SeatAssignment.sat_at < now,
                                  (SeatAssignment.left_at.is_(None)) | (SeatAssignment.left_at > since))).all()
    total = 0.0
    for sat, left in rows:
        start, end = max(_aware(sat), since), min(_aware(left) if left else now, now)
        total += max(0.0, (end - start).total_seconds() / 60)
    return total


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo else at.replace(tzinfo=timezone.utc)


def _waits(session: Session, settings: HouseSettings, game_id: int, waiting: int, now: datetime):
    """The wait model's inputs as the floor measures them now (floor.games.waits), and its estimates."""
    since = now - timedelta(hours=settings.board_wait_window_hours)
    tables = list_tables(session, game_id)
    free = sum(len(queries.free_seats(session, t)) for t in tables)
    seated = sum(len(t.seats) for t in tables) - free
    table = None
    if waiting >= settings.table_open_min_waiting:
        closed = session.execute(select(Table).where(Table.game_id == game_id, Table.status == "closed")
                                 .order_by(Table.number).limit(1)).scalar_one_or_none()
        if closed is not None and closed.seats:
            table = waits.TableToOpen(len(closed.seats), settings.table_open_minutes)
    openings = seat_openings(session, game_id, since)
    minutes = seat_minutes(session, game_id, since, now)
    # A quiet spell no longer than twice the floor's usual gap between departures is no news: the
    # rate stays as measured at the game's last seat change, so a wait does not grow minute by minute
    # while nothing moves (and places ahead shown "seat free" do not make it drift). A longer one is
    # news and counts.
    last = last_seat_change(session, game_id)
    if last is not None and openings and seated > 0 and last > since:
        then_openings = seat_openings(session, game_id, last - (now - since))
        then_minutes = seat_minutes(session, game_id, last - (now - since), last)
        gap = then_minutes / (then_openings + waits.PRIOR_SHAPE) / seated if then_openings else None
        if gap is not None and (now - last).total_seconds() / 60 <= 2 * gap:
            openings, minutes = then_openings, then_minutes
    return openings, waits.estimate(waiting, free, max(seated, 0), openings, minutes, table=table)


def last_seat_change(session: Session, game_id: int) -> datetime | None:
    """When a player last sat down at or left one of the game's tables."""
    sat, left = session.execute(select(func.max(SeatAssignment.sat_at), func.max(SeatAssignment.left_at))
                                .join(Table, Table.id == SeatAssignment.table_id)
                                .where(Table.game_id == game_id)).one()
    times = [_aware(t) for t in (sat, left) if t is not None]
    return max(times) if times else None


def lists(session: Session, settings: HouseSettings, now: datetime | None = None,
          game_ids: set[int] | None = None) -> list[GameList]:
    """Every poker game's list (or those of ``game_ids``) with its open entries in order, each with its
    place and estimated wait."""
    now = _now(now)
    window = settings.board_wait_window_hours * 60
    out = []
    q = select(Game).where(Game.kind == "poker").order_by(Game.id)
    if game_ids is not None:
        q = q.where(Game.id.in_(sorted(game_ids)))
    for game in session.execute(q).scalars():
        entries = open_entries(session, game.id)
        calls = {c.entry_id: c for c in session.execute(select(ListCall).where(
            ListCall.closed_at.is_(None), ListCall.entry_id.in_([e.id for e in entries]))).scalars()} if entries else {}
        waiting = [e for e in entries if e.status != "called"]     # a called player has his seat
        openings, estimates = _waits(session, settings, game.id, len(waiting), now)
        wait_of = {e.id: w for e, w in zip(waiting, estimates)}
        rows = []
        for place, e in enumerate(entries, start=1):
            w = wait_of.get(e.id)
            rows.append(InPlace(e, calls.get(e.id), place, w.minutes if w else None, [w.low, w.high] if w else None))
        tables = session.execute(select(Table.number).where(Table.game_id == game.id, Table.status == "open")
                                 .order_by(Table.number)).scalars().all()
        out.append(GameList(game, list(tables), rows, openings, window))
    return out


def format_name(name: str, card_number: str, fmt: str) -> str:
    """A player's name as the public board shows it (house setting board_name_format)."""
    parts = [p for p in (name or "").split() if p]
    if fmt == "full":
        return " ".join(parts)
    if fmt == "initials":
        return " ".join(f"{p[0]}." for p in parts)
    if fmt == "card_tail":
        return f"…{card_number[-4:]}"
    if fmt == "first_initial":
        if not parts:
            return "?"
        return parts[0] if len(parts) == 1 else f"{parts[0]} {parts[-1][0]}."
    raise ValueError(f"unknown board name format {fmt!r}")


@dataclass(frozen=True)
class BoardEntry:
    place: int
    name: str                       # as the house setting board_name_format says
    called: bool
    table: int | None               # the table he is called to
    estimated_wait_minutes: int | None
    estimated_wait_range: list[int] | None


@dataclass(frozen=True)
class BoardList:
    game: Game
    open_tables: list[int]
    entries: list[BoardEntry]


@dataclass(frozen=True)
class BoardTable:
    table: Table
    occupied: int
    free: int        # seats a newcomer may take: none held by a call, none a must-move table fills


@dataclass(frozen=True)
class Board:
    lists: list[BoardList]
    tables: list[BoardTable]
    at: datetime


def board(session: Session, settings: HouseSettings, now: datetime | None = None) -> Board:
    """What the public TV shows: lists by game and limit, called players highlighted, estimated waits,
    names only as the house setting says; open tables with seat counts (no names)."""
    now = _now(now)
    fmt = settings.board_name_format
    out = [BoardList(lst.game, lst.open_tables, [
        BoardEntry(r.place, format_name(r.entry.player.name, r.entry.player.card_number, fmt),
                   r.entry.status == "called", r.call.table.number if r.call else None,
                   r.estimated_wait_minutes, r.estimated_wait_range) for r in lst.entries])
        for lst in lists(session, settings, now)]
    tables = []
    takers = {t.id for t in list_tables(session)}
    open_tables = list(session.execute(select(Table).where(Table.status == "open", Table.tournament_id.is_(None))
                                       .order_by(Table.number)).scalars())
    occ = tables_svc.occupancy(session, open_tables)   # the one count: seated, identified or betting
    for t in open_tables:
        seated = occ[t.id].players
        if t.kind != "poker":
            free = max(t.seat_count - seated, 0)
        else:   # a table a must-move table fills keeps its open seats for the players moving in
            free = len(queries.free_seats(session, t)) if t.id in takers else 0
        tables.append(BoardTable(t, seated, free))
    return Board(out, tables, now)


__all__ = ["add", "remove", "move", "call", "cancel_call", "expire_call", "seat", "walk_up", "proposals",
           "format_name", "lists", "board", "Player"]


@dataclass
class BustResult:
    busts: int               # in this stay, this one included
    outcome: str             # rebought | may_rebuy | left | listed | sat_again
    assignment: SeatAssignment
    entry_id: int | None = None


def record_bust(session: Session, actor: Actor, settings: HouseSettings, table: Table, seat_number: int,
                now: datetime | None = None, rebuy: int | None = None, play_on: bool = False,
                buy_in: int | None = None) -> BustResult:
    """The first bust in a stay may be followed by one rebuy, even under the table minimum. The second
    ends his game: if he wants to play on and the game's list waits, he goes to its end; otherwise,
    with a seat free at his table, he may sit again with a full buy-in."""
    now = _now(now)
    a = seating.seated_assignment(session, table, seat_number)
    before = session.execute(select(func.count(Bust.id)).where(Bust.assignment_id == a.id)).scalar()
    if before == 0:
        if rebuy is not None:
            _lo, hi = seating.structure_limits(table.game.structure, table.game.big_blind, settings)
            if rebuy <= 0 or (hi is not None and rebuy > hi):
                if hi:
                    raise BadInput("a rebuy is more than nothing and at most {most}", field="rebuy", most=Money(hi))
                raise BadInput("a rebuy is a positive amount", field="rebuy")
        session.add(Bust(assignment_id=a.id, at=now, rebuy=rebuy, recorded_by=actor.name))
        session.flush()
        audit.record(session, actor, "seat.bust", f"table:{table.id}",
                     after={"seat": seat_number, "player_id": a.player_id, "bust": 1, "rebuy": rebuy})
        seating.publish_table(session, table.id)
        return BustResult(1, "rebought" if rebuy is not None else "may_rebuy", a)
    if rebuy is not None:
        raise Conflict("he already bought back in once after busting: a second bust ends his game",
                       code="second_bust")
    session.add(Bust(assignment_id=a.id, at=now, rebuy=None, recorded_by=actor.name))
    session.flush()
    audit.record(session, actor, "seat.bust", f"table:{table.id}",
                 after={"seat": seat_number, "player_id": a.player_id, "bust": before + 1})
    player_id = a.player_id
    seating.leave(session, actor, settings, a, "busted", 0, now)
    if not play_on:
        return BustResult(before + 1, "left", a)
    if queries.waiting_count(session, table.game_id) > 0:
        entry = add(session, actor, table.game_id, player_id, now, note="busted twice")
        return BustResult(before + 1, "listed", a, entry.id)
    if buy_in is None:
        lo, _ = seating.structure_limits(table.game.structure, table.game.big_blind, settings)
        raise BadInput("nobody waits: he may sit again with a full buy-in (at least {least})", field="buy_in",
                       least=Money(lo))
    again = seating.seat_player(session, actor, settings, table, seat_number, player_id, buy_in, now)
    return BustResult(before + 1, "sat_again", again)
