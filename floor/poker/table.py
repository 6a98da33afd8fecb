"""The poker dealer terminal's services: load a table's state into a floor.poker.blinds snapshot, show the
next hand, start it (recording who posted, who sat out, which blinds were missed), sit-outs, entry
choices, the button, straddles, and missed-blind tickets with their corrections.

The rules live in floor.poker.blinds (pure); this module only loads and stores. Functions take a Session,
an Actor and plain values; they never commit.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from floor import alerts, audit, notify
from floor.actors import Actor
from floor.errors import BadInput, Conflict, InvalidState, Msg, NotFound
from floor.gaming_day import gaming_day
from floor.models import (
    AlertKind,
    AlertSeverity,
    MissedBlindTicket,
    Player,
    PokerButtonPlacement,
    PokerEntryChoice,
    PokerHand,
    PokerHandSeat,
    PokerPosting,
    PokerSitOut,
    Seat,
    SeatAssignment,
    Table,
)
from floor.poker import blinds, conduct, queries, seating
from floor.settings import HouseSettings

STAY_ARRIVALS = ("seat_change", "rebuy")   # a new assignment that continues the same stay at the table
# a ticket's reason New hand writes (kept as a message: said in the reader's language)
MISSED = {"small": Msg("small blind passed while away"), "big": Msg("big blind passed while away"),
          "third": Msg("third blind passed while away")}


def _now(now: datetime | None) -> datetime:
    return now or datetime.now(timezone.utc)


def _poker(table: Table) -> None:
    if table.kind != "poker":
        raise InvalidState("table {table} is not a poker table", code="not_poker", table=table.number)


# --- loading ---------------------------------------------------------------------------------------

@dataclass
class SeatInfo:
    assignment: SeatAssignment
    seat: int
    state: blinds.SeatState
    stay: list[int]                  # assignment ids of this stay at the table (current first)
    away_since: datetime | None
    tickets: int


@dataclass
class TableState:
    table: Table
    snapshot: blinds.Snapshot
    seats: dict[int, SeatInfo]
    last_hand: PokerHand | None
    placement: PokerButtonPlacement | None


def _open_assignments(session: Session, table: Table) -> list[tuple[SeatAssignment, int]]:
    rows = session.execute(
        select(SeatAssignment, Seat.number).join(Seat, Seat.id == SeatAssignment.seat_id)
        .where(SeatAssignment.table_id == table.id, SeatAssignment.left_at.is_(None))
        .options(selectinload(SeatAssignment.player)).order_by(Seat.number)
    ).all()
    return [(a, n) for a, n in rows]


def _stay(session: Session, a: SeatAssignment) -> list[SeatAssignment]:
    """This assignment and the ones before it in the same stay (seat changes, rebuys at this table)."""
    chain = [a]
    cur = a
    while cur.arrival in STAY_ARRIVALS:
        prev = session.execute(
            select(SeatAssignment).where(SeatAssignment.player_id == cur.player_id,
                                         SeatAssignment.table_id == cur.table_id,
                                         SeatAssignment.id < cur.id, SeatAssignment.left_at.is_not(None))
            .order_by(SeatAssignment.id.desc()).limit(1)).scalar_one_or_none()
        if prev is None:
            break
        chain.append(prev)
        cur = prev
    return chain


def _positions(h: PokerHand | None) -> blinds.Positions | None:
    if h is None:
        return None
    return blinds.Positions(h.button_seat, h.small_seat, h.big_seat, h.third_seat)


def _void_ids(session: Session, table_id: int) -> set[int]:
    return set(session.execute(select(MissedBlindTicket.voids_id).where(
        MissedBlindTicket.table_id == table_id, MissedBlindTicket.kind == "void")).scalars())


def ticket_count(session: Session, table_id: int, stay_ids: list[int]) -> int:
    voided = _void_ids(session, table_id)
    ids = session.execute(select(MissedBlindTicket.id).where(
        MissedBlindTicket.assignment_id.in_(stay_ids), MissedBlindTicket.kind.in_(("miss", "manual")),
        MissedBlindTicket.counts_as_ticket.is_(True))).scalars()
    return sum(1 for i in ids if i not in voided)


def load(session: Session, table: Table, house: HouseSettings, now: datetime | None = None,
         straddle: bool = False) -> TableState:
    _poker(table)
    now = _now(now)
    game = table.game
    last_hand = session.execute(select(PokerHand).where(PokerHand.table_id == table.id)
                                .order_by(PokerHand.number.desc()).limit(1)).scalar_one_or_none()
    placement = session.execute(
        select(PokerButtonPlacement).where(PokerButtonPlacement.table_id == table.id)
        .order_by(PokerButtonPlacement.id.desc()).limit(1)).scalar_one_or_none()
    if placement is not None and last_hand is not None and placement.after_hand_id != last_hand.id:
        placement = None   # placed before the last hand: already used
    voided = _void_ids(session, table.id)
    infos: dict[int, SeatInfo] = {}
    for a, number in _open_assignments(session, table):
        chain = _stay(session, a)
        stay_ids = [x.id for x in chain]
        rows = session.execute(
            select(PokerHandSeat.assignment_id, PokerHandSeat.status, PokerHand.number)
            .join(PokerHand, PokerHand.id == PokerHandSeat.hand_id)
            .where(PokerHandSeat.assignment_id.in_(stay_ids))).all()
        dealt_here = any(r.status == "dealt" and r.assignment_id == a.id for r in rows)
        last_dealt = max((r.number for r in rows if r.status == "dealt"), default=0)
        returning = any(r.status == "away" and r.number > last_dealt for r in rows)
        miss_rows = session.execute(
            select(MissedBlindTicket.id, MissedBlindTicket.blind, PokerHand.number)
            .join(PokerHand, PokerHand.id == MissedBlindTicket.hand_id)
            .where(MissedBlindTicket.assignment_id.in_(stay_ids), MissedBlindTicket.kind == "miss")).all()
        missed = {r.blind for r in miss_rows if r.number > last_dealt and r.id not in voided}
        if a.arrival == "rebuy" and not dealt_here and len(chain) > 1:
            missed |= _gap_misses(session, table, chain[1], a, number, house)
        far = False
        if a.arrival == "seat_change" and not dealt_here:
            far = _far_seat_change(session, table, a, chain, number, house)
        away = session.execute(select(PokerSitOut).where(PokerSitOut.assignment_id == a.id,
                                                         PokerSitOut.back_at.is_(None))).scalar_one_or_none()
        choice = session.execute(select(PokerEntryChoice.wait_for_bb).where(PokerEntryChoice.assignment_id == a.id)
                                 .order_by(PokerEntryChoice.id.desc()).limit(1)).scalar()
        state = blinds.SeatState(seat=number, player_id=a.player_id, away=away is not None,
                                 dealt_before=dealt_here, returning=returning, missed=frozenset(missed),
                                 arrival=a.arrival if a.arrival in blinds.ARRIVALS else "new",
                                 far_seat_change=far, wait_for_bb=bool(choice))
        infos[number] = SeatInfo(a, number, state, stay_ids, away.away_at if away else None,
                                 ticket_count(session, table.id, stay_ids))
    last = _positions(last_hand)
    if _new_game(last_hand, placement, infos, house, now):
        last = None
    snap = blinds.Snapshot(seat_count=table.seat_count, small_blind=game.small_blind, big_blind=game.big_blind,
                           seats=tuple(i.state for i in infos.values()), last=last,
                           button_at=placement.seat_number if placement is not None else None, straddle=straddle)
    return TableState(table, snap, infos, last_hand, placement)


def _new_game(last_hand, placement, infos, house: HouseSettings, now: datetime) -> bool:
    """The next hand starts a game: no hand yet, the dealer said so, a new gaming day, or fewer than
    two of the players dealt in last hand are still at the table."""
    if last_hand is None or (placement is not None and placement.new_game):
        return True
    if gaming_day(last_hand.started_at, house.timezone, house.gaming_day_rollover) != \
            gaming_day(now, house.timezone, house.gaming_day_rollover):
        return True
    dealt_players = {s.player_id for s in last_hand.seats if s.status == "dealt"}
    return len(dealt_players & {i.state.player_id for i in infos.values()}) < 2


def _gap_misses(session, table, prev: SeatAssignment, a: SeatAssignment, seat: int, house) -> set[str]:
    """Blinds that passed his seat between busting (leaving) and buying back in (004 "All-in")."""
    hands = session.execute(select(PokerHand).where(PokerHand.table_id == table.id,
                                                    PokerHand.started_at <= a.sat_at)
                            .order_by(PokerHand.number)).scalars().all()
    before = [h for h in hands if h.started_at <= prev.left_at]
    gap = [h for h in hands if h.started_at > prev.left_at]
    out: set[str] = set()
    last = _positions(before[-1]) if before else None
    for h in gap:
        now_pos = _positions(h)
        out |= {b for b in blinds.blinds_passed(last, now_pos, seat, table.seat_count)
                if b != "third" or house.third_blind}
        last = now_pos
    return out


def _far_seat_change(session, table, a: SeatAssignment, chain, seat: int, house) -> bool:
    """004: a seat change to more than N occupied seats clockwise from the button (as it stood when he
    moved) owes both blinds."""
    h = session.execute(select(PokerHand).where(PokerHand.table_id == table.id, PokerHand.started_at <= a.sat_at)
                        .order_by(PokerHand.number.desc()).limit(1)).scalar_one_or_none()
    if h is None:
        return False
    old_seats = set()
    if len(chain) > 1:
        old_seats = {s.seat_number for s in h.seats if s.assignment_id == chain[1].id}
    active = [s.seat_number for s in h.seats if s.status == "dealt" and s.seat_number not in old_seats]
    return blinds.seat_change_distance(h.button_seat, active, seat, table.seat_count) > house.seat_change_blind_distance


# --- what the terminal shows -----------------------------------------------------------------------

@dataclass(frozen=True)
class Ticket:
    """A missed-blind ticket with its player's name, whether a later row voided it and (across the
    room) its table's number."""

    row: MissedBlindTicket
    player: str | None = None
    voided: bool = False
    table_number: int | None = None


