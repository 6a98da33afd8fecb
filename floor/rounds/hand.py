"""Playing on when a device fails: a table switched to entry by hand, and back.

The pit boss (only he) switches a table whose wheel, shoe or scanner is lost, faulty or refused to
entry by hand; the switch is a round event (``entry_mode``) with its reason, audited, alerted and
kept as a message key with its values. While the table is so:

- the dealer keys the winning number (``key_number``) or the cards (``floor.rounds.cards.card``
  with source "dealer") at his terminal; the result they make is kept on the round
  (``core.keep_keyed``), nothing settles;
- a second person, a floor manager or a pit boss who keyed none of it, confirms it (``confirm``):
  the round records the result marked ``by_hand`` with who keyed and who confirmed
  (``hand_entry``), an ``entered_by_hand`` event, and settles once however often confirm is tapped;
  or refuses it (``refuse``): the number is keyed again, a card round is held for the pit boss;
- whatever the table's devices send (one that comes back included) is filed as a frame and drives
  nothing (``journal``), until the pit boss switches the table back.

The rounds entered by hand are known by their ``entered_by_hand`` event (``by_hand_ids``,
``not_by_hand``): the pit's ratings count them, the wheel watch keeps them out of its bias tests.
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from floor import alerts, audit, notify
from floor.actors import Actor
from floor.errors import BadInput, Conflict, InvalidState, Msg, NotAllowed, Term
from floor.models import AlertSeverity, Round, RoundEvent, RoundStatus, Table, TableKind
from floor.models.rounds import ACTIVE
from floor.rounds import core
from floor.rounds.core import ENTERED, ENTRY_MODE, Outcome, active_round, entry_by_hand, get_table

DEVICE_OF = {TableKind.ROULETTE: "wheel", TableKind.BACCARAT: "shoe", TableKind.BLACKJACK: "scanner",
             TableKind.CASINO_HOLDEM: "scanner"}
CONFIRMERS = ("floor_manager", "pit_boss")
ALERT_KIND = "entry_by_hand"


def _keyed(r: Round) -> dict | None:
    return (r.device or {}).get("keyed")


def switch(session: Session, actor: Actor, table_id: int, by_hand: bool, reason: str = "",
           at: datetime | None = None) -> dict | None:
    """Switch the table to entry by hand (``by_hand``) or back to its devices. Only a pit boss;
    a reason is needed to leave the devices; not back while a keyed result waits for its second
    person. Returns the table's entry by hand as ``core.entry_by_hand`` reads it (None: devices)."""
    at = at or core.now_utc()
    if actor.role != "pit_boss":
        raise NotAllowed("only a pit boss switches a table between its devices and entry by hand",
                         code="pit_boss_only")
    table = get_table(session, table_id)
    if table.kind not in DEVICE_OF:
        raise InvalidState("table {table} plays {kind}: it has no device to play without", code="wrong_game",
                           table=table.number, kind=Term(table.kind))
    reason = (reason or "").strip()[:200]
    if by_hand and not reason:
        raise BadInput("say why the table plays on by hand (the device lost, faulty or refused)", field="reason")
    now = entry_by_hand(session, table_id)
    if (now is not None) == by_hand:
        raise Conflict("table {table} is already on {mode}", code="already",
                       table=table.number, mode=Msg("entry by hand") if by_hand else Msg("its devices"))
    r = active_round(session, table_id, lock=False)
    if not by_hand and r is not None and _keyed(r) is not None:
        raise Conflict("round {round} has a result entered by hand waiting for its second person: confirm or "
                       "refuse it first", code="keyed_waiting", round=r.number)
    device = DEVICE_OF[table.kind]
    msg = (Msg("Table {table}: entry by hand from now on, the {device} is not used ({reason})",
               table=table.number, device=Term(device), reason=reason) if by_hand else
           Msg("Table {table}: back to its {device}; results are read by the device again",
               table=table.number, device=Term(device)))
    data = {"by_hand": by_hand, "device": device, "reason": reason, "msg": msg.to_json()}
    core.event(session, r, table_id, ENTRY_MODE, at, actor, data)
    audit.record(session, actor, "table.entry_by_hand" if by_hand else "table.entry_by_device", f"table:{table_id}",
                 before={"by_hand": now is not None}, after=data, at=at)
    alerts.raise_alert(session, actor, ALERT_KIND, msg, severity=AlertSeverity.WARNING if by_hand else AlertSeverity.INFO,
                       table_id=table_id, data={"by_hand": by_hand, "device": device}, at=at)
    session.flush()
    notify.publish(session, "table.entry_mode", {"table_id": table_id, "table": table.number, "by_hand": by_hand},
                   notify.table_room(table_id), "role:pit_boss", "role:floor_manager", "floor")
    return entry_by_hand(session, table_id)


