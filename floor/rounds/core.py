"""The round state machine shared by every live game: open betting, no more bets, result, hold,
settle exactly once, void exactly once, recover after a restart.

Exactly once, in the database: settling or voiding a round inserts its one Settlement row (unique
round_id) in the same transaction as the round's transfers and its status change, after locking
the round row. A repeated result, a second process or a replay after a crash finds the status
already moved (or loses the unique insert) and does nothing. A crash mid-settle rolls the whole
transaction back: the round is still at "result" and ``recover`` (or the stored timer) settles it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from floor import alerts, audit, dealers, ledger, notify, timers
from floor.actors import Actor
from floor.errors import Conflict, InvalidState, Money, Msg, NotFound
from floor.models import Bet, DeviceFrame, Round, RoundEvent, Settlement, Shoe, Table, Transfer
from floor.models.rounds import ACTIVE
from floor.models import AlertKind, AlertSeverity, RoundStatus, TableKind
from floor.rounds import line
from floor.rounds.payouts import payouts
from floor.settings import HouseSettings

SYSTEM = Actor.system("rounds")
SETTLE_BACKSTOP = timedelta(seconds=5)
BET_COLUMNS = (Bet.id, Bet.account_id, Bet.spot, Bet.numbers, Bet.amount, Bet.seat, Bet.hand, Bet.player_id)


def now_utc() -> datetime:
    return datetime.now(timezone.utc)


@dataclass
class Outcome:
    """What a device event did. After committing, the bridge calls ``rounds.settle(session,
    outcome.settle)`` in a new transaction when it is set, and writes ``command`` to the device."""

    round_id: int | None = None
    status: str | None = None
    settle: int | None = None
    command: str | None = None
    notes: list[str] = field(default_factory=list)

    def note(self, text: str) -> "Outcome":
        self.notes.append(text)
        return self


# --- finding rounds ------------------------------------------------------------------------------

def get_table(session: Session, table_id: int) -> Table:
    table = session.get(Table, table_id)
    if table is None:
        raise NotFound("no table {table_id}", table_id=table_id)
    return table


def active_round(session: Session, table_id: int, lock: bool = True) -> Round | None:
    q = select(Round).where(Round.table_id == table_id, Round.status.in_(ACTIVE))
    if lock:
        q = q.with_for_update()
    return session.execute(q.execution_options(populate_existing=True)).scalar_one_or_none()


def last_round(session: Session, table_id: int) -> Round | None:
    return session.execute(select(Round).where(Round.table_id == table_id).order_by(Round.number.desc())
                           .limit(1)).scalar_one_or_none()


def get_round(session: Session, round_id: int, lock: bool = False) -> Round:
    q = select(Round).where(Round.id == round_id)
    if lock:
        q = q.with_for_update()
    r = session.execute(q.execution_options(populate_existing=True)).scalar_one_or_none()
    if r is None:
        raise NotFound("no round {round_id}", round_id=round_id)
    return r


def current_shoe(session: Session, table_id: int) -> Shoe | None:
    return session.execute(select(Shoe).where(Shoe.table_id == table_id).order_by(Shoe.number.desc())
                           .limit(1)).scalar_one_or_none()


# --- rows that tell the story ----------------------------------------------------------------------

def event(session: Session, r: Round | None, table_id: int, kind: str, at: datetime, actor: Actor,
          data: dict | None = None, status_from: str | None = None, status_to: str | None = None,
          step: int | None = None) -> RoundEvent:
    ev = RoundEvent(round_id=r.id if r is not None else None, table_id=table_id, at=at, kind=kind,
                    status_from=status_from, status_to=status_to, data=data, step=step, actor=actor.name)
    session.add(ev)
    return ev


def frame(session: Session, device: str | None, table_id: int | None, raw: bytes | None, summary: str,
          at: datetime, round_id: int | None) -> None:
    """File a raw device frame against its round (the pit boss timeline and replays read these).
    ``summary``: a ``Msg`` (a card as ``card``), so the pit reads it in its language."""
    if raw is None:
        return
    session.add(DeviceFrame(device=device or "unknown", table_id=table_id, arrived_at=at, raw=bytes(raw),
                            summary=summary, round_id=round_id))


def device_frame(session: Session, table_id: int | None, device: str, raw: bytes, summary: str = "",
                 at: datetime | None = None) -> None:
    """Store a frame that is not an event for the round (a heartbeat, a reply, a frame error)."""
    at = at or now_utc()
    r = active_round(session, table_id, lock=False) if table_id is not None else None
    frame(session, device, table_id, raw, summary, at, r.id if r else None)


def paid_by_bet(session: Session, round_id: int) -> dict[int, int]:
    """What each bet of a settled or voided round has been handed back, by the ledger alone: what
    went to its account net of what came out of it (commission, a correction taking a win back),
    stakes left out. One source of truth, corrections included."""
    paid: dict[int, int] = {}
    rows = session.execute(select(Transfer.bet_id, Transfer.amount, Transfer.from_account_id, Transfer.to_account_id,
                                  Bet.account_id).join(Bet, Bet.id == Transfer.bet_id)
                           .where(Transfer.round_id == round_id, Transfer.kind != "stake")).all()
    for bet_id, amount, frm, to, acc in rows:
        if to == acc:
            paid[bet_id] = paid.get(bet_id, 0) + amount
        elif frm == acc:
            paid[bet_id] = paid.get(bet_id, 0) - amount
    return paid


def public_result(r: Round) -> dict | None:
    """The result without anything a player must not see before it is shown (nothing hidden after
    the result; during a blackjack round the hole card is left out)."""
    if r.result is None:
        return None
    res = dict(r.result)
    res.pop("flow", None)
    return res


def publish(session: Session, r: Round, name: str = "round.changed") -> None:
    payload = {"id": r.id, "table_id": r.table_id, "number": r.number, "kind": r.kind, "status": r.status,
               "closes_at": r.closes_at.isoformat() if r.closes_at else None, "result": public_result(r),
               "held_reason": r.held_reason, "spin": r.spin, "coup": r.coup}
    notify.publish(session, name, payload, notify.table_room(r.table_id), "floor", "board")


# --- moving the state machine ----------------------------------------------------------------------

def set_status(session: Session, r: Round, to: str, at: datetime, actor: Actor, kind: str = "status",
               data: dict | None = None) -> None:
    before = r.status
    r.status = to
    if to in ("locked", "dealing") and r.locked_at is None:
        r.locked_at = at
    if to == "result":
        r.result_at = at
    if to in ("settled", "voided"):
        r.ended_at = at
    event(session, r, r.table_id, kind, at, actor, data, status_from=before, status_to=to)
    session.flush()   # the version check runs here: a concurrent change makes this one fail
    audit.record(session, actor, f"round.{to}", f"round:{r.id}", before={"status": before},
                 after={"status": to, **({"data": data} if data else {})}, at=at)
    publish(session, r)


def open_round(session: Session, actor: Actor, table: Table, at: datetime, house: HouseSettings,
               *, status: str = "betting", timed: bool = True, spin: int | None = None) -> Round:
    """Start a round at ``table``: betting (with its timer), or straight to "locked" when a wheel
    says "no more bets" for a round the host never saw open."""
    if table.status != "open":
        raise InvalidState("table {table} is {status}", code="table_closed", table=table.number, status=table.status)
    if table.kind == TableKind.POKER:
        raise InvalidState("poker tables have no live rounds", code="wrong_game")
    # Asked first: a failed insert is only the last guard (against a race), and SQLite's driver cannot
    # always roll back to the savepoint around it.
    if active_round(session, table.id) is not None:
        raise Conflict("table {table} already has a round running", code="round_running", table=table.number)
    number = (session.execute(select(func.max(Round.number)).where(Round.table_id == table.id)).scalar() or 0) + 1
    shoe_id = coup = None
    if table.kind == TableKind.BACCARAT:
        shoe = current_shoe(session, table.id)
        if shoe is None or shoe.status == "finished":
            raise InvalidState("the shoe is finished: the dealer must confirm a new shoe", code="new_shoe_needed")
        coup = (session.execute(select(func.max(Round.coup)).where(Round.shoe_id == shoe.id)).scalar() or 0) + 1
        if shoe.status == "last_coup":
            if shoe.last_coup is None:
                shoe.last_coup = coup
            elif coup > shoe.last_coup:
                raise InvalidState("the cut card is out: the dealer must confirm a new shoe", code="new_shoe_needed")
        shoe_id = shoe.id
    closes_at = at + timedelta(seconds=house.betting_seconds) if timed and status == "betting" else None
    r = Round(table_id=table.id, number=number, kind=table.kind, status=status, shoe_id=shoe_id, coup=coup,
              spin=spin, opened_at=at, closes_at=closes_at, locked_at=at if status != "betting" else None,
              device={}, steps=0, dealer_id=dealers.current_dealer(session, table.id))
    try:
        with session.begin_nested():
            session.add(r)   # inside the savepoint: a second live round rolls back alone (409), not the transaction
            session.flush()
    except IntegrityError:
        raise Conflict("table {table} already has a round running", code="round_running", table=table.number) from None
    event(session, r, table.id, "status", at, actor, {"closes_at": closes_at.isoformat() if closes_at else None},
          status_to=status)
    audit.record(session, actor, "round.open", f"round:{r.id}",
                 after={"table_id": table.id, "number": number, "status": status, "coup": coup}, at=at)
    if closes_at is not None:
        timers.set_timer(session, f"round:{r.id}:betting", "rounds.close_betting", closes_at, r.id)
    publish(session, r)
    return r


def hold(session: Session, actor: Actor, r: Round, reason: str, at: datetime, data: dict | None = None) -> Round:
    """Stop the round for the pit boss: nothing settles until he settles or voids it."""
    if r.status not in ACTIVE:
        return r
    r.held_reason = reason     # kept whole, its template and values too (floor.models.base.sentence)
    set_status(session, r, RoundStatus.HELD, at, actor, data={"reason": reason, **(data or {})})
    timers.cancel_timer(session, f"round:{r.id}:betting")
    timers.cancel_timer(session, f"round:{r.id}:decision")
    table = session.get(Table, r.table_id)
    alerts.raise_alert(session, actor, AlertKind.ROUND_HELD, Msg("Table {table} round {round} held: {reason}",
                                                          table=table.number, round=r.number, reason=reason),
                       severity=AlertSeverity.CRITICAL, table_id=r.table_id, data={"round_id": r.id, "reason": reason})
    publish(session, r, "round.held")
    notify.publish(session, "round.held", {"id": r.id, "table_id": r.table_id, "reason": reason},
                   "role:pit_boss")
    return r


def stray(session: Session, actor: Actor, table_id: int, kind: str, message: str, at: datetime,
          data: dict | None = None, r: Round | None = None) -> None:
    """Something a device sent that fits no round: recorded, alerted, never settled."""
    event(session, r, table_id, kind, at, actor, data)
    alerts.raise_alert(session, actor, AlertKind(kind), message, severity=AlertSeverity.WARNING, table_id=table_id,
                       data=data)


# --- entry by hand (floor.rounds.hand has the moves; the state is read here, where results land) -----

ENTRY_MODE = "entry_mode"      # the round event that switches a table to entry by hand and back
KEYED = "keyed_by_hand"        # a result keyed at the terminal, waiting for a second person
ENTERED = "entered_by_hand"    # that result confirmed: the round settles from it


def entry_by_hand(session: Session, table_id: int) -> dict | None:
    """The table's entry by hand when the pit boss switched it so (its last ``entry_mode`` event
    says so): why, who and when; None while its devices drive its rounds."""
    ev = session.execute(select(RoundEvent).where(RoundEvent.table_id == table_id, RoundEvent.kind == ENTRY_MODE)
                         .order_by(RoundEvent.id.desc()).limit(1)).scalar_one_or_none()
    if ev is None or not (ev.data or {}).get("by_hand"):
        return None
    return {**(ev.data or {}), "at": ev.at.isoformat() if ev.at else None, "by": ev.actor}


def note_keyer(r: Round, actor: Actor) -> None:
    """Who typed part of the round's result at a terminal: none of them may confirm it."""
    if actor.staff_id is None:
        return
    dev = dict(r.device or {})
    keyers = list(dev.get("keyers") or [])
    if actor.staff_id not in [k.get("id") for k in keyers]:
        keyers.append({"id": actor.staff_id, "name": actor.name})
        r.device = {**dev, "keyers": keyers}


