"""Bans (and, built on them, warnings): who may not be listed or seated, why, until when."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from floor import alerts, audit, notify, standing
from floor.actors import Actor
from floor.errors import BadInput, Conflict, Msg, NotFound
from floor.gaming_day import end_of_gaming_day, gaming_day, gaming_day_bounds
from floor.models import AlertKind, AlertSeverity, Ban, Player, PlayerWarning, PokerSitOut, Seat, SeatAssignment, Staff, Table
from floor.poker import seating, waitlist
from floor.poker.queries import active_ban
from floor.settings import HouseSettings


def ban_json(b: Ban) -> dict:
    return {"id": b.id, "player_id": b.player_id, "scope": b.scope, "reason": b.reason,
            "decided_by": b.decided_by, "starts_at": b.starts_at.isoformat(),
            "expires_at": b.expires_at.isoformat() if b.expires_at else None,
            "lifted_at": b.lifted_at.isoformat() if b.lifted_at else None, "lift_reason": b.lift_reason}


def ban(session: Session, actor: Actor, player_id: int, reason: str, until: datetime | None,
        scope: str = "poker_room", now: datetime | None = None, house: HouseSettings | None = None) -> Ban:
    """Make a ban; where it bars the player he already is (a running tournament) is told at once
    (floor.standing). The caller frees his poker seats and lists (``exclude``)."""
    if not (reason or "").strip():
        raise BadInput("a ban needs a reason", field="reason")
    now = now or datetime.now(timezone.utc)
    # a Msg (the floor's own reason) is kept whole; a person's text as typed
    b = Ban(player_id=player_id, scope=scope, reason=reason if isinstance(reason, Msg) else reason.strip(),
            decided_by=actor.staff_id, starts_at=now, expires_at=until)
    session.add(b)
    session.flush()
    audit.record(session, actor, "ban.create", f"player:{player_id}", after=ban_json(b))
    standing.ban_takes_effect(session, actor, house or HouseSettings(), b, now)
    notify.publish(session, "bans.changed", {"player_id": player_id}, "role:floor_manager", "role:pit_boss")
    return b


# --- warnings (004 "Généralités", "Showdown") -------------------------------------------------------

WARNING_REASONS = {
    "cards_shown_early": "Showed hole cards too early",
    "electronic_device": "Electronic device during a hand",
    "left_without_word": "Left the table without a word",
    "other": "Other",
}


def assert_not_banned(session: Session, player_id: int, at: datetime | None = None,
                      scope: str = "poker_room") -> None:
    """Refuse a banned player (waiting lists and seating call this before listing or seating him)."""
    b = active_ban(session, player_id, at, scope)
    if b is not None:
        until = b.expires_at.isoformat() if b.expires_at else "further notice"
        raise Conflict("player {player_id} is banned from the poker room until {until}: {reason}",
                       code="player_banned", player_id=player_id, until=until, reason=b.reason)


def warning_json(w: PlayerWarning, player_name: str | None = None, given_by: str | None = None) -> dict:
    return {"id": w.id, "player_id": w.player_id, "player": player_name, "table_id": w.table_id,
            "hand_id": w.hand_id, "reason": w.reason, "reason_text": WARNING_REASONS.get(w.reason, w.reason),
            "note": w.note, "at": w.at.isoformat(), "given_by": given_by, "given_by_id": w.given_by,
            "ban_id": w.ban_id, "lifted_at": w.lifted_at.isoformat() if w.lifted_at else None,
            "lift_reason": w.lift_reason}


def window_start(now: datetime, house: HouseSettings) -> datetime:
    """Start of the window in which warnings count: the gaming day (default) or the last N hours."""
    w = (house.warning_window or "gaming_day").strip()
    if w == "gaming_day":
        return gaming_day_bounds(gaming_day(now, house.timezone, house.gaming_day_rollover),
                                 house.timezone, house.gaming_day_rollover)[0]
    if w.startswith("hours:") and w[6:].isdigit() and int(w[6:]) > 0:
        return now - timedelta(hours=int(w[6:]))
    raise BadInput("warning_window must be gaming_day or hours:N, not {window!r}", field="warning_window", window=w)


def _counted(house: HouseSettings, now: datetime):
    return (PlayerWarning.lifted_at.is_(None), PlayerWarning.at >= window_start(now, house), PlayerWarning.at <= now)


def warning_count(session: Session, player_id: int, house: HouseSettings, now: datetime | None = None) -> int:
    now = now or datetime.now(timezone.utc)
    return session.execute(select(func.count(PlayerWarning.id)).where(
        PlayerWarning.player_id == player_id, *_counted(house, now))).scalar_one()


def warning_counts(session: Session, player_ids: list[int], house: HouseSettings,
                   now: datetime | None = None) -> dict[int, int]:
    if not player_ids:
        return {}
    now = now or datetime.now(timezone.utc)
    rows = session.execute(select(PlayerWarning.player_id, func.count(PlayerWarning.id))
                           .where(PlayerWarning.player_id.in_(player_ids), *_counted(house, now))
                           .group_by(PlayerWarning.player_id)).all()
    return {pid: n for pid, n in rows}


@dataclass
class WarningResult:
    warning: PlayerWarning
    count: int
    ban: Ban | None
    freed_seats: list[dict]


def give_warning(session: Session, actor: Actor, player_id: int, reason: str, house: HouseSettings,
                 note: str = "", table_id: int | None = None, hand_id: int | None = None,
                 now: datetime | None = None, ban_confirmed: bool = True) -> WarningResult:
    """Record a warning. At the house's count within the window (third, by default, in the gaming day)
    the player must leave the poker area: he is banned until the end of the gaming day, every poker
    seat he holds is freed, and every tablet is told. With ``ban_confirmed`` false the warning that
    would ban is refused (``ban_needs_confirmation``) so the tablet can ask first."""
    now = now or datetime.now(timezone.utc)
    if reason not in WARNING_REASONS:
        raise BadInput("reason must be one of {reasons}", field="reason", reasons=", ".join(WARNING_REASONS))
    note = (note or "").strip()
    if reason == "other" and not note:
        raise BadInput("say what he did", field="note")
    player = session.get(Player, player_id)
    if player is None:
        raise NotFound("no player {player_id}", player_id=player_id)
    if not ban_confirmed and warning_count(session, player_id, house, now) + 1 >= house.warnings_to_ban \
            and active_ban(session, player_id, now) is None:
        raise Conflict("warning {n} bans {player} for the rest of the gaming day and frees his seat",
                       code="ban_needs_confirmation", n=warning_count(session, player_id, house, now) + 1,
                       player=player.name)
    w = PlayerWarning(player_id=player_id, table_id=table_id, hand_id=hand_id, reason=reason, note=note[:300],
                      at=now, given_by=actor.staff_id, terminal=actor.terminal)
    session.add(w)
    session.flush()
    audit.record(session, actor, "warning.give", f"player:{player_id}", after=warning_json(w, player.name))
    count = warning_count(session, player_id, house, now)
    result = WarningResult(w, count, None, [])
    if count >= house.warnings_to_ban and active_ban(session, player_id, now) is None:
        until = end_of_gaming_day(now, house.timezone, house.gaming_day_rollover)
        # the floor's own reason: kept as its template and values (Ban.reason), said in the reader's language
        b = ban(session, actor, player_id, Msg("{count} warnings: must leave the poker area for the rest of the "
                                               "gaming day", count=count), until, now=now, house=house)
        w.ban_id = b.id
        result.ban = b
        result.freed_seats = exclude(session, actor, house, player_id, "banned_warnings", now)
        alerts.raise_alert(session, actor, AlertKind.PLAYER_BANNED,
                           Msg("{player} has {count} warnings and must leave the poker area until the end of the "
                               "gaming day; seat freed at table {tables}", player=player.name, count=count,
                               tables=", ".join(str(s["table_number"]) for s in result.freed_seats))
                           if result.freed_seats else
                           Msg("{player} has {count} warnings and must leave the poker area until the end of the "
                               "gaming day", player=player.name, count=count),
                           severity=AlertSeverity.CRITICAL, data={"player_id": player_id, "ban_id": b.id,
                                                      "freed_seats": result.freed_seats})
    _conduct_changed(session, player_id, [s["table_id"] for s in result.freed_seats] + ([table_id] if table_id else []))
    return result


def exclude(session: Session, actor: Actor, house: HouseSettings, player_id: int, reason: str,
            now: datetime) -> list[dict]:
    """A banned player leaves the poker area: every list he waits on and every poker seat he holds.
    Returns the seats freed."""
    waitlist.lock_player_lists(session, player_id)
    waitlist.close_player_entries(session, actor, player_id, "banned", now)
    return free_poker_seats(session, actor, house, player_id, reason, now)


def free_poker_seats(session: Session, actor: Actor, house: HouseSettings, player_id: int, reason: str,
                     now: datetime) -> list[dict]:
    rows = session.execute(
        select(SeatAssignment, Seat.number, Table).join(Seat, Seat.id == SeatAssignment.seat_id)
        .join(Table, Table.id == SeatAssignment.table_id)
        .where(SeatAssignment.player_id == player_id, SeatAssignment.left_at.is_(None), Table.kind == "poker")).all()
    freed = []
    for a, number, table in rows:
        sit_out = session.execute(select(PokerSitOut).where(PokerSitOut.assignment_id == a.id,
                                                            PokerSitOut.back_at.is_(None))).scalar_one_or_none()
        if sit_out is not None:
            sit_out.back_at, sit_out.back_by, sit_out.back_reason = now, actor.staff_id, "banned"
        seating.leave(session, actor, house, a, reason, None, now)
        freed.append({"table_id": table.id, "table_number": table.number, "seat": number})
    return freed


def _conduct_changed(session: Session, player_id: int, table_ids: list[int]) -> None:
    # the floor, and the terminals of the tables he sits at or left because of it (dealer terminals
    # hear only their own table: floor/web/sockets.py)
    sitting = session.execute(select(SeatAssignment.table_id).where(SeatAssignment.player_id == player_id,
                                                                    SeatAssignment.left_at.is_(None))).scalars()
    rooms = ["floor"] + [notify.table_room(t) for t in sorted(set(table_ids) | set(sitting))]
    notify.publish(session, "conduct.changed", {"player_id": player_id}, *rooms)


def ban_player(session: Session, actor: Actor, house: HouseSettings, player_id: int, reason: str, until: datetime,
               now: datetime | None = None) -> tuple[Ban, list[dict]]:
    """The shift manager's decision in a case the rules do not list: ban and free his poker seats."""
    now = now or datetime.now(timezone.utc)
    player = session.get(Player, player_id)
    if player is None:
        raise NotFound("no player {player_id}", player_id=player_id)
    if until <= now:
        raise BadInput("a ban must end in the future", field="until")
    b = ban(session, actor, player_id, reason, until, now=now, house=house)
    freed = exclude(session, actor, house, player_id, "banned", now)
    alerts.raise_alert(session, actor, AlertKind.PLAYER_BANNED, Msg("{player} is banned from the poker area: {reason}",
                                                             player=player.name, reason=b.reason),
                       severity=AlertSeverity.CRITICAL, data={"player_id": player_id, "ban_id": b.id, "freed_seats": freed})
    _conduct_changed(session, player_id, [s["table_id"] for s in freed])
    return b, freed