def _require_by_hand(session: Session, table: Table) -> None:
    if entry_by_hand(session, table.id) is None:
        raise Conflict("table {table} takes its results from its {device}: the pit boss switches it to entry by "
                       "hand first", code="not_by_hand", table=table.number, device=Term(DEVICE_OF.get(table.kind, "device")))


def key_number(session: Session, actor: Actor, table_id: int, number, at: datetime | None = None) -> Outcome:
    """The dealer keys the winning number at a roulette table on entry by hand, after "no more
    bets": kept for the second person, never settled by itself."""
    at = at or core.now_utc()
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= 36:
        raise BadInput("a wheel has no pocket {number}: key 0 to 36", field="number", number=number)
    table = get_table(session, table_id)
    if table.kind != TableKind.ROULETTE:
        raise InvalidState("table {table} plays {kind}: key its cards", code="wrong_game", table=table.number,
                           kind=Term(table.kind))
    _require_by_hand(session, table)
    r = active_round(session, table_id)
    if r is None or r.status != RoundStatus.LOCKED:
        raise InvalidState("no spin to key: call no more bets first", code="not_locked")
    if _keyed(r) is not None:
        raise Conflict("round {round}: a number is keyed already and waits for its second person",
                       code="already_keyed", round=r.number)
    return core.record_result(session, actor, r, {"number": number, "spin": r.spin}, at)


def confirm(session: Session, actor: Actor, round_id: int, at: datetime | None = None) -> Outcome:
    """The second person confirms the result keyed by hand: the round has its result (marked as
    entered by hand) and settles once (the caller commits, then settles: ``commit_then_settle``).
    A second tap after it finds the round confirmed and does nothing."""
    at = at or core.now_utc()
    if actor.role not in CONFIRMERS:
        raise NotAllowed("a floor manager or a pit boss confirms a result entered by hand", code="wrong_role",
                         role=actor.role)
    r = core.get_round(session, round_id, lock=True)
    keyed = _keyed(r)
    if keyed is None:
        if (r.result or {}).get("hand_entry"):
            return Outcome(r.id, r.status)   # confirmed already: a double tap settles once
        raise Conflict("round {round} has no result entered by hand to confirm", code="nothing_keyed", round=r.number)
    if r.status not in ACTIVE_KEYED:
        raise InvalidState("round {round} is {status}", code="not_keyed", round=r.number, status=r.status)
    keyers = keyed.get("by") or []
    if actor.staff_id is None or actor.staff_id in {k.get("id") for k in keyers}:
        raise NotAllowed("who keyed a result does not confirm it: a second person does", code="same_person")
    names = [k.get("name") for k in keyers]
    result = {**keyed["result"], "by_hand": True, "hand_entry": {"keyed_by": names, "confirmed_by": actor.name}}
    dev = {k: v for k, v in (r.device or {}).items() if k != "keyed"}
    r.device = dev
    shown = {k: v for k, v in result.items() if k != "flow"}
    core.event(session, r, r.table_id, ENTERED, at, actor, {"keyed_by": names, "confirmed_by": actor.name,
                                                            "result": shown})
    audit.record(session, actor, "round.hand_confirmed", f"round:{r.id}",
                 after={"result": shown, "keyed_by": names}, at=at)
    return core.record_result(session, actor, r, result, at, confirmed=True)


ACTIVE_KEYED = (RoundStatus.LOCKED, RoundStatus.DEALING, RoundStatus.BETTING)