def keep_keyed(session: Session, actor: Actor, r: Round, result: dict, at: datetime) -> Outcome:
    """A result entered by hand: kept on the round, nothing settles, until a second person (a
    floor manager or a pit boss who keyed none of it) confirms it (``floor.rounds.hand.confirm``)."""
    note_keyer(r, actor)
    dev = dict(r.device or {})
    keyers = list(dev.get("keyers") or [])
    shown = {k: v for k, v in result.items() if k != "flow"}
    r.device = {**dev, "keyed": {"result": result, "at": at.isoformat(), "by": keyers}}
    for name in ("decision", "device", "noball"):
        timers.cancel_timer(session, f"round:{r.id}:{name}")
    event(session, r, r.table_id, KEYED, at, actor, {"result": shown, "keyed_by": [k["name"] for k in keyers]})
    audit.record(session, actor, "round.keyed_by_hand", f"round:{r.id}",
                 after={"result": shown, "keyed_by": [k["name"] for k in keyers]}, at=at)
    session.flush()
    publish(session, r, "round.keyed")
    notify.publish(session, "round.keyed", {"id": r.id, "table_id": r.table_id, "number": r.number},
                   "role:pit_boss", "role:floor_manager")
    return Outcome(r.id, r.status)


def record_result(session: Session, actor: Actor, r: Round, result: dict, at: datetime, *,
                  confirmed: bool = False) -> Outcome:
    """The round has its result: it is stored (and committed by the caller) before settling, so a
    crash while settling leaves a round that ``recover`` settles. At a table switched to entry by
    hand a result not ``confirmed`` by the second person is only kept (``keep_keyed``)."""
    if not confirmed and entry_by_hand(session, r.table_id) is not None:
        return keep_keyed(session, actor, r, result, at)
    r.result = result
    set_status(session, r, RoundStatus.RESULT, at, actor, data=public_result(r))
    timers.cancel_timer(session, f"round:{r.id}:decision")
    # The process that recorded the result settles at once; this timer is the backstop when that
    # process dies first (recovery at every process's start is the other one).
    timers.set_timer(session, f"round:{r.id}:settle", "rounds.settle", at + SETTLE_BACKSTOP, r.id)
    publish(session, r, "round.result")
    return Outcome(r.id, r.status, settle=r.id)