def lift_warning(session: Session, actor: Actor, warning_id: int, reason: str,
                 now: datetime | None = None) -> PlayerWarning:
    """A floor manager lifts a warning, with a reason. A ban it triggered stays until lifted itself."""
    if not (reason or "").strip():
        raise BadInput("lifting a warning needs a reason", field="reason")
    w = session.get(PlayerWarning, warning_id)
    if w is None:
        raise NotFound("no warning {warning_id}", warning_id=warning_id)
    if w.lifted_at is not None:
        raise Conflict("this warning was already lifted", code="already_lifted")
    before = warning_json(w)
    w.lifted_at, w.lifted_by, w.lift_reason = now or datetime.now(timezone.utc), actor.staff_id, reason.strip()[:300]
    session.flush()
    audit.record(session, actor, "warning.lift", f"player:{w.player_id}", before=before, after=warning_json(w))
    _conduct_changed(session, w.player_id, [w.table_id] if w.table_id else [])
    return w


def lift_ban(session: Session, actor: Actor, ban_id: int, reason: str, now: datetime | None = None) -> Ban:
    """A floor manager lifts a ban, with a reason (audited)."""
    if not (reason or "").strip():
        raise BadInput("lifting a ban needs a reason", field="reason")
    b = session.get(Ban, ban_id)
    if b is None:
        raise NotFound("no ban {ban_id}", ban_id=ban_id)
    if b.lifted_at is not None:
        raise Conflict("this ban was already lifted", code="already_lifted")
    before = ban_json(b)
    b.lifted_at, b.lifted_by, b.lift_reason = now or datetime.now(timezone.utc), actor.staff_id, reason.strip()[:300]
    session.flush()
    audit.record(session, actor, "ban.lift", f"player:{b.player_id}", before=before, after=ban_json(b))
    notify.publish(session, "bans.changed", {"player_id": b.player_id}, "role:floor_manager", "role:pit_boss")
    _conduct_changed(session, b.player_id, [])
    return b


