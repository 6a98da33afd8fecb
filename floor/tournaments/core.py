"""What every part of a tournament needs: the locked row, its accounts, its rules as pure objects,
the players still in, the recorded draws, and the live update."""
from __future__ import annotations

import secrets
from datetime import datetime, timezone

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from floor import ledger, notify
from floor.actors import Actor
from floor.errors import InvalidState, NotFound
from floor.games import tournament as rules
from floor.models import (Staff, Tournament, TournamentDeal, TournamentDraw, TournamentElimination, TournamentEntry,
                          TournamentPurchase, TournamentTable)
from floor.settings import HouseSettings

IN_PLAY = ("seated", "alternate")     # players still in the tournament (an alternate has paid, waits a seat)


def now_or(now: datetime | None) -> datetime:
    return now or datetime.now(timezone.utc)


def get(session: Session, tournament_id: int) -> Tournament:
    t = session.get(Tournament, tournament_id)
    if t is None:
        raise NotFound("no tournament {tournament_id}", tournament_id=tournament_id)
    return t


def lock(session: Session, tournament_id: int) -> Tournament:
    """The tournament row, locked for this transaction: changes to one tournament queue up."""
    t = session.execute(select(Tournament).where(Tournament.id == tournament_id).with_for_update(of=Tournament)
                        .execution_options(populate_existing=True)).scalar_one_or_none()
    if t is None:
        raise NotFound("no tournament {tournament_id}", tournament_id=tournament_id)
    return t


def require_status(t: Tournament, *statuses: str) -> None:
    if t.status not in statuses:
        raise InvalidState("{name} is {status}", code="tournament_" + t.status, name=t.name, status=t.status)


# --- accounts ------------------------------------------------------------------------------------

def account(session: Session, t: Tournament, kind: str) -> int:
    """prize_pool | bounties | fees | overlay, made on first use."""
    return ledger.named_account(session, f"{kind}:t{t.id}", kind)


def purchases(session: Session, t: Tournament, entry_id: int | None = None) -> list[TournamentPurchase]:
    """Rebuys and add-ons paid (a refunded one excluded), oldest first."""
    q = select(TournamentPurchase).where(TournamentPurchase.tournament_id == t.id, TournamentPurchase.status == "paid")
    if entry_id is not None:
        q = q.where(TournamentPurchase.entry_id == entry_id)
    return list(session.execute(q.order_by(TournamentPurchase.id)).scalars())


def purchases_in(session: Session, t: Tournament) -> tuple[int, int]:
    """(to the prize pool, to the house) from rebuys and add-ons."""
    row = session.execute(select(func.coalesce(func.sum(TournamentPurchase.price), 0),
                                 func.coalesce(func.sum(TournamentPurchase.fee), 0)).where(
        TournamentPurchase.tournament_id == t.id, TournamentPurchase.status == "paid")).one()
    return int(row[0]), int(row[1])


def pool_collected(session: Session, t: Tournament) -> int:
    """What the entries, rebuys and add-ons put into the prize pool (the overlay excluded)."""
    return entries_count(session, t) * t.buy_in + purchases_in(session, t)[0]


def prize_pool(session: Session, t: Tournament) -> int:
    """The pool the places share: what was collected, or the guarantee if more (unless registration
    was closed at the money, which drops the guarantee)."""
    return rules.prize_pool(pool_collected(session, t), 0 if t.guarantee_void else t.guarantee)


def paid_places(session: Session, t: Tournament, unit: int) -> int:
    return sum(1 for p in payouts(session, t, unit) if p > 0)