def _audit_record(t: MissedBlindTicket) -> dict:
    return {"id": t.id, "player_id": t.player_id, "player": None, "seat": t.seat_number, "kind": t.kind,
            "blind": t.blind, "ticket": t.counts_as_ticket, "hand_id": t.hand_id, "voids_id": t.voids_id,
            "voided": False, "reason": t.reason, "at": t.at.isoformat()}


def terminal(session: Session, table: Table, house: HouseSettings, now: datetime | None = None) -> dict:
    """Everything the dealer terminal shows: seats, the next hand, what each seat owes (a
    ``blinds.Owed``), timers, the last hand (a PokerHand) and tickets; floor/web's TerminalSchema
    says how it looks."""
    now = _now(now)
    st = load(session, table, house, now)
    rules = blinds.Rules.from_house(house)
    plan, plan_error = None, None
    try:
        plan = blinds.plan_hand(st.snapshot, rules)
    except InvalidState as exc:
        plan_error = exc.message
    occupied = {n: i for n, i in st.seats.items()}
    warnings = conduct.warning_counts(session, [i.state.player_id for i in occupied.values()], house, now)
    seats = []
    for seat in table.seats:
        info = occupied.get(seat.number)
        if info is None:
            seats.append({"number": seat.number, "player": None})
            continue
        sp = plan.seat(seat.number) if plan else None
        posts = list(plan.posted(seat.number)) if plan else []
        kind = blinds.entrant_kind(info.state)
        owes = blinds.owed(rules, info.state, st.snapshot.small_blind, st.snapshot.big_blind)
        seats.append({
            "number": seat.number,
            "player": {"id": info.assignment.player.id, "name": info.assignment.player.name},
            "assignment_id": info.assignment.id,
            "arrival": info.assignment.arrival,
            "sat_at": info.assignment.sat_at.isoformat(),
            "away": info.state.away,
            "away_since": info.away_since.isoformat() if info.away_since else None,
            "kind": kind,                                  # in | new | far | must_move | returning
            "missed": sorted(info.state.missed),
            "wait_for_bb": info.state.wait_for_bb,
            "owes": owes,
            "tickets": info.tickets,
            "warnings": warnings.get(info.state.player_id, 0),
            "next": None if sp is None else {"status": sp.status, "role": sp.role, "note": sp.note,
                                             "postings": posts,
                                             "total": sum(p.amount for p in posts)},
        })
    voided = _void_ids(session, table.id)
    recent = session.execute(
        select(MissedBlindTicket, Player.name).join(Player, Player.id == MissedBlindTicket.player_id)
        .where(MissedBlindTicket.table_id == table.id)
        .order_by(MissedBlindTicket.id.desc()).limit(30)).all()
    return {
        "table": {"id": table.id, "number": table.number, "name": table.name, "status": table.status,
                  "seat_count": table.seat_count, "game": table.game.name,
                  "small_blind": table.game.small_blind, "big_blind": table.game.big_blind},
        "rules": {"policy": house.missed_blind_policy, "dead_button": house.dead_button,
                  "third_blind": house.third_blind, "tickets_to_forfeit": house.missed_blind_tickets_to_forfeit,
                  "tickets_on": house.missed_blind_ticket_on, "straddle": table.game.big_blind * house.straddle_big_blinds,
                  "warnings_to_ban": house.warnings_to_ban},
        "seats": seats,
        "last_hand": st.last_hand,
        "button_placed": st.placement.seat_number if st.placement else None,
        "next_hand": None if plan is None else {
            "button": plan.positions.button, "small": plan.positions.small, "big": plan.positions.big,
            "third": plan.positions.third, "dead_button": plan.dead_button, "dead_small": plan.dead_small,
            "heads_up": plan.heads_up, "new_game": plan.new_game, "first_to_act": plan.first_to_act,
            "dealt": plan.dealt, "postings": list(plan.postings),
            "misses": [{"seat": m.seat, "blind": m.blind, "ticket": m.ticket} for m in plan.misses],
            "forfeits": _forfeits(plan, st, house)},
        "next_hand_error": plan_error,
        "tickets": [Ticket(t, name, t.id in voided) for t, name in recent],
        "now": now.isoformat(),
    }


