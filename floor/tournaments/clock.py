"""The start (the seat draw) and the clock: levels advance by a timer at the end of each step, the
floor pauses and resumes with a reason. The clock is never a ticking counter: the start, the pauses
and now give the running seconds (floor.games.tournament.running_seconds), so every process reads the
same clock and a restart loses nothing."""
from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from floor import audit, timers
from floor import tables as tables_svc
from floor.actors import Actor
from floor.errors import BadInput, InvalidState
from floor.games import tournament as rules
from floor.models import Tournament, TournamentPause
from floor.tournaments import core

JOB = "tournaments.clock"


def timer_key(t: Tournament) -> str:
    return f"tournament:{t.id}:clock"


def pauses(session: Session, t: Tournament) -> list[TournamentPause]:
    return list(session.execute(select(TournamentPause).where(TournamentPause.tournament_id == t.id)
                                .order_by(TournamentPause.id)).scalars())


def open_pause(session: Session, t: Tournament) -> TournamentPause | None:
    return next((p for p in pauses(session, t) if p.resumed_at is None), None)


def elapsed(session: Session, t: Tournament, now: datetime) -> int:
    if t.started_at is None:
        return 0
    return rules.running_seconds(t.started_at, now, [(p.paused_at, p.resumed_at) for p in pauses(session, t)])


def reading(session: Session, t: Tournament, now: datetime) -> rules.ClockReading:
    return rules.clock(core.structure(t), elapsed(session, t, now))


def late_open(session: Session, t: Tournament, now: datetime) -> bool:
    """Late registration still takes entries: the structure's window, unless the floor closed it early
    (the house's rule at the money)."""
    if t.status == "registering":
        return True
    return (t.status == "running" and t.registration_closed_at is None
            and reading(session, t, now).late_registration_open)


def _schedule(session: Session, t: Tournament, now: datetime) -> None:
    """The next timer: the end of the step in play (nothing while paused or past the schedule)."""
    r = reading(session, t, now)
    if open_pause(session, t) is not None or r.beyond_schedule or t.status != "running":
        timers.cancel_timer(session, timer_key(t))
        return
    timers.set_timer(session, timer_key(t), JOB, now + timedelta(seconds=r.seconds_left), t.id)