def pay(session: Session, t: Tournament, frm: str, e: TournamentEntry, amount: int, kind: str,
        now: datetime, *, actor: Actor, house: HouseSettings, purpose: ledger.Purpose = ledger.Purpose.PRIZE,
        approval: Actor | None = None, requested_by: int | None = None) -> None:
    """From one of the tournament's accounts to the player's balance (the cage pays him out), through
    the ledger's check: ``purpose`` says what kind of payout it is (a prize or bounty by the rules, a
    deal's, a cancellation's), ``approval`` the second person where its rule asks for one."""
    if amount > 0:
        grant = ledger.authorize(session, actor, purpose, amount, house=house, player_id=e.player_id,
                                 approval=approval, requested_by=requested_by, at=now)
        ledger.post(session, [ledger.row(account(session, t, frm), ledger.player_account(session, e.player_id),
                                         amount, kind, at=now, memo=f"tournament:{t.id}")], grant=grant)


def paid_deal(session: Session, t: Tournament) -> TournamentDeal | None:
    """The deal the players agreed and were paid (after it only the save, if any, is still played for)."""
    return session.execute(select(TournamentDeal).where(TournamentDeal.tournament_id == t.id,
                                                        TournamentDeal.status == "paid")).scalars().first()


def guarantee_approval(session: Session, t: Tournament) -> Actor | None:
    """The second person who approved the tournament's guarantee, if one did."""
    if t.guarantee_approved_by is None:
        return None
    who = session.get(Staff, t.guarantee_approved_by)
    return Actor(t.guarantee_approved_by_name or who.name, who.role, "floor", who.id) if who else None


def cover_guarantee(session: Session, t: Tournament, now: datetime, *, actor: Actor, house: HouseSettings) -> None:
    """Before the first prize: the house adds what the entries left short of the guarantee, once,
    through the ledger's check (above the threshold, with the approval given before the start)."""
    short = prize_pool(session, t) - pool_collected(session, t)
    overlay = account(session, t, "overlay")
    if short > 0 and ledger.balance(session, overlay) == 0:
        grant = ledger.authorize(session, actor, ledger.Purpose.OVERLAY, short, house=house,
                                 approval=guarantee_approval(session, t), requested_by=t.created_by, at=now)
        ledger.post(session, [ledger.row(overlay, account(session, t, "prize_pool"), short, "overlay", at=now,
                                         memo=f"tournament:{t.id}")], grant=grant)


# --- rules as objects ----------------------------------------------------------------------------

def structure(t: Tournament) -> rules.Structure:
    return rules.structure_from_data(t.structure)


def payout_table(t: Tournament) -> rules.PayoutTable:
    return rules.payout_table(t.payout_table)


def payouts(session: Session, t: Tournament, unit: int, pool: int | None = None) -> tuple[int, ...]:
    """The prize of each place from first down, for the entries so far (``pool``: other than the
    prize pool, e.g. without the guarantee)."""
    n = entries_count(session, t)
    if n == 0:
        return ()
    pool = prize_pool(session, t) if pool is None else pool
    table = payout_table(t)
    if n < table.bands[0].min_entries:
        return (pool,)   # a field below the first band: the winner takes all
    return rules.payouts(pool, n, table, unit=unit)


# --- entries and tables --------------------------------------------------------------------------

def entries(session: Session, t: Tournament, *statuses: str) -> list[TournamentEntry]:
    q = select(TournamentEntry).where(TournamentEntry.tournament_id == t.id)
    if statuses:
        q = q.where(TournamentEntry.status.in_(statuses))
    return list(session.execute(q.order_by(TournamentEntry.id)).scalars())


def entries_count(session: Session, t: Tournament) -> int:
    """Paid entries, re-entries included (a refunded one is not an entry)."""
    return session.execute(select(func.count()).select_from(TournamentEntry).where(
        TournamentEntry.tournament_id == t.id, TournamentEntry.status != "refunded")).scalar_one()


def entry(session: Session, t: Tournament, entry_id: int) -> TournamentEntry:
    e = session.get(TournamentEntry, entry_id)
    if e is None or e.tournament_id != t.id:
        raise NotFound("no entry {entry_id} in {name}", entry_id=entry_id, name=t.name)
    return e