# --- changes ---------------------------------------------------------------------------------------

def _changed(session: Session, table: Table, what: str, **extra) -> None:
    notify.publish(session, "poker.changed", {"table_id": table.id, "table_number": table.number, "what": what,
                                              **extra}, notify.table_room(table.id), "floor")


def _seat_info(st: TableState, seat_number: int) -> SeatInfo:
    info = st.seats.get(seat_number)
    if info is None:
        raise NotFound("nobody sits in seat {seat_number} at table {table}", seat_number=seat_number, table=st.table.number)
    return info


def new_hand(session: Session, actor: Actor, table: Table, house: HouseSettings, now: datetime | None = None,
             straddle: bool = False) -> PokerHand:
    """Start the next hand exactly as the terminal showed it: record the positions, who was dealt in,
    who sat out or waited, every posting, the blinds missed by away players (tickets), and free the
    seat of anyone reaching the forfeit count."""
    now = _now(now)
    if table.status != "open":
        raise InvalidState("table {table} is {status}", code="table_not_open", table=table.number, status=table.status)
    rules = blinds.Rules.from_house(house)
    st = load(session, table, house, now, straddle=straddle)
    plan = blinds.plan_hand(st.snapshot, rules)
    number = (st.last_hand.number if st.last_hand else 0) + 1
    pos = plan.positions
    hand = PokerHand(table_id=table.id, number=number, started_at=now, dealer_id=actor.staff_id,
                     terminal=actor.terminal, button_seat=pos.button, small_seat=pos.small, big_seat=pos.big,
                     third_seat=pos.third, straddle_seat=plan.straddle_seat, first_to_act=plan.first_to_act,
                     dead_button=plan.dead_button, dead_small=plan.dead_small, heads_up=plan.heads_up,
                     new_game=plan.new_game, small_blind=st.snapshot.small_blind, big_blind=st.snapshot.big_blind,
                     policy=rules.policy, button_mode="dead" if rules.dead_button else "moving")
    session.add(hand)
    session.flush()
    for sp in plan.seats:
        info = st.seats[sp.seat]
        session.add(PokerHandSeat(hand_id=hand.id, seat_number=sp.seat, assignment_id=info.assignment.id,
                                  player_id=sp.player_id, status=sp.status, role=sp.role, note=sp.note[:120]))
    for p in plan.postings:
        session.add(PokerPosting(hand_id=hand.id, seat_number=p.seat, assignment_id=st.seats[p.seat].assignment.id,
                                 player_id=p.player_id, kind=p.kind, amount=p.amount, live=p.live, at=now,
                                 recorded_by=actor.staff_id))
    ticketed: dict[int, int] = {}
    for m in plan.misses:
        info = st.seats[m.seat]
        session.add(MissedBlindTicket(table_id=table.id, player_id=m.player_id, assignment_id=info.assignment.id,
                                      hand_id=hand.id, seat_number=m.seat, kind="miss", blind=m.blind,
                                      counts_as_ticket=m.ticket, at=now, recorded_by=actor.staff_id,
                                      reason=MISSED[m.blind]))
        if m.ticket:
            ticketed[m.seat] = ticketed.get(m.seat, 0) + 1
    session.flush()
    audit.record(session, actor, "poker.hand", f"table:{table.id}", after={
        "hand": number, "button": pos.button, "small": pos.small, "big": pos.big, "third": pos.third,
        "straddle": plan.straddle_seat, "dead_button": plan.dead_button, "dead_small": plan.dead_small,
        "dealt": plan.dealt, "away": [s.seat for s in plan.seats if s.status == "away"],
        "waiting": [s.seat for s in plan.seats if s.status == "waiting"],
        "postings": blinds.describe(plan), "misses": [f"seat {m.seat} {m.blind}" for m in plan.misses]})
    for seat_number in ticketed:
        if not _forfeit_if_due(session, actor, table, st.seats[seat_number], house, now):
            _warn_if_next_forfeits(session, actor, table, st.seats[seat_number], house)
    _changed(session, table, "hand", hand=number)
    return hand