def active_bans(session: Session, at: datetime | None = None) -> list[dict]:
    """Bans in force, with the player, the reason, who decided and the expiry."""
    at = at or datetime.now(timezone.utc)
    rows = session.execute(
        select(Ban, Player.name, Staff.name).join(Player, Player.id == Ban.player_id)
        .outerjoin(Staff, Staff.id == Ban.decided_by)
        .where(Ban.lifted_at.is_(None), Ban.starts_at <= at, or_(Ban.expires_at.is_(None), Ban.expires_at > at))
        .order_by(Ban.id.desc())).all()
    return [{**ban_json(b), "player": name, "decided_by_name": staff} for b, name, staff in rows]


def warnings_list(session: Session, house: HouseSettings, player_id: int | None = None,
                  now: datetime | None = None, include_lifted: bool = True) -> list[dict]:
    """Warnings in the current window (all players, or one), newest first, with who gave them."""
    now = now or datetime.now(timezone.utc)
    q = (select(PlayerWarning, Player.name, Staff.name).join(Player, Player.id == PlayerWarning.player_id)
         .outerjoin(Staff, Staff.id == PlayerWarning.given_by)
         .where(PlayerWarning.at >= window_start(now, house)).order_by(PlayerWarning.id.desc()).limit(200))
    if player_id is not None:
        q = q.where(PlayerWarning.player_id == player_id)
    if not include_lifted:
        q = q.where(PlayerWarning.lifted_at.is_(None))
    return [warning_json(w, name, staff) for w, name, staff in session.execute(q).all()]