def tables(session: Session, t: Tournament, *, in_play: bool = False) -> list[TournamentTable]:
    """The tournament's tables in breaking order (first to break first)."""
    q = select(TournamentTable).where(TournamentTable.tournament_id == t.id)
    if in_play:
        q = q.where(TournamentTable.opened_at.is_not(None), TournamentTable.broken_at.is_(None))
    return list(session.execute(q.order_by(TournamentTable.break_rank)).scalars())


def layout(session: Session, t: Tournament) -> dict[int, dict[int, int]]:
    """Table number -> {seat: entry id} for every table in play (the pure rules' view)."""
    numbers = {tt.table_id: tt.table.number for tt in tables(session, t)}
    out = {tt.table.number: {} for tt in tables(session, t, in_play=True)}
    for e in entries(session, t, "seated"):
        out.setdefault(numbers[e.table_id], {})[e.seat] = e.id
    return out


def chips_in_play(session: Session, t: Tournament) -> int:
    """Every chip handed out: a starting stack per entry (an alternate's waits for his seat) and the
    chips of each rebuy and add-on; players going out only move chips to the winners, except a player
    made to leave by a ban, whose chips are taken out of play."""
    bought = session.execute(select(func.coalesce(func.sum(TournamentPurchase.chips), 0)).where(
        TournamentPurchase.tournament_id == t.id, TournamentPurchase.status == "paid")).scalar_one()
    removed = session.execute(select(func.coalesce(func.sum(TournamentElimination.chips_removed), 0)).where(
        TournamentElimination.tournament_id == t.id)).scalar_one()
    return entries_count(session, t) * structure(t).starting_stack + int(bought) - int(removed)


def place_late_busts(session: Session, t: Tournament) -> list[TournamentEntry]:
    """Players out while late registration was open got no place then (the field was still growing).
    Once it is closed they take the last places, the first out finishing last; on one hand the order
    ``bust_places`` gave them (kept on their elimination rows) stands."""
    waiting = session.execute(
        select(TournamentElimination, TournamentEntry).join(TournamentEntry, TournamentEntry.id == TournamentElimination.entry_id)
        .where(TournamentElimination.tournament_id == t.id, TournamentEntry.place.is_(None),
               TournamentEntry.status == "out",
               # the busts of a hand-for-hand hand still being played are placed at its end
               TournamentElimination.hand != (t.hfh_hand if t.hfh_left is not None else -1))
        .order_by(TournamentElimination.hand, TournamentElimination.place.desc())).all()
    place = entries_count(session, t)
    for elim, e in waiting:
        e.place = elim.place = place
        place -= 1
    return [e for _, e in waiting]


# --- draws ---------------------------------------------------------------------------------------

def new_draw(t: Tournament, label: str) -> rules.Draw:
    """A fresh seed for one draw; the caller records it with ``record_draw`` before showing the result."""
    return rules.Draw(secrets.token_bytes(32), f"t{t.id}:{label}")


def record_draw(session: Session, t: Tournament, kind: str, draw: rules.Draw, result: dict,
                at: datetime) -> TournamentDraw:
    d = TournamentDraw(tournament_id=t.id, kind=kind, label=draw.label, seed_hex=draw.seed_hex,
                       algorithm=rules.DRAW_ALGORITHM, result=result, at=at)
    session.add(d)
    session.flush()
    return d


def release_table(tt: TournamentTable) -> None:
    """The tournament leaves this table (broken, or the tournament over): it is free for the floor
    again (its one occupant, floor/tables.py)."""
    if tt.table.tournament_id == tt.tournament_id:
        tt.table.tournament_id = None


def release_tables(session: Session, t: Tournament) -> None:
    for tt in tables(session, t):
        release_table(tt)


# --- live updates --------------------------------------------------------------------------------

def publish(session: Session, t: Tournament, event: str, payload: dict | None = None) -> None:
    """After the commit: the staff tablets and the TV board."""
    notify.publish(session, event, {"tournament_id": t.id, **(payload or {})}, "floor", "board")