def refuse(session: Session, actor: Actor, round_id: int, reason: str, at: datetime | None = None) -> Round:
    """The second person says the keyed result is wrong: a number is keyed again; a card round
    (its cards are rows) is held for the pit boss."""
    at = at or core.now_utc()
    if actor.role not in CONFIRMERS:
        raise NotAllowed("a floor manager or a pit boss refuses a result entered by hand", code="wrong_role",
                         role=actor.role)
    reason = (reason or "").strip()[:200]
    if not reason:
        raise BadInput("say what is wrong with the result", field="reason")
    r = core.get_round(session, round_id, lock=True)
    keyed = _keyed(r)
    if keyed is None:
        raise Conflict("round {round} has no result entered by hand to refuse", code="nothing_keyed", round=r.number)
    if actor.staff_id is None or actor.staff_id in {k.get("id") for k in keyed.get("by") or []}:
        raise NotAllowed("who keyed a result does not refuse it: a second person does", code="same_person")
    # a number is keyed again from nothing (who keys it next is who the second person checks)
    drop = ("keyed", "keyers") if r.kind == TableKind.ROULETTE else ("keyed",)
    r.device = {k: v for k, v in (r.device or {}).items() if k not in drop}
    data = {"reason": reason, "result": {k: v for k, v in keyed["result"].items() if k != "flow"}}
    core.event(session, r, r.table_id, "hand_refused", at, actor, data)
    audit.record(session, actor, "round.hand_refused", f"round:{r.id}", after=data, at=at)
    if r.kind == TableKind.ROULETTE:
        session.flush()
        core.publish(session, r)
    else:
        core.hold(session, actor, r, Msg("the cards entered by hand were refused by {who}: {reason}",
                                         who=actor.name, reason=reason), at)
    notify.publish(session, "round.keyed", {"id": r.id, "table_id": r.table_id, "number": r.number},
                   "role:pit_boss", "role:floor_manager")
    return r


def waiting(session: Session) -> list[Round]:
    """Rounds whose result was keyed by hand and waits for its second person, oldest first."""
    rows = session.execute(select(Round).where(Round.status.in_(ACTIVE)).order_by(Round.id)).scalars().all()
    return [r for r in rows if _keyed(r) is not None]


def tables(session: Session) -> list[dict]:
    """Every live-game table with how its results come in: its device, or by hand (since, why, who)."""
    out = []
    for t in session.execute(select(Table).where(Table.kind.in_(tuple(DEVICE_OF))).order_by(Table.number)).scalars():
        mode = entry_by_hand(session, t.id)
        out.append({"table_id": t.id, "number": t.number, "name": t.name, "kind": t.kind, "status": t.status,
                    "device": DEVICE_OF[t.kind], "by_hand": mode is not None,
                    "since": mode["at"] if mode else None, "reason": mode["reason"] if mode else None,
                    "switched_by": mode["by"] if mode else None})
    return out


def journal(session: Session, table_id: int, device: str, raw: bytes | None, what: str, at: datetime) -> bool:
    """A device event at a table on entry by hand: its bytes are filed (the round's timeline shows
    them), it drives nothing. False when the table takes its device's results (nothing done)."""
    if entry_by_hand(session, table_id) is None:
        return False
    if raw:
        core.device_frame(session, table_id, device, raw, Msg("not used, the table is on entry by hand: {event}", event=what), at)
    return True


def not_by_hand(round_id_col):
    """A where clause: the round was not entered by hand."""
    return ~select(RoundEvent.id).where(RoundEvent.round_id == round_id_col, RoundEvent.kind == ENTERED).exists()


def by_hand_ids(session: Session, round_ids) -> set[int]:
    """Which of these rounds were entered by hand."""
    ids = list(round_ids)
    out: set[int] = set()
    for i in range(0, len(ids), 500):
        out |= set(session.execute(select(RoundEvent.round_id).where(RoundEvent.round_id.in_(ids[i:i + 500]),
                                                                     RoundEvent.kind == ENTERED)).scalars())
    return out


__all__ = ["switch", "key_number", "confirm", "refuse", "waiting", "tables", "journal", "not_by_hand", "by_hand_ids",
           "ALERT_KIND"]
