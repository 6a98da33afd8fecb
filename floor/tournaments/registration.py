"""Registration at the floor or the cage: the buy-in to the prize pool, the fee to the house, the
bounty to its own account, all through the ledger; a seat drawn for a late entry; alternates when the
tables are full; re-entries; a receipt with the seat."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from floor import audit, ledger, standing
from floor import tables as tables_svc
from floor.actors import Actor
from floor.errors import BadInput, Conflict, InvalidState, NotFound
from floor.games import tournament as rules
from floor.models import Player, Tournament, TournamentDraw, TournamentEntry, TournamentPurchase
from floor.settings import HouseSettings
from floor.tournaments import clock, core

PAID_WITH = ("cash", "balance")


def _source(session: Session, player_id: int, paid_with: str) -> int:
    if paid_with == "cash":
        return ledger.cage_account(session)
    if paid_with == "balance":
        return ledger.player_account(session, player_id)
    raise BadInput("paid with cash or balance", field="paid_with")


def late_registration_open(session: Session, t: Tournament, now: datetime) -> bool:
    return clock.late_open(session, t, now)


def _seat_late(session: Session, t: Tournament, e: TournamentEntry, now: datetime) -> bool:
    """A random empty seat at one of the shortest tables; when every table in play is full the next
    table given to the tournament opens; False when there is none."""
    layout = core.layout(session, t)
    if not layout or all(len(row) >= t.seats_per_table for row in layout.values()):
        # the one that breaks last of those not yet used and not in use by anything else
        spare = [tt for tt in core.tables(session, t) if tt.opened_at is None
                 and tables_svc.free_for_tournament(session, tt.table, t.id)]
        if not spare:
            return False
        spare[-1].opened_at = now
        spare[-1].table.tournament_id = t.id
        session.flush()
        layout = core.layout(session, t)
    draw = core.new_draw(t, f"late-seat:{e.id}")
    number, seat = rules.draw_late_seat(draw, layout, t.seats_per_table)
    core.record_draw(session, t, "late_seat", draw, {"entry_id": e.id, "table": number, "seat": seat}, now)
    table = next(tt.table for tt in core.tables(session, t, in_play=True) if tt.table.number == number)
    e.status, e.table, e.seat = "seated", table, seat
    e.chips = core.structure(t).starting_stack
    return True


def seat_alternates(session: Session, t: Tournament, now: datetime) -> list[TournamentEntry]:
    """Alternates take the seats that freed up, first paid first seated."""
    seated = []
    for e in core.entries(session, t, "alternate"):
        if t.status != "running" or not _seat_late(session, t, e, now):
            break
        seated.append(e)
    session.flush()
    return seated


def receipt(session: Session, t: Tournament, e: TournamentEntry) -> dict:
    draw = None
    if e.status == "seated":
        d = session.execute(select(TournamentDraw).where(
            TournamentDraw.tournament_id == t.id, TournamentDraw.kind.in_(("late_seat", "seat_draw")))
            .order_by(TournamentDraw.id.desc())).scalars().first()
        if d is not None:
            draw = {"label": d.label, "seed_hex": d.seed_hex, "algorithm": d.algorithm}
    return {"tournament_id": t.id, "tournament": t.name, "entry_id": e.id, "player_id": e.player_id,
            "player_name": e.player.name, "entry_number": e.number, "status": e.status,
            "table": e.table.number if e.table else None, "seat": e.seat, "buy_in": t.buy_in, "fee": t.fee,
            "bounty": t.bounty, "total": t.buy_in + t.fee + t.bounty, "paid_with": e.paid_with,
            "registered_at": e.registered_at, "draw": draw,
            "purchases": [{"id": p.id, "kind": p.kind, "price": p.price, "fee": p.fee, "chips": p.chips,
                           "paid_with": p.paid_with, "at": p.at} for p in core.purchases(session, t, e.id)],
            "total_paid": t.buy_in + t.fee + t.bounty + sum(p.price + p.fee for p in core.purchases(session, t, e.id))}


def register(session: Session, actor: Actor, settings: HouseSettings, tournament_id: int, player_id: int,
             paid_with: str = "cash", now: datetime | None = None) -> TournamentEntry:
    """One entry (or re-entry) paid in full; seated at once if the tournament runs and a seat is free."""
    now = core.now_or(now)
    t = core.lock(session, tournament_id)
    if paid_with not in PAID_WITH:
        raise BadInput("paid with cash or balance", field="paid_with")
    player = session.get(Player, player_id) if isinstance(player_id, int) else None
    if player is None:
        raise NotFound("no player {player_id}", field="player_id", player_id=player_id)
    standing.refuse_if_barred(session, player_id, "poker", now)   # a tournament is in the poker area
    if not late_registration_open(session, t, now):
        raise InvalidState("registration for {name} is closed", code="registration_closed", name=t.name)
    mine = session.execute(select(TournamentEntry).where(
        TournamentEntry.tournament_id == t.id, TournamentEntry.player_id == player_id,
        TournamentEntry.status != "refunded").order_by(TournamentEntry.number)).scalars().all()
    if any(e.status in ("registered", "alternate", "seated") for e in mine):
        raise Conflict("{player} is already in {name}", code="already_registered", player=player.name, name=t.name)
    if mine and len(mine) > t.max_reentries:
        raise Conflict("{player} has no re-entry left", code="no_reentry", player=player.name)
    if t.max_entries and core.entries_count(session, t) >= t.max_entries:
        raise Conflict("{name} is full ({count} entries)", code="tournament_full", name=t.name, count=t.max_entries)
    number = (session.execute(select(func.max(TournamentEntry.number)).where(
        TournamentEntry.tournament_id == t.id, TournamentEntry.player_id == player_id)).scalar() or 0) + 1
    src = _source(session, player_id, paid_with)
    memo = f"tournament:{t.id}"
    rows = [ledger.row(src, core.account(session, t, "prize_pool"), t.buy_in, "buy_in", at=now, memo=memo)]
    if t.fee:
        rows.append(ledger.row(src, core.account(session, t, "fees"), t.fee, "fee", at=now, memo=memo))
    if t.bounty:
        rows.append(ledger.row(src, core.account(session, t, "bounties"), t.bounty, "bounty_stake", at=now, memo=memo))
    ledger.post(session, rows)
    e = TournamentEntry(tournament_id=t.id, player_id=player_id, number=number, status="registered",
                        bounty=t.bounty if t.bounty_kind in ("knockout", "progressive") else 0,
                        paid_with=paid_with, registered_at=now, registered_by_name=actor.name)
    session.add(e)
    session.flush()
    if t.status == "registering":
        capacity = len(core.tables(session, t)) * t.seats_per_table
        waiting = len(core.entries(session, t, "registered"))
        if waiting > capacity:
            e.status = "alternate"
    elif not _seat_late(session, t, e, now):
        e.status = "alternate"
    session.flush()
    audit.record(session, actor, "tournament.register", f"tournament:{t.id}",
                 after={"entry_id": e.id, "player_id": player_id, "number": number, "status": e.status,
                        "table": e.table.number if e.table else None, "seat": e.seat, "paid_with": paid_with,
                        "paid": t.buy_in + t.fee + t.bounty})
    core.publish(session, t, "tournament.entries", {"entry_id": e.id})
    return e


def unregister(session: Session, actor: Actor, tournament_id: int, entry_id: int,
               now: datetime | None = None) -> TournamentEntry:
    """Before the start (or an alternate who never got a seat): everything paid goes back the way it came."""
    now = core.now_or(now)
    t = core.lock(session, tournament_id)
    e = core.entry(session, t, entry_id)
    if not (e.status == "alternate" or (e.status == "registered" and t.status == "registering")):
        raise InvalidState("{player} is {status}: only a player not yet playing can unregister",
                           code="entry_" + e.status, player=e.player.name, status=e.status)
    refund(session, t, e, now)
    e.status = "refunded"
    session.flush()
    audit.record(session, actor, "tournament.unregister", f"tournament:{t.id}",
                 after={"entry_id": e.id, "refunded": t.buy_in + t.fee + t.bounty})
    if t.status == "registering":
        promote = core.entries(session, t, "alternate")
        capacity = len(core.tables(session, t)) * t.seats_per_table
        if promote and len(core.entries(session, t, "registered")) < capacity:
            promote[0].status = "registered"
    core.publish(session, t, "tournament.entries", {"entry_id": e.id})
    return e


def refund(session: Session, t: Tournament, e: TournamentEntry, now: datetime) -> int:
    """Everything the entry paid, back to where it came from (the cage for cash)."""
    to = _source(session, e.player_id, e.paid_with)
    memo = f"tournament:{t.id}"
    rows = [ledger.row(core.account(session, t, "prize_pool"), to, t.buy_in, "refund", at=now, memo=memo)]
    if t.fee:
        rows.append(ledger.row(core.account(session, t, "fees"), to, t.fee, "refund", at=now, memo=memo))
    if t.bounty:
        rows.append(ledger.row(core.account(session, t, "bounties"), to, t.bounty, "refund", at=now, memo=memo))
    ledger.post(session, rows)
    return t.buy_in + t.fee + t.bounty



def _refused(code: str, name: str, player: str) -> InvalidState:
    if code == "no_rebuys":
        return InvalidState("{name} has no rebuys", code=code, name=name)
    if code == "rebuys_over":
        return InvalidState("the rebuys of {name} are over", code=code, name=name)
    if code == "too_many_chips":
        return InvalidState("{player} has too many chips to rebuy", code=code, player=player)
    if code == "no_rebuy_left":
        return InvalidState("{player} has no rebuy left", code=code, player=player)
    if code == "no_add_on":
        return InvalidState("{name} has no add-on", code=code, name=name)
    if code == "add_on_not_yet":
        return InvalidState("the add-on of {name} is not offered yet", code=code, name=name)
    if code == "add_on_over":
        return InvalidState("the add-on of {name} is over", code=code, name=name)
    if code == "add_on_taken":
        return InvalidState("{player} already took the add-on", code=code, player=player)
    return InvalidState("registration for {name} is closed", code="registration_closed", name=name)


def buy_chips(session: Session, actor: Actor, settings: HouseSettings, tournament_id: int, entry_id: int,
              kind: str, chips_now: int, paid_with: str = "cash", now: datetime | None = None) -> TournamentPurchase:
    """A rebuy or the add-on for a player still seated, if the structure offers it now: the price to
    the prize pool and the fee to the house in one ledger posting; his stack becomes ``chips_now``
    (as the floor counts it, 0 for a player who lost his last chip) plus the chips bought."""
    now = core.now_or(now)
    t = core.lock(session, tournament_id)
    core.require_status(t, "running")
    if paid_with not in PAID_WITH:
        raise BadInput("paid with cash or balance", field="paid_with")
    if isinstance(chips_now, bool) or not isinstance(chips_now, int) or chips_now < 0:
        raise BadInput("the chips he has now are a whole number, at least 0", field="chips_now")
    e = core.entry(session, t, entry_id)
    if e.status != "seated":
        raise InvalidState("{player} is not playing", code="not_playing", player=e.player.name)
    structure = core.structure(t)
    if kind not in ("rebuy", "add_on"):
        raise BadInput("a purchase is a rebuy or an add-on", field="kind")
    before = sum(1 for p in core.purchases(session, t, e.id) if p.kind == kind)
    refusal = rules.purchase_refusal(structure, kind, levels_completed=clock.reading(session, t, now).levels_completed,
                                     late_registration_open=clock.late_open(session, t, now), chips_now=chips_now,
                                     bought_before=before)
    if refusal is not None:
        raise _refused(refusal, t.name, e.player.name)
    offer = structure.rebuy if kind == "rebuy" else structure.add_on
    src = _source(session, e.player_id, paid_with)
    memo = f"tournament:{t.id}"
    rows = [ledger.row(src, core.account(session, t, "prize_pool"), offer.price, kind, at=now, memo=memo)] \
        if offer.price else []
    if offer.fee:
        rows.append(ledger.row(src, core.account(session, t, "fees"), offer.fee, "fee", at=now, memo=memo))
    if rows:
        ledger.post(session, rows)
    p = TournamentPurchase(tournament_id=t.id, entry_id=e.id, kind=kind, price=offer.price, fee=offer.fee,
                           chips=offer.chips, paid_with=paid_with, at=now, by_name=actor.name)
    session.add(p)
    e.chips = chips_now + offer.chips
    session.flush()
    audit.record(session, actor, "tournament." + kind, f"tournament:{t.id}",
                 after={"purchase_id": p.id, "entry_id": e.id, "player_id": e.player_id, "price": offer.price,
                        "fee": offer.fee, "chips": offer.chips, "chips_now": chips_now, "paid_with": paid_with,
                        "number": before + 1})
    core.publish(session, t, "tournament.entries", {"entry_id": e.id})
    core.publish(session, t, "tournament.clock")
    return p


def purchase_receipt(session: Session, t: Tournament, p: TournamentPurchase) -> dict:
    e = core.entry(session, t, p.entry_id)
    return {"tournament_id": t.id, "tournament": t.name, "purchase_id": p.id, "entry_id": e.id,
            "player_name": e.player.name, "kind": p.kind, "price": p.price, "fee": p.fee, "total": p.price + p.fee,
            "chips": p.chips, "stack": e.chips, "paid_with": p.paid_with, "at": p.at,
            "number": sum(1 for x in core.purchases(session, t, e.id) if x.kind == p.kind and x.id <= p.id)}