def _forfeits(plan, st, house: HouseSettings) -> list[dict]:
    """The seats the next hand would free: its tickets bring them to the forfeit count (the terminal
    asks before dealing it)."""
    more: dict[int, int] = {}
    for m in plan.misses:
        if m.ticket:
            more[m.seat] = more.get(m.seat, 0) + 1
    out = []
    for seat, n in sorted(more.items()):
        info = st.seats[seat]
        if info.tickets < house.missed_blind_tickets_to_forfeit <= info.tickets + n:
            out.append({"seat": seat, "player": info.assignment.player.name, "tickets": info.tickets + n})
    return out


def _warn_if_next_forfeits(session: Session, actor: Actor, table: Table, info: SeatInfo, house: HouseSettings) -> None:
    """One ticket short of the forfeit count: the floor is told while the player can still come back."""
    count = ticket_count(session, table.id, info.stay)
    if count != house.missed_blind_tickets_to_forfeit - 1 or info.assignment.left_at is not None:
        return
    alerts.raise_alert(session, actor, AlertKind.SEAT_AT_RISK,
                       Msg("Table {table} seat {seat}: {player} has {count} missed-blind tickets; the next one costs "
                           "the seat", table=table.number, seat=info.seat, player=info.assignment.player.name,
                           count=count), severity=AlertSeverity.WARNING, table_id=table.id,
                       data={"table_number": table.number, "seat": info.seat, "player_id": info.assignment.player_id,
                             "tickets": count})


