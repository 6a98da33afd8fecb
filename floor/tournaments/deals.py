"""Deals at a final table where everyone left is in the money: the floor computes an ICM or chip-chop
deal (floor.games.tournament.deal) from the chip counts and the prizes left, shows each player's
amount, and pays through the ledger once every player agreed. Without a save the deal ends the
tournament (places by stacks, floor.games.tournament.deal_final_places); with one, play goes on for
the save and the title."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from floor import audit, timers
from floor.actors import Actor
from floor.errors import BadInput, InvalidState, NotFound
from floor.games import tournament as rules
from floor.models import Tournament, TournamentDeal
from floor.settings import HouseSettings
from floor.tournaments import clock, core, places


paid_deal = core.paid_deal


def open_deal(session: Session, t: Tournament) -> TournamentDeal | None:
    return session.execute(select(TournamentDeal).where(TournamentDeal.tournament_id == t.id,
                                                        TournamentDeal.status == "offered")).scalars().first()


def _deal(session: Session, t: Tournament, deal_id: int) -> TournamentDeal:
    d = session.get(TournamentDeal, deal_id)
    if d is None or d.tournament_id != t.id:
        raise NotFound("no deal {deal_id}", deal_id=deal_id)
    if d.status != "offered":
        raise InvalidState("that deal is {status}", code="deal_" + d.status, status=d.status)
    return d


def offer(session: Session, actor: Actor, settings: HouseSettings, tournament_id: int, method: str,
          stacks: dict[int, int], save: int = 0, now: datetime | None = None) -> TournamentDeal:
    """``stacks``: every player left, entry id -> chips. A new offer replaces one not yet agreed."""
    now = core.now_or(now)
    t = core.lock(session, tournament_id)
    core.require_status(t, "running")
    if paid_deal(session, t) is not None:
        raise InvalidState("{name} already has a deal", code="deal_paid", name=t.name)
    left = core.entries(session, t, *core.IN_PLAY)
    if any(e.status != "seated" for e in left) or clock.late_open(session, t, now):
        raise InvalidState("no deal while late registration is open or alternates wait", code="deal_too_early")
    places.settle_field(session, settings, t, now)
    core.require_status(t, "running")
    left = core.entries(session, t, *core.IN_PLAY)
    pays = core.payouts(session, t, settings.tournament_payout_unit)
    if len(left) > len(pays):
        raise InvalidState("{count} players left but only {paid} places paid: a deal needs everyone in the money",
                           code="deal_before_money", count=len(left), paid=len(pays))
    if not isinstance(stacks, dict) or sorted(stacks) != sorted(e.id for e in left):
        raise BadInput("a deal needs the chips of every player left, and only theirs", field="stacks")
    ids = [e.id for e in left]
    prizes = list(pays[:len(left)])
    result = rules.deal([stacks[i] for i in ids], prizes, method=method, save=save)
    old = open_deal(session, t)
    if old is not None:
        old.status = "withdrawn"
    for e in left:
        e.chips = stacks[e.id]
    d = TournamentDeal(tournament_id=t.id, method=method, save=save, entry_ids=ids, stacks=[stacks[i] for i in ids],
                       prizes=prizes, amounts=list(result.amounts), agreed=[], status="offered", at=now,
                       by_name=actor.name)
    session.add(d)
    session.flush()
    audit.record(session, actor, "tournament.deal_offer", f"tournament:{t.id}",
                 after={"deal_id": d.id, "method": method, "save": save, "stacks": d.stacks, "amounts": d.amounts})
    core.publish(session, t, "tournament.deal", {"deal_id": d.id})
    return d


def agree(session: Session, actor: Actor, settings: HouseSettings, tournament_id: int, deal_id: int, entry_id: int,
          now: datetime | None = None) -> TournamentDeal:
    """One player says yes; the last yes pays the deal."""
    now = core.now_or(now)
    t = core.lock(session, tournament_id)
    d = _deal(session, t, deal_id)
    if entry_id not in d.entry_ids:
        raise BadInput("entry {entry_id} is not part of this deal", field="entry_id", entry_id=entry_id)
    if entry_id in d.agreed:
        raise InvalidState("that player already agreed", code="deal_agreed")
    d.agreed = d.agreed + [entry_id]
    audit.record(session, actor, "tournament.deal_agree", f"tournament:{t.id}", after={"deal_id": d.id, "entry_id": entry_id})
    if len(d.agreed) == len(d.entry_ids):
        _pay(session, settings, t, d, now)
    core.publish(session, t, "tournament.deal", {"deal_id": d.id})
    return d


def withdraw(session: Session, actor: Actor, tournament_id: int, deal_id: int, reason: str) -> TournamentDeal:
    """Someone said no (or the counts were wrong): the offer goes, nothing was paid."""
    t = core.lock(session, tournament_id)
    d = _deal(session, t, deal_id)
    d.status = "withdrawn"
    audit.record(session, actor, "tournament.deal_withdraw", f"tournament:{t.id}", after={"deal_id": d.id, "reason": reason})
    core.publish(session, t, "tournament.deal", {"deal_id": d.id})
    return d


def _pay(session: Session, settings: HouseSettings, t: Tournament, d: TournamentDeal, now: datetime) -> None:
    core.cover_guarantee(session, t, now)
    entries = [core.entry(session, t, i) for i in d.entry_ids]
    for e, amount in zip(entries, d.amounts):
        core.pay(session, t, "prize_pool", e, amount, "prize", now)
        e.prize += amount
    d.status = "paid"
    if d.save:
        return      # play goes on for the save: the winner gets it (eliminations.pay_place)
    tables = {tt.table_id: tt for tt in core.tables(session, t)}
    positions = []
    for e in entries:
        button = tables[e.table_id].button_seat or e.seat
        positions.append(rules.clockwise_from_button(e.seat, button, t.seats_per_table))
    for e, place in zip(entries, rules.deal_final_places(d.stacks, positions)):
        e.status, e.place, e.out_at = "finished", place, now
        if e.bounty:    # the bounties left go to the players whose heads they are on
            core.pay(session, t, "bounties", e, e.bounty, "bounty", now)
            e.bounties_won += e.bounty
            e.bounty = 0
    t.status, t.finished_at = "finished", now
    core.release_tables(session, t)
    timers.cancel_timer(session, clock.timer_key(t))