# --- settlement ------------------------------------------------------------------------------------

def _bets(session: Session, round_id: int) -> list[dict]:
    return [dict(b) for b in session.execute(select(*BET_COLUMNS).where(Bet.round_id == round_id)
                                             .order_by(Bet.id)).mappings()]


def _claim(session: Session, r: Round, outcome: str, actor: Actor, at: datetime, reason: str | None) -> Settlement | None:
    """Insert the round's one settlement row; None when another transaction already has it."""
    s = Settlement(round_id=r.id, at=at, outcome=outcome, actor=actor.name, reason=reason)
    try:
        with session.begin_nested():
            session.add(s)
            session.flush()
    except IntegrityError:
        return None
    return s


def _after_end(session: Session, r: Round, at: datetime) -> None:
    """A baccarat round that was the shoe's last coup finishes the shoe."""
    if r.shoe_id is None:
        return
    shoe = session.get(Shoe, r.shoe_id)
    if shoe is not None and shoe.status == "last_coup" and shoe.last_coup is not None and r.coup >= shoe.last_coup:
        shoe.status = "finished"
        shoe.finished_at = at
        notify.publish(session, "shoe.changed", {"table_id": r.table_id, "shoe": shoe.number, "status": "finished"},
                       notify.table_room(r.table_id), "floor", "board")