def _forfeit_if_due(session: Session, actor: Actor, table: Table, info: SeatInfo, house: HouseSettings,
                    now: datetime) -> bool:
    count = ticket_count(session, table.id, info.stay)
    if count < house.missed_blind_tickets_to_forfeit or info.assignment.left_at is not None:
        return False
    sit_out = session.execute(select(PokerSitOut).where(PokerSitOut.assignment_id == info.assignment.id,
                                                        PokerSitOut.back_at.is_(None))).scalar_one_or_none()
    if sit_out is not None:
        sit_out.back_at, sit_out.back_by, sit_out.back_reason = now, actor.staff_id, "forfeit"
    seating.leave(session, actor, house, info.assignment, "forfeit_missed_blinds", None, now)
    name = info.assignment.player.name
    audit.record(session, actor, "poker.forfeit", f"table:{table.id}",
                 after={"seat": info.seat, "player_id": info.assignment.player_id, "tickets": count})
    alerts.raise_alert(session, actor, AlertKind.SEAT_FORFEITED,
                       Msg("Table {table} seat {seat}: {player} gave up the seat ({count} missed-blind tickets). "
                           "Seat free for the next player.", table=table.number, seat=info.seat, player=name,
                           count=count), severity=AlertSeverity.WARNING, table_id=table.id,
                       data={"table_number": table.number, "seat": info.seat, "player_id": info.assignment.player_id,
                             "tickets": count})
    return True


