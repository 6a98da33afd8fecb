"""Seating: a player sits in a seat, and leaves it; and the poker room rules built on these two moves
(docs/rules.md): buy-ins per structure, anti-ratholing, one seat per game, cooling-off after the main
table, seat changes, table-change requests, players away and chip pickup, busting twice.

The database holds the invariants (one open assignment per seat, one per player per table), so two
tablets seating at once cannot both win: the loser gets a Conflict. Seating one player locks his
player row first, so the "one seat per game" check cannot race either.

``SeatAssignment.arrival`` tells the dealer terminal how a player came: "new", "must_move",
"table_change", "seat_change". A seat change keeps the player's ``sat_at`` (his place in the table's
must-move order is when he sat down at this table, not at this seat).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from floor import alerts, audit, notify, timers
from floor.actors import Actor
from floor.errors import BadInput, Conflict, InvalidState, Money, Msg, NotFound
from floor.models import AlertKind, AlertSeverity, ListCall, Player, Seat, SeatAssignment, SeatAway, Table, TableChangeRequest, WaitlistEntry
from floor.poker import pass_feed, queries
from floor.poker.queries import free_seats, lock_player, open_assignment, open_table_changes, seats_in_game
from floor.settings import HouseSettings

ARRIVALS = ("new", "must_move", "table_change", "seat_change", "rebuy")
SEAT_CHANGES_KEY = "floor_seat_changes"     # session.info: a SeatChanges (see mustmove)


def _now(now: datetime | None) -> datetime:
    return now or datetime.now(timezone.utc)


def _seat(session: Session, table: Table, seat_number: int) -> Seat:
    seat = session.execute(
        select(Seat).where(Seat.table_id == table.id, Seat.number == seat_number)).scalar_one_or_none()
    if seat is None:
        raise NotFound("table {table} has no seat {seat_number}", table=table.number, seat_number=seat_number)
    return seat


def seated_assignment(session: Session, table: Table, seat_number: int, lock: bool = True) -> SeatAssignment:
    """The open assignment in a seat (locked for the caller's change), or 409 if the seat is empty."""
    _seat(session, table, seat_number)
    a = open_assignment(session, table.id, seat_number, lock=lock)
    if a is None:
        raise Conflict("nobody sits in seat {seat_number} at table {table}", code="seat_empty", seat_number=seat_number, table=table.number)
    return a


@dataclass
class SeatChanges:
    """Tables whose seats changed in this transaction, and the house rules to judge them by: who is
    due to move is published when the transaction commits (floor.poker.mustmove)."""
    settings: HouseSettings
    table_ids: set[int]


def touched(session: Session, settings: HouseSettings, table_ids) -> None:
    pending = session.info.get(SEAT_CHANGES_KEY)
    if pending is None:
        session.info[SEAT_CHANGES_KEY] = SeatChanges(settings, set(table_ids))
    else:
        pending.table_ids.update(table_ids)


def publish_table(session: Session, table_id: int) -> None:
    notify.publish(session, "tables.changed", {"table_id": table_id}, "floor", "board", notify.table_room(table_id))
    table = session.get(Table, table_id)
    if table is not None and table.kind == "poker" and table.game_id is not None:
        pass_feed.game_changed(session, table.game_id)   # a seat freed or taken: the waits move


def sit(session: Session, actor: Actor, settings: HouseSettings, table: Table, seat_number: int, player_id: int,
        buy_in: int = 0, now: datetime | None = None, arrival: str = "new",
        sat_at: datetime | None = None) -> SeatAssignment:
    """Put a player in a free seat. Rules about who may sit there are the caller's (seat_player)."""
    if table.status != "open":
        raise InvalidState("table {table} is {status}", table=table.number, status=table.status)
    if arrival not in ARRIVALS:
        raise BadInput("unknown arrival {arrival!r}", field="arrival", arrival=arrival)
    seat = _seat(session, table, seat_number)
    if open_assignment(session, table.id, seat_number) is not None:
        raise Conflict("seat {seat_number} at table {table} is taken", code="seat_taken", seat_number=seat_number, table=table.number)
    a = SeatAssignment(seat_id=seat.id, table_id=table.id, player_id=player_id, buy_in=buy_in,
                       sat_at=sat_at or _now(now), arrival=arrival)
    session.flush()
    try:
        with session.begin_nested():
            session.add(a)
            session.flush()
    except IntegrityError:
        # Another tablet won the race for this seat (or seated him at this table) first.
        raise Conflict("seat {seat_number} at table {table} was just taken, or the player already sits at this table", code="seat_taken", seat_number=seat_number, table=table.number) from None
    audit.record(session, actor, "seat.sit", f"table:{table.id}",
                 after={"seat": seat_number, "player_id": player_id, "buy_in": buy_in, "arrival": arrival})
    touched(session, settings, [table.id])
    publish_table(session, table.id)
    return a


def leave(session: Session, actor: Actor, settings: HouseSettings, assignment: SeatAssignment, reason: str,
          chips_out: int | None = None, now: datetime | None = None) -> SeatAssignment:
    """Close a player's stay in a seat (left, busted, moved, forfeited, banned...).

    Whoever frees a seat this way (the dealer terminal too) makes the floor propose the next player:
    proposals and due must-move moves are derived from the seats, not from who called leave().
    """
    if assignment.left_at is not None:
        raise Conflict("this player has already left the seat", code="already_left")
    at = _now(now)
    assignment.left_at = at
    assignment.reason_left = reason
    assignment.chips_out = chips_out
    # He is no longer away from this seat, and a request to change from this table ends with him.
    for away in session.execute(select(SeatAway).where(SeatAway.assignment_id == assignment.id,
                                                       SeatAway.back_at.is_(None))).scalars():
        away.back_at = at
        timers.cancel_timer(session, f"pickup-{away.id}")
    if reason != "seat_change":
        for req in session.execute(select(TableChangeRequest).where(
                TableChangeRequest.player_id == assignment.player_id,
                TableChangeRequest.from_table_id == assignment.table_id,
                TableChangeRequest.closed_at.is_(None))).scalars():
            req.closed_at, req.outcome = at, ("done" if reason == "table_change" else "cancelled")
    session.flush()
    audit.record(session, actor, "seat.leave", f"table:{assignment.table_id}",
                 before={"seat_id": assignment.seat_id, "player_id": assignment.player_id},
                 after={"reason": reason, "chips_out": chips_out})
    touched(session, settings, [assignment.table_id])
    publish_table(session, assignment.table_id)
    return assignment


# --- Buy-ins (001) and anti-ratholing (000) -------------------------------------------------------

@dataclass(frozen=True)
class BuyInLimits:
    minimum: int                  # cents
    maximum: int | None           # cents; None: no cap (fixed limit)
    rathole_minimum: int | None   # what anti-ratholing asks of this player, if anything
    note: Msg

    def as_dict(self) -> dict:
        return {"minimum": self.minimum, "maximum": self.maximum, "rathole_minimum": self.rathole_minimum,
                "note": self.note}


def structure_limits(structure: str | None, big_blind: int, settings: HouseSettings) -> tuple[int, int | None]:
    """Table buy-in limits in cents (001): no-limit 20-100 big blinds, pot limit 20 big blinds to 100
    big bets (in pot limit the big bet is the big blind), fixed limit at least 10 big bets (the big bet
    of a fixed-limit game is twice the big blind), no cap."""
    if structure == "no_limit":
        return settings.nl_min_buyin_bb * big_blind, settings.nl_max_buyin_bb * big_blind
    if structure == "pot_limit":
        return settings.pl_min_buyin_bb * big_blind, settings.pl_max_buyin_big_bets * big_blind
    if structure == "fixed_limit":
        return settings.fl_min_buyin_big_bets * 2 * big_blind, None
    return 0, None


def rathole_minimum(chips_out: int | None, left_at: datetime | None, now: datetime, table_minimum: int,
                    minutes: int) -> int | None:
    """000: leaving with more than the minimum buy-in and coming back to the same table within the
    window needs at least what he left with."""
    if chips_out is None or left_at is None or chips_out <= table_minimum:
        return None
    if now - left_at >= timedelta(minutes=minutes):
        return None
    return chips_out


def buy_in_limits(session: Session, settings: HouseSettings, table: Table, player_id: int,
                  now: datetime | None = None) -> BuyInLimits:
    now = _now(now)
    game = table.game
    lo, hi = structure_limits(game.structure, game.big_blind, settings)
    last = session.execute(
        select(SeatAssignment).where(SeatAssignment.player_id == player_id, SeatAssignment.table_id == table.id,
                                     SeatAssignment.left_at.is_not(None))
        .order_by(SeatAssignment.left_at.desc()).limit(1)).scalar_one_or_none()
    rat = rathole_minimum(last.chips_out, last.left_at, now, lo, settings.rathole_minutes) if last else None
    structure = game.structure or game.kind
    note = (Msg("{structure}: {least} to {most}", structure=structure, least=Money(lo), most=Money(hi)) if hi
            else Msg("{structure}: {least} or more", structure=structure, least=Money(lo)))
    if rat is not None:
        until = last.left_at + timedelta(minutes=settings.rathole_minutes)
        note = Msg("{limits}; left this table with {chips} at {left}: at least that until {until}", limits=note,
                   chips=Money(rat), left=last.left_at, until=until)
        lo = max(lo, rat)
        hi = None if hi is None else max(hi, rat)
    return BuyInLimits(lo, hi, rat, note)


def check_buy_in(limits: BuyInLimits, amount: int) -> None:
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise BadInput("the buy-in is a positive amount in cents", field="buy_in")
    if amount < limits.minimum:
        raise BadInput("the buy-in must be at least {least} ({note})", field="buy_in", least=Money(limits.minimum),
                       note=limits.note)
    if limits.maximum is not None and amount > limits.maximum:
        raise BadInput("the buy-in may be at most {most} ({note})", field="buy_in", most=Money(limits.maximum),
                       note=limits.note)


# --- Who may sit where ----------------------------------------------------------------------------


def refusal(session: Session, settings: HouseSettings, table: Table, player_id: int, now: datetime,
            arrival: str = "new", moving_from: SeatAssignment | None = None) -> tuple[str, Msg] | None:
    """Why this player may not sit at this table now, as (code, sentence); None if he may."""
    if table.tournament_id is not None:   # the table's one occupant is a tournament (floor/tables.py)
        return "tournament_table", Msg("table {table} is playing a tournament", table=table.number)
    b = queries.active_ban(session, player_id, now)
    if b is not None:
        if b.expires_at:
            return "banned", Msg("he is banned from the poker room until {until}: {reason}", until=b.expires_at,
                                 reason=b.reason)
        return "banned", Msg("he is banned from the poker room: {reason}", reason=b.reason)
    for a in seats_in_game(session, player_id, table.game_id):
        if moving_from is None or a.id != moving_from.id:
            t = session.get(Table, a.table_id)
            return "seated_in_game", Msg("he already holds a seat in this game (table {table}); one seat per game",
                                         table=t.number)
    chain = queries.chain_of(session, table.id)
    if chain is not None:
        pos = chain.position(table.id)
        if arrival in ("new", "table_change") and pos < len(chain.tables) - 1:
            return ("mustmove_fed", Msg("seats at table {table} are filled from table {feeder} in must-move order",
                                        table=chain.number(table.id), feeder=chain.number(chain.tables[pos + 1])))
        if arrival == "table_change" and moving_from is not None and moving_from.table_id in chain.tables:
            return ("main_to_mustmove", Msg("no change from the main table (or a must-move table) to a must-move "
                                            "table of the same game"))
        if pos > 0 and arrival != "must_move":
            left = queries.left_main_at(session, player_id, chain)
            wait = timedelta(minutes=settings.mustmove_annex_wait_minutes)
            if left is not None and now - left < wait:
                return ("cooling_off", Msg("he left the main table at {left}: no annex table of this game before {until}",
                                           left=left, until=left + wait))
    return None


def check_may_sit(session: Session, settings: HouseSettings, table: Table, player_id: int, now: datetime,
                  arrival: str = "new", moving_from: SeatAssignment | None = None) -> None:
    why = refusal(session, settings, table, player_id, now, arrival, moving_from)
    if why is not None:
        code, message = why
        player = session.get(Player, player_id)
        raise Conflict("{player} may not sit at table {table}: {reason}", code=code,
                       player=player.name if player else "?", table=table.number, reason=message)


def call_holding(session: Session, table_id: int, seat_number: int) -> ListCall | None:
    return session.execute(select(ListCall).where(ListCall.table_id == table_id, ListCall.seat_number == seat_number,
                                                  ListCall.closed_at.is_(None))).scalar_one_or_none()


def check_seat_free(session: Session, table: Table, seat_number: int, for_call: ListCall | None = None) -> None:
    _seat(session, table, seat_number)
    a = open_assignment(session, table.id, seat_number)
    if a is not None:
        raise Conflict("seat {seat_number} at table {table} is taken by {player}", code="seat_taken", seat_number=seat_number, table=table.number, player=a.player.name)
    held = call_holding(session, table.id, seat_number)
    if held is not None and (for_call is None or held.id != for_call.id):
        raise Conflict("seat {seat_number} at table {table} is held for {player} (called at {at})", code="seat_held",
                       seat_number=seat_number, table=table.number, player=held.entry.player.name, at=held.called_at)


def pick_seat(session: Session, table: Table, seat_number: int | None) -> int:
    if seat_number is not None:
        return seat_number
    free = free_seats(session, table)
    if not free:
        raise Conflict("table {table} has no free seat", code="table_full", table=table.number)
    return free[0]


def seat_player(session: Session, actor: Actor, settings: HouseSettings, table: Table, seat_number: int,
                player_id: int, buy_in: int, now: datetime | None = None, for_call: ListCall | None = None
                ) -> SeatAssignment:
    """Seat a new player (from the list or walking up) with every house rule checked."""
    now = _now(now)
    if table.kind != "poker":
        raise InvalidState("table {table} is not a poker table", table=table.number)
    if table.status != "open":
        raise InvalidState("table {table} is {status}", table=table.number, status=table.status)
    lock_player(session, player_id)
    check_may_sit(session, settings, table, player_id, now)
    check_seat_free(session, table, seat_number, for_call)
    check_buy_in(buy_in_limits(session, settings, table, player_id, now), buy_in)
    return sit(session, actor, settings, table, seat_number, player_id, buy_in, now, arrival="new")


def change_seat(session: Session, actor: Actor, settings: HouseSettings, table: Table, from_seat: int, to_seat: int,
                now: datetime | None = None) -> SeatAssignment:
    """Same table, another seat: he keeps his chips and his place in the must-move order."""
    now = _now(now)
    a = seated_assignment(session, table, from_seat)
    if to_seat == from_seat:
        raise BadInput("he already sits in that seat", field="to_seat")
    check_seat_free(session, table, to_seat)
    sat_at, player_id = a.sat_at, a.player_id
    leave(session, actor, settings, a, "seat_change", None, now)
    return sit(session, actor, settings, table, to_seat, player_id, 0, now, arrival="seat_change", sat_at=sat_at)


def leave_seat(session: Session, actor: Actor, settings: HouseSettings, table: Table, seat_number: int, reason: str,
               chips_out: int | None, now: datetime | None = None) -> SeatAssignment:
    if chips_out is not None and (chips_out < 0):
        raise BadInput("chips out cannot be negative", field="chips_out")
    a = seated_assignment(session, table, seat_number)
    return leave(session, actor, settings, a, reason, chips_out, now)


# --- Table-change requests -------------------------------------------------------------------------

def _audit_record(r: TableChangeRequest) -> dict:
    return {"id": r.id, "player": {"id": r.player.id, "name": r.player.name}, "game_id": r.game_id,
            "from_table": r.from_table.number, "to_table": r.to_table.number,
            "requested_at": r.requested_at.isoformat(), "outcome": r.outcome}


def request_table_change(session: Session, actor: Actor, settings: HouseSettings, player_id: int,
                         to_table: Table, now: datetime | None = None) -> TableChangeRequest:
    now = _now(now)
    if to_table.kind != "poker":
        raise BadInput("table {to_table} is not a poker table", field="to_table", to_table=to_table.number)
    seated = seats_in_game(session, player_id, to_table.game_id)
    if not seated:
        raise Conflict("a table change is for a player seated in the same game", code="not_seated_in_game")
    frm = seated[0]
    if frm.table_id == to_table.id:
        raise BadInput("he already sits at table {to_table}", field="to_table", to_table=to_table.number)
    why = refusal(session, settings, to_table, player_id, now, "table_change", frm)
    if why is not None and why[0] != "cooling_off":
        raise Conflict("no table change to table {to_table}: {reason}", code=why[0], to_table=to_table.number,
                       reason=why[1])
    r = TableChangeRequest(game_id=to_table.game_id, player_id=player_id, from_table_id=frm.table_id,
                           to_table_id=to_table.id, requested_at=now, requested_by=actor.staff_id)
    session.flush()
    try:
        with session.begin_nested():
            session.add(r)
            session.flush()
    except IntegrityError:
        raise Conflict("he already asked for table {to_table}", code="already_requested", to_table=to_table.number) from None
    audit.record(session, actor, "tablechange.request", f"player:{player_id}", after=_audit_record(r))
    notify.publish(session, "lists.changed", {"game_id": to_table.game_id}, "floor")
    return r


def _lock_request(session: Session, request_id: int) -> TableChangeRequest:
    r = session.execute(select(TableChangeRequest).where(TableChangeRequest.id == request_id).with_for_update(of=TableChangeRequest)
                        .execution_options(populate_existing=True)).scalar_one_or_none()
    if r is None:
        raise NotFound("no table-change request {request_id}", request_id=request_id)
    if r.closed_at is not None:
        raise Conflict("this table-change request is already {outcome}", code="request_closed", outcome=r.outcome)
    return r


def cancel_table_change(session: Session, actor: Actor, request_id: int, now: datetime | None = None) -> TableChangeRequest:
    r = _lock_request(session, request_id)
    r.closed_at, r.outcome = _now(now), "cancelled"
    audit.record(session, actor, "tablechange.cancel", f"player:{r.player_id}", after={"request": r.id})
    notify.publish(session, "lists.changed", {"game_id": r.game_id}, "floor")
    return r


def honour_table_change(session: Session, actor: Actor, settings: HouseSettings, request_id: int,
                        seat_number: int | None = None, now: datetime | None = None,
                        reason: str | None = None) -> SeatAssignment:
    """Move a player to the table he asked for: requests for one table are honoured in order; he takes
    his chips with him (no buy-in)."""
    now = _now(now)
    r = _lock_request(session, request_id)
    to_table = session.get(Table, r.to_table_id)
    if to_table.status != "open":
        raise InvalidState("table {to_table} is {status}", to_table=to_table.number, status=to_table.status)
    earlier = [q for q in open_table_changes(session, to_table.id) if q.id < r.id]
    if earlier and not (reason or "").strip():
        raise Conflict("{player} asked for table {to_table} first; give a reason to honour this request before his", code="not_first", player=earlier[0].player.name, to_table=to_table.number)
    lock_player(session, r.player_id)
    frm = session.execute(select(SeatAssignment).where(
        SeatAssignment.player_id == r.player_id, SeatAssignment.table_id == r.from_table_id,
        SeatAssignment.left_at.is_(None)).with_for_update().execution_options(populate_existing=True)).scalar_one_or_none()
    if frm is None:
        raise Conflict("{player} no longer sits at the table he asked to leave", code="not_seated", player=r.player.name)
    seat_number = pick_seat(session, to_table, seat_number)
    check_may_sit(session, settings, to_table, r.player_id, now, "table_change", frm)
    check_seat_free(session, to_table, seat_number)
    leave(session, actor, settings, frm, "table_change", None, now)
    a = sit(session, actor, settings, to_table, seat_number, r.player_id, 0, now, arrival="table_change")
    audit.record(session, actor, "tablechange.honour", f"player:{r.player_id}",
                 after={"request": r.id, "to_table": to_table.number, "seat": seat_number, "reason": reason})
    notify.publish(session, "lists.changed", {"game_id": r.game_id}, "floor")
    return a


# --- Away from the table, chip pickup --------------------------------------------------------------

def open_away(session: Session, assignment_id: int) -> SeatAway | None:
    return session.execute(select(SeatAway).where(SeatAway.assignment_id == assignment_id,
                                                  SeatAway.back_at.is_(None))).scalar_one_or_none()


def mark_away(session: Session, actor: Actor, settings: HouseSettings, table: Table, seat_number: int,
              now: datetime | None = None) -> SeatAway:
    """The player left the table for a while (the dealer terminal's sit-out may call this too)."""
    now = _now(now)
    a = seated_assignment(session, table, seat_number)
    if open_away(session, a.id) is not None:
        raise Conflict("{player} is already marked away", code="already_away", player=a.player.name)
    away = SeatAway(assignment_id=a.id, away_at=now, marked_by=actor.name)
    session.flush()
    try:
        with session.begin_nested():
            session.add(away)
            session.flush()
    except IntegrityError:
        raise Conflict("{player} is already marked away", code="already_away", player=a.player.name) from None
    timers.set_timer(session, f"pickup-{away.id}", "seating.pickup_due",
                     now + timedelta(minutes=settings.chip_pickup_minutes), away.id)
    audit.record(session, actor, "seat.away", f"table:{table.id}", after={"seat": seat_number, "player_id": a.player_id})
    publish_table(session, table.id)
    return away


def mark_back(session: Session, actor: Actor, table: Table, seat_number: int, now: datetime | None = None) -> SeatAway:
    a = seated_assignment(session, table, seat_number)
    away = open_away(session, a.id)
    if away is None:
        raise Conflict("{player} is not marked away", code="not_away", player=a.player.name)
    away.back_at = _now(now)
    timers.cancel_timer(session, f"pickup-{away.id}")
    audit.record(session, actor, "seat.back", f"table:{table.id}", after={"seat": seat_number, "player_id": a.player_id})
    publish_table(session, table.id)
    return away


def pickup_due(session: Session, settings: HouseSettings, now: datetime | None = None) -> list[dict]:
    """Seats whose player has been away longer than the house allows while that game's list waits."""
    now = _now(now)
    limit = now - timedelta(minutes=settings.chip_pickup_minutes)
    rows = session.execute(
        select(SeatAway, SeatAssignment, Table).join(SeatAssignment, SeatAssignment.id == SeatAway.assignment_id)
        .join(Table, Table.id == SeatAssignment.table_id)
        .where(SeatAway.back_at.is_(None), SeatAway.away_at <= limit, SeatAssignment.left_at.is_(None))).all()
    out = []
    for away, a, table in rows:
        waiting = session.execute(select(func.count(WaitlistEntry.id)).where(
            WaitlistEntry.game_id == table.game_id, WaitlistEntry.closed_at.is_(None))).scalar()
        if waiting:
            out.append({"table_id": table.id, "table": table.number, "seat": a.seat.number,
                        "player": {"id": a.player_id, "name": a.player.name},
                        "away_since": away.away_at.isoformat(), "waiting": waiting})
    return out


def pickup_alert(session: Session, away_id: int, now: datetime | None = None):
    """The pickup timer fired: if he is still away and the game's list waits, alert the floor."""
    away = session.get(SeatAway, away_id)
    if away is None or away.back_at is not None:
        return None
    a = session.get(SeatAssignment, away.assignment_id)
    if a.left_at is not None:
        return None
    table = session.get(Table, a.table_id)
    waiting = session.execute(select(func.count(WaitlistEntry.id)).where(
        WaitlistEntry.game_id == table.game_id, WaitlistEntry.closed_at.is_(None))).scalar()
    if not waiting:
        return None
    return alerts.raise_alert(session, Actor.system("scheduler"), AlertKind.CHIP_PICKUP,
                              Msg("Table {table} seat {seat}: {player} away since {since}, {waiting} waiting: "
                                  "pick up his chips?", table=table.number, seat=a.seat.number, player=a.player.name,
                                  since=away.away_at, waiting=waiting),
                              severity=AlertSeverity.WARNING, table_id=table.id,
                              data={"seat": a.seat.number, "player_id": a.player_id})


def confirm_pickup(session: Session, actor: Actor, settings: HouseSettings, table: Table, seat_number: int,
                   chips_out: int | None, now: datetime | None = None) -> SeatAssignment:
    now = _now(now)
    a = seated_assignment(session, table, seat_number)
    if not any(p["table_id"] == table.id and p["seat"] == seat_number for p in pickup_due(session, settings, now)):
        raise Conflict("seat {seat_number} at table {table} is not due for a chip pickup", code="not_due", seat_number=seat_number, table=table.number)
    audit.record(session, actor, "seat.pickup", f"table:{table.id}",
                 after={"seat": seat_number, "player_id": a.player_id, "chips": chips_out})
    return leave(session, actor, settings, a, AlertKind.CHIP_PICKUP, chips_out, now)


# --- Busting (004 "All-in") ------------------------------------------------------------------------