def settle(session: Session, round_id: int, at: datetime | None = None, actor: Actor = SYSTEM,
           *, house: HouseSettings, from_held: bool = False) -> Settlement | None:
    """Settle a round at "result": every bet paid or collected by ledger transfers. Exactly once:
    a second call (same process, another process, a replay after a restart) returns None."""
    at = at or now_utc()
    r = get_round(session, round_id, lock=True)
    if r.status in ("settled", "voided"):
        return None
    if r.status != RoundStatus.RESULT and not (from_held and r.status == RoundStatus.HELD and r.result is not None):
        raise InvalidState("round {round} is {status}, not waiting to be settled", code="not_settleable", round=r.id, status=r.status)
    s = _claim(session, r, "settled", actor, at, None)
    if s is None:
        return None
    acc = ledger.table_accounts(session, r.table_id)
    bets = _bets(session, r.id)
    results = payouts(r.kind, r.result, bets, house)
    late = _late(session, r, bets)
    rows, staked, returned, commission = [], 0, 0, 0
    for b, (back, comm) in zip(bets, results):
        stake, fund, bid = b["amount"], b["account_id"], b["id"]
        if bid in late:   # placed after the line closed betting: never paid, the stake comes back
            staked += stake
            returned += stake
            rows.append(ledger.row(acc.in_play, fund, stake, "refund", at=at, round_id=r.id, bet_id=bid))
            continue
        gross = back + comm
        staked += stake
        returned += back
        commission += comm
        if gross == 0:
            rows.append(ledger.row(acc.in_play, acc.tray, stake, "lose", at=at, round_id=r.id, bet_id=bid))
        elif gross >= stake:
            rows.append(ledger.row(acc.in_play, fund, stake, "return", at=at, round_id=r.id, bet_id=bid))
            if gross > stake:
                rows.append(ledger.row(acc.tray, fund, gross - stake, "win", at=at, round_id=r.id, bet_id=bid))
            if comm:
                rows.append(ledger.row(fund, acc.commission, comm, "commission", at=at, round_id=r.id, bet_id=bid))
        else:
            rows.append(ledger.row(acc.in_play, fund, gross, "return", at=at, round_id=r.id, bet_id=bid))
            rows.append(ledger.row(acc.in_play, acc.tray, stake - gross, "lose", at=at, round_id=r.id, bet_id=bid))
    ledger.post(session, rows, guard_players=False,   # settling only credits players (net)
                grant=ledger.authorize(session, actor, ledger.Purpose.ROUND, None, at=at))
    s.bets, s.staked, s.returned, s.commission = len(bets), staked, returned, commission
    if late:
        _report_late(session, actor, r, [b for b in bets if b["id"] in late], late, at)
    set_status(session, r, RoundStatus.SETTLED, at, actor, data={"bets": len(bets), "staked": staked,
                                                        "returned": returned, "commission": commission,
                                                        **({"late_bets": len(late)} if late else {})})
    _after_end(session, r, at)
    publish(session, r, "round.settled")
    return s