def start(session: Session, actor: Actor, tournament_id: int, now: datetime | None = None) -> Tournament:
    """Draw the seats of everyone registered over as few tables as they need (those that break last),
    draw each table's button, and start the clock."""
    now = core.now_or(now)
    t = core.lock(session, tournament_id)
    core.require_status(t, "registering")
    players = core.entries(session, t, "registered")
    if len(players) < 2:
        raise InvalidState("{name} needs two players to start", code="too_few_players", name=t.name)
    given = core.tables(session, t)
    needed = -(-len(players) // t.seats_per_table)
    if needed > len(given):
        raise InvalidState("{count} players need {tables} tables", code="too_few_tables",
                           count=len(players), tables=needed)
    used = given[len(given) - needed:]   # the tables that break last
    for tt in used:   # the table's one occupant becomes this tournament (floor/tables.py)
        tables_svc.refuse_unless_free_for_tournament(session, tt.table, t.id)
        tt.table.tournament_id = t.id
    draw = core.new_draw(t, "seat-draw")
    seats = rules.draw_seats(draw, [e.id for e in players],
                             {tt.table.number: range(1, t.seats_per_table + 1) for tt in used})
    by_number = {tt.table.number: tt for tt in used}
    by_id = {e.id: e for e in players}
    stack = core.structure(t).starting_stack
    for s in seats.seats:
        e = by_id[s.player]
        e.status, e.table, e.seat, e.chips = "seated", by_number[s.table].table, s.seat, stack
    for b in seats.buttons:
        by_number[b.table].button_seat = b.button_seat
        by_number[b.table].opened_at = now
    core.record_draw(session, t, "seat_draw", draw, {
        "seats": [{"entry_id": s.player, "table": s.table, "seat": s.seat} for s in seats.seats],
        "buttons": [{"table": b.table, "seat": b.button_seat, "cards": [[seat, str(c)] for seat, c in b.cards]}
                    for b in seats.buttons]}, now)
    t.status, t.started_at, t.step_index = "running", now, 0
    session.flush()
    _schedule(session, t, now)
    audit.record(session, actor, "tournament.start", f"tournament:{t.id}",
                 after={"players": len(players), "tables": [tt.table.number for tt in used], "seed": draw.seed_hex})
    core.publish(session, t, "tournament.clock")
    core.publish(session, t, "tournament.seats")
    return t


def pause(session: Session, actor: Actor, tournament_id: int, reason: str, now: datetime | None = None) -> Tournament:
    now = core.now_or(now)
    if not isinstance(reason, str) or not reason.strip():
        raise BadInput("a pause needs a reason", field="reason")
    t = core.lock(session, tournament_id)
    core.require_status(t, "running")
    if open_pause(session, t) is not None:
        raise InvalidState("the clock of {name} is already paused", code="clock_paused", name=t.name)
    stop(session, actor, t, reason.strip()[:200], now)
    return t


def stop(session: Session, actor: Actor, t: Tournament, reason: str, now: datetime) -> None:
    """Pause the clock of a tournament already locked by the caller."""
    session.add(TournamentPause(tournament_id=t.id, paused_at=now, reason=reason, by_name=actor.name))
    session.flush()
    _schedule(session, t, now)
    audit.record(session, actor, "tournament.pause", f"tournament:{t.id}", after={"reason": reason})
    core.publish(session, t, "tournament.clock")


def resume(session: Session, actor: Actor, tournament_id: int, now: datetime | None = None) -> Tournament:
    now = core.now_or(now)
    t = core.lock(session, tournament_id)
    core.require_status(t, "running")
    p = open_pause(session, t)
    if p is None:
        raise InvalidState("the clock of {name} is running", code="clock_running", name=t.name)
    if t.hfh_hand is not None:
        raise InvalidState("{name} plays hand for hand: deal the next hand", code="hand_for_hand", name=t.name)
    release(session, actor, t, p, now)
    return t


def release(session: Session, actor: Actor, t: Tournament, p: TournamentPause, now: datetime) -> None:
    """Resume the clock of a tournament already locked by the caller."""
    p.resumed_at = now
    session.flush()
    _schedule(session, t, now)
    audit.record(session, actor, "tournament.resume", f"tournament:{t.id}",
                 after={"paused_seconds": int((now - p.paused_at).total_seconds())})
    core.publish(session, t, "tournament.clock")


def tick(session: Session, tournament_id: int, now: datetime | None = None) -> bool:
    """The timer at the end of a step: announce the new step and set the next timer. A late or
    repeated timer finds the step already announced (or the clock paused) and only reschedules.
    (The players out during late registration are placed by the job, places.settle_field.)"""
    now = core.now_or(now)
    t = core.lock(session, tournament_id)
    if t.status != "running":
        return False
    r = reading(session, t, now)
    changed = r.step_index != t.step_index
    if changed:
        before = t.step_index
        t.step_index = r.step_index
        audit.record(session, Actor.system("tournament clock"), "tournament.level", f"tournament:{t.id}",
                     before={"step": before}, after={"step": r.step_index, "level": r.level_number})
        core.publish(session, t, "tournament.clock")
    _schedule(session, t, now)
    return changed


def _offered(session: Session, t: Tournament, r: rules.ClockReading, now: datetime, kind: str) -> bool:
    """The structure sells this kind of chips now (to a player who has not bought any yet)."""
    if t.status != "running":
        return False
    return rules.purchase_refusal(core.structure(t), kind, levels_completed=r.levels_completed,
                                  late_registration_open=late_open(session, t, now), chips_now=0,
                                  bought_before=0) is None


def state(session: Session, t: Tournament, now: datetime, payout_unit: int) -> dict:
    """What the TV board and the tablets show: level, blinds, antes, time left, next level and break,
    players left, average stack, prize pool and payouts, the pause and its reason."""
    r = reading(session, t, now)
    level = r.level
    p = open_pause(session, t)
    left = core.entries(session, t, *core.IN_PLAY)
    counted = sum(e.chips for e in left if e.status == "seated")
    in_play = core.chips_in_play(session, t) if t.started_at is not None else 0
    pays = core.payouts(session, t, payout_unit)
    return {
        "tournament_id": t.id, "name": t.name, "status": t.status,
        "started": t.started_at is not None,
        "step_index": r.step_index, "on_break": isinstance(r.step, rules.Break),
        "break_note": r.step.note if isinstance(r.step, rules.Break) else None,
        "level": r.level_number,
        "small_blind": level.small_blind if level else None, "big_blind": level.big_blind if level else None,
        "ante": level.ante if level else 0, "big_blind_ante": level.big_blind_ante if level else False,
        "seconds_left": r.seconds_left, "beyond_schedule": r.beyond_schedule,
        "next_level": r.next_level_number,
        "next_small_blind": r.next_level.small_blind if r.next_level else None,
        "next_big_blind": r.next_level.big_blind if r.next_level else None,
        "next_ante": r.next_level.ante if r.next_level else None,
        "seconds_to_next_break": r.seconds_to_next_break,
        "late_registration_open": late_open(session, t, now),
        "seconds_to_late_registration_end": r.seconds_to_late_registration_end
        if t.status == "running" and t.registration_closed_at is None else None,
        "registration_closed_early": t.registration_closed_at is not None,
        "hand_for_hand": t.hfh_hand is not None,
        "hand_for_hand_hand": t.hfh_hand or None, "hand_in_play": t.hfh_left is not None,
        "tables_done": list(t.hfh_done or []) if t.hfh_left is not None else [],
        "tables_in_play": [tt.table.number for tt in core.tables(session, t, in_play=True)],
        "paid_places": core.paid_places(session, t, payout_unit),
        "rebuy_open": _offered(session, t, r, now, "rebuy"), "add_on_open": _offered(session, t, r, now, "add_on"),
        "paused": p is not None, "pause_reason": p.reason if p else None,
        "players_left": len(left), "entries": core.entries_count(session, t),
        "average_stack": in_play // len(left) if left and t.started_at is not None else 0,
        "chips_in_play": in_play, "chips_counted": counted,
        # an alternate's stack waits for his seat: it is in play, not on a table to count
        "counts_add_up": t.started_at is None
        or counted + core.structure(t).starting_stack * sum(1 for e in left if e.status == "alternate") == in_play,
        "prize_pool": core.prize_pool(session, t), "payouts": list(pays),
        "as_of": now,
    }
