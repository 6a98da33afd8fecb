"""Places and prizes once the field is known. While late registration is open the field can still
grow, so a player out gets no place; the moment it closes (the director's tap, the clock at the end
of its level, or the house's bubble rule) everyone out so far is placed, those in the money are paid,
and a tournament down to one player is won. From then on each player out is placed as he goes."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from floor import audit, timers
from floor.actors import Actor
from floor.errors import InvalidState
from floor.models import Tournament, TournamentElimination, TournamentEntry
from floor.settings import HouseSettings
from floor.tournaments import clock, core


def pay_place(session: Session, settings: HouseSettings, t: Tournament, e: TournamentEntry, place: int,
              now: datetime) -> int:
    """The prize of a place in the money (after a deal: only the save, to the winner)."""
    deal = core.paid_deal(session, t)
    if deal is not None:
        prize = deal.save if place == 1 else 0
    else:
        pays = core.payouts(session, t, settings.tournament_payout_unit)
        prize = pays[place - 1] if place <= len(pays) else 0
    if prize:
        core.cover_guarantee(session, t, now)
        core.pay(session, t, "prize_pool", e, prize, "prize", now)
        e.prize += prize
    return prize


def finish(session: Session, settings: HouseSettings, t: Tournament, winner: TournamentEntry, now: datetime) -> None:
    """The last player in wins: first place, its prize, the bounty on his own head; the clock stops."""
    winner.status, winner.place, winner.out_at = "finished", 1, now
    pay_place(session, settings, t, winner, 1, now)
    if winner.bounty:      # the winner collects the bounty on his own head
        core.pay(session, t, "bounties", winner, winner.bounty, "bounty", now)
        winner.bounties_won += winner.bounty
        winner.bounty = 0
    t.status, t.finished_at = "finished", now
    core.release_tables(session, t)
    timers.cancel_timer(session, clock.timer_key(t))


def settle_field(session: Session, settings: HouseSettings, t: Tournament, now: datetime) -> list[TournamentEntry]:
    """Late registration is over: the players out while it was open take the last places (first out
    finishing last) and those placed in the money are paid; with one player left he has won. Returns
    the players placed now (nothing when there was nothing to do)."""
    if t.status != "running" or clock.late_open(session, t, now):
        return []
    placed = core.place_late_busts(session, t)
    for e in placed:
        prize = pay_place(session, settings, t, e, e.place, now)
        if prize:
            row = session.execute(select(TournamentElimination).where(
                TournamentElimination.entry_id == e.id)).scalars().first()
            if row is not None:
                row.prize = prize
    still = core.entries(session, t, *core.IN_PLAY)
    if len(still) == 1 and still[0].status == "seated" and t.hfh_left is None:
        finish(session, settings, t, still[0], now)
    session.flush()
    return placed


def close_late_registration(session: Session, actor: Actor, settings: HouseSettings, tournament_id: int,
                            now: datetime | None = None) -> Tournament:
    """The director closes late registration before the clock would: no more entries, re-entries or
    alternates; the field is known, so the players out so far are placed and paid. The guarantee
    stands (only the house's bubble rule drops it)."""
    now = core.now_or(now)
    t = core.lock(session, tournament_id)
    core.require_status(t, "running")
    if not clock.late_open(session, t, now):
        raise InvalidState("late registration of {name} is already closed", code="registration_closed", name=t.name)
    t.registration_closed_at = now
    session.flush()
    placed = settle_field(session, settings, t, now)
    audit.record(session, actor, "tournament.registration_closed", f"tournament:{t.id}",
                 after={"by": "director", "players_left": len(core.entries(session, t, *core.IN_PLAY)),
                        "placed": [[e.id, e.place, e.prize] for e in placed], "status": t.status})
    core.publish(session, t, "tournament.entries")
    core.publish(session, t, "tournament.clock")
    return t