def _late(session: Session, r: Round, bets: list[dict]) -> dict[int, datetime]:
    """The bets placed after the round's first line lock (``floor.rounds.line``), by id, with when
    each was placed. A seat game's decision bets go with the seat's main bet: a seat whose main bet
    came late is refunded whole."""
    lock = line.first_lock(session, r.table_id, r.opened_at)
    if lock is None or not bets:
        return {}
    placed = dict(session.execute(select(Bet.id, Bet.placed_at).where(Bet.round_id == r.id, Bet.source != "decision")
                                  ).all())
    late = {bid: when for bid, when in placed.items() if when is not None and when > lock.arrived_at}
    late_seats = {b["seat"] for b in bets if b["id"] in late and b["seat"] is not None}
    if late_seats and r.kind in ("blackjack", "casino_holdem"):
        for b in bets:
            if b["seat"] in late_seats and b["id"] not in late:
                late[b["id"]] = lock.arrived_at
    return late


def _report_late(session: Session, actor: Actor, r: Round, bets: list[dict], late: dict[int, datetime],
                 at: datetime) -> None:
    lock = line.first_lock(session, r.table_id, r.opened_at)
    table = session.get(Table, r.table_id)
    total = sum(b["amount"] for b in bets)
    data = {"round_id": r.id, "bets": [b["id"] for b in bets], "refunded": total,
            "locked_at": lock.arrived_at.isoformat(), "device": lock.device}
    event(session, r, r.table_id, "late_bets", at, actor, data)
    audit.record(session, actor, "round.late_bets", f"round:{r.id}", after=data, at=at)
    alerts.raise_alert(session, actor, AlertKind.LATE_BETS,
                       Msg("Table {table} round {round}: {count} bets placed after the {device} closed betting "
                           "were refunded, not paid ({amount})", table=table.number, round=r.number, count=len(bets),
                           device=lock.device, amount=Money(total)),
                       severity=AlertSeverity.CRITICAL, table_id=r.table_id, data=data, at=at)


def void(session: Session, actor: Actor, round_id: int, reason: str, at: datetime | None = None) -> Settlement | None:
    """Void a round: every bet comes back. Exactly once, like ``settle`` (a settled round cannot be
    voided, nor a voided one settled)."""
    at = at or now_utc()
    r = get_round(session, round_id, lock=True)
    if r.status in ("settled", "voided"):
        raise InvalidState("round {round} is already {status}", code="already_ended", round=r.id, status=r.status)
    s = _claim(session, r, "voided", actor, at, reason)
    if s is None:
        raise InvalidState("round {round} is already settled or voided", code="already_ended", round=r.id)
    acc = ledger.table_accounts(session, r.table_id)
    bets = _bets(session, r.id)
    rows = [ledger.row(acc.in_play, b["account_id"], b["amount"], "refund", at=at, round_id=r.id, bet_id=b["id"])
            for b in bets]
    ledger.post(session, rows, guard_players=False, grant=ledger.authorize(session, actor, ledger.Purpose.ROUND, None, at=at))
    total = sum(b["amount"] for b in bets)
    s.bets, s.staked, s.returned = len(bets), total, total
    timers.cancel_timer(session, f"round:{r.id}:betting")
    timers.cancel_timer(session, f"round:{r.id}:decision")
    set_status(session, r, RoundStatus.VOIDED, at, actor, data={"reason": reason, "bets": len(bets), "refunded": total})
    _after_end(session, r, at)
    publish(session, r, "round.voided")
    return s


def recover(session: Session, at: datetime | None = None, *, house: HouseSettings) -> list[int]:
    """Settle every round left at "result" (a restart in the middle of settling). The caller commits."""
    ids = list(session.execute(select(Round.id).where(Round.status == RoundStatus.RESULT).order_by(Round.id)).scalars())
    done = []
    for rid in ids:
        if settle(session, rid, at=at, house=house) is not None:
            done.append(rid)
    return done