def mark_away(session: Session, actor: Actor, table: Table, seat_number: int, house: HouseSettings,
              now: datetime | None = None) -> PokerSitOut:
    now = _now(now)
    _poker(table)
    a = queries.open_assignment(session, table.id, seat_number)
    if a is None:
        raise NotFound("nobody sits in seat {seat_number} at table {table}", seat_number=seat_number, table=table.number)
    if session.execute(select(PokerSitOut.id).where(PokerSitOut.assignment_id == a.id,
                                                    PokerSitOut.back_at.is_(None))).first():
        raise Conflict("seat {seat_number} is already away", code="already_away", seat_number=seat_number)
    s = PokerSitOut(table_id=table.id, assignment_id=a.id, player_id=a.player_id, away_at=now,
                    marked_by=actor.staff_id)
    session.add(s)
    session.flush()
    audit.record(session, actor, "poker.away", f"table:{table.id}", after={"seat": seat_number, "player_id": a.player_id})
    _changed(session, table, "away", seat=seat_number)
    return s


def mark_back(session: Session, actor: Actor, table: Table, seat_number: int, house: HouseSettings,
              now: datetime | None = None, wait_for_bb: bool | None = None) -> PokerSitOut:
    now = _now(now)
    _poker(table)
    a = queries.open_assignment(session, table.id, seat_number)
    if a is None:
        raise NotFound("nobody sits in seat {seat_number} at table {table}", seat_number=seat_number, table=table.number)
    s = session.execute(select(PokerSitOut).where(PokerSitOut.assignment_id == a.id,
                                                  PokerSitOut.back_at.is_(None))).scalar_one_or_none()
    if s is None:
        raise Conflict("seat {seat_number} is not away", code="not_away", seat_number=seat_number)
    s.back_at, s.back_by, s.back_reason = now, actor.staff_id, "back"
    if wait_for_bb is not None:
        session.add(PokerEntryChoice(assignment_id=a.id, wait_for_bb=wait_for_bb, at=now, chosen_by=actor.staff_id))
    session.flush()
    audit.record(session, actor, "poker.back", f"table:{table.id}",
                 after={"seat": seat_number, "player_id": a.player_id, "away_seconds": int((now - s.away_at).total_seconds()),
                        "wait_for_bb": wait_for_bb})
    _changed(session, table, "back", seat=seat_number)
    return s


def choose_entry(session: Session, actor: Actor, table: Table, seat_number: int, wait_for_bb: bool,
                 now: datetime | None = None) -> PokerEntryChoice:
    """The player entering says whether he posts now or waits for the big blind."""
    _poker(table)
    a = queries.open_assignment(session, table.id, seat_number)
    if a is None:
        raise NotFound("nobody sits in seat {seat_number} at table {table}", seat_number=seat_number, table=table.number)
    c = PokerEntryChoice(assignment_id=a.id, wait_for_bb=wait_for_bb, at=_now(now), chosen_by=actor.staff_id)
    session.add(c)
    session.flush()
    audit.record(session, actor, "poker.entry_choice", f"table:{table.id}",
                 after={"seat": seat_number, "player_id": a.player_id, "wait_for_bb": wait_for_bb})
    _changed(session, table, "entry", seat=seat_number)
    return c


def place_button(session: Session, actor: Actor, table: Table, seat_number: int, reason: str = "",
                 new_game: bool = False, now: datetime | None = None) -> PokerButtonPlacement:
    """Put the button on a seat for the next hand: the draw for the button at the start of a game, or
    a correction (with a reason) in the middle of one. A new game forgives nothing already recorded
    but deals everyone present in without a blind to enter."""
    _poker(table)
    if not 1 <= seat_number <= table.seat_count:
        raise BadInput("table {table} has seats 1 to {seat_count}", field="seat", table=table.number, seat_count=table.seat_count)
    last = session.execute(select(PokerHand).where(PokerHand.table_id == table.id)
                           .order_by(PokerHand.number.desc()).limit(1)).scalar_one_or_none()
    if last is not None and not new_game and not (reason or "").strip():
        raise BadInput("moving the button in the middle of a game needs a reason", field="reason")
    p = PokerButtonPlacement(table_id=table.id, seat_number=seat_number, new_game=new_game or last is None,
                             reason=(reason or "").strip()[:200], at=_now(now), placed_by=actor.staff_id,
                             after_hand_id=last.id if last else None)
    session.add(p)
    session.flush()
    audit.record(session, actor, "poker.button", f"table:{table.id}",
                 before={"button": last.button_seat if last else None},
                 after={"seat": seat_number, "new_game": p.new_game, "reason": p.reason})
    _changed(session, table, "button", seat=seat_number)
    return p


def record_straddle(session: Session, actor: Actor, table: Table, hand_id: int, house: HouseSettings,
                    now: datetime | None = None) -> PokerPosting:
    """004, 000: the player after the big blind straddles 2 big blinds before the cards; he acts last
    preflop. Recorded on the current (last) hand."""
    _poker(table)
    hand = session.get(PokerHand, hand_id)
    if hand is None or hand.table_id != table.id:
        raise NotFound("no hand {hand_id} at table {table}", hand_id=hand_id, table=table.number)
    last_number = session.execute(select(func.max(PokerHand.number)).where(PokerHand.table_id == table.id)).scalar()
    if hand.number != last_number:
        raise InvalidState("a straddle is posted only in the current hand", code="not_current_hand")
    if hand.straddle_seat is not None:
        raise Conflict("seat {straddle_seat} already straddled this hand", code="already_straddled", straddle_seat=hand.straddle_seat)
    dealt = [s for s in hand.seats if s.status == "dealt"]
    if len(dealt) < 3:
        raise InvalidState("no straddle heads-up", code="heads_up")
    seat_no = blinds.clockwise([s.seat_number for s in dealt], hand.big_seat, table.seat_count)[0]
    hs = next(s for s in dealt if s.seat_number == seat_no)
    amount = hand.big_blind * house.straddle_big_blinds
    # An entry bet he already posted counts toward the straddle (both are live).
    entry = sum(p.amount for p in hand.postings if p.seat_number == seat_no and p.kind == "entry")
    p = PokerPosting(hand_id=hand.id, seat_number=seat_no, assignment_id=hs.assignment_id, player_id=hs.player_id,
                     kind="straddle", amount=amount - entry, live=True, at=_now(now), recorded_by=actor.staff_id)
    session.add(p)
    hand.straddle_seat = seat_no
    order = blinds.clockwise([s.seat_number for s in dealt], seat_no, table.seat_count)
    hand.first_to_act = order[0]
    session.flush()
    audit.record(session, actor, "poker.straddle", f"table:{table.id}",
                 after={"hand": hand.number, "seat": seat_no, "amount": amount})
    _changed(session, table, "straddle", seat=seat_no)
    return p


def issue_ticket(session: Session, actor: Actor, table: Table, seat_number: int, reason: str, house: HouseSettings,
                 now: datetime | None = None) -> MissedBlindTicket:
    """The dealer hands a ticket the system did not record (a correction, with a reason)."""
    now = _now(now)
    if not (reason or "").strip():
        raise BadInput("a ticket by hand needs a reason", field="reason")
    st = load(session, table, house, now)
    info = _seat_info(st, seat_number)
    last_id = st.last_hand.id if st.last_hand else None
    t = MissedBlindTicket(table_id=table.id, player_id=info.assignment.player_id, assignment_id=info.assignment.id,
                          hand_id=last_id, seat_number=seat_number, kind="manual", blind=None, counts_as_ticket=True,
                          reason=reason.strip()[:200], at=now, recorded_by=actor.staff_id)
    session.add(t)
    session.flush()
    audit.record(session, actor, "poker.ticket", f"table:{table.id}", after=_audit_record(t))
    if not _forfeit_if_due(session, actor, table, info, house, now):
        _warn_if_next_forfeits(session, actor, table, info, house)
    _changed(session, table, "ticket", seat=seat_number)
    return t


def void_ticket(session: Session, actor: Actor, table: Table, ticket_id: int, reason: str,
                now: datetime | None = None) -> MissedBlindTicket:
    """Correct a ticket (he was there, the dealer pressed the wrong seat...): a new row voids it; a voided
    miss no longer counts toward what he owes either."""
    now = _now(now)
    if not (reason or "").strip():
        raise BadInput("a correction needs a reason", field="reason")
    t = session.get(MissedBlindTicket, ticket_id)
    if t is None or t.table_id != table.id:
        raise NotFound("no ticket {ticket_id} at table {table}", ticket_id=ticket_id, table=table.number)
    if t.kind == "void":
        raise InvalidState("this row is itself a correction", code="is_correction")
    if ticket_id in _void_ids(session, table.id):
        raise Conflict("ticket {ticket_id} is already voided", code="already_voided", ticket_id=ticket_id)
    v = MissedBlindTicket(table_id=table.id, player_id=t.player_id, assignment_id=t.assignment_id,
                          hand_id=t.hand_id, seat_number=t.seat_number, kind="void", blind=t.blind,
                          counts_as_ticket=False, voids_id=t.id, reason=reason.strip()[:200], at=now,
                          recorded_by=actor.staff_id)
    session.add(v)
    session.flush()
    audit.record(session, actor, "poker.ticket_void", f"table:{table.id}",
                 before=_audit_record(t), after=_audit_record(v))
    _changed(session, table, "ticket_void", seat=t.seat_number)
    return v


def tickets(session: Session, table: Table, player_id: int | None = None) -> list[Ticket]:
    voided = _void_ids(session, table.id)
    q = (select(MissedBlindTicket, Player.name).join(Player, Player.id == MissedBlindTicket.player_id)
         .where(MissedBlindTicket.table_id == table.id).order_by(MissedBlindTicket.id.desc()).limit(200))
    if player_id is not None:
        q = q.where(MissedBlindTicket.player_id == player_id)
    return [Ticket(t, name, t.id in voided) for t, name in session.execute(q).all()]


def recent_tickets(session: Session, limit: int = 50) -> list[Ticket]:
    """Tickets across the poker room, newest first (the floor tablet's panel)."""
    voided = set(session.execute(select(MissedBlindTicket.voids_id).where(MissedBlindTicket.kind == "void")).scalars())
    rows = session.execute(
        select(MissedBlindTicket, Player.name, Table.number).join(Player, Player.id == MissedBlindTicket.player_id)
        .join(Table, Table.id == MissedBlindTicket.table_id)
        .where(MissedBlindTicket.kind != "void", MissedBlindTicket.counts_as_ticket.is_(True))
        .order_by(MissedBlindTicket.id.desc()).limit(limit)).all()
    return [Ticket(t, name, t.id in voided, number) for t, name, number in rows]
