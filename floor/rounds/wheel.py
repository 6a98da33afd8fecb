"""Roulette driven by the wheel controller: the wheel engine's outcomes turned into rows.

Each status line or bare number loads the table's wheel state (the running round's bookkeeping,
kept in the round row's ``device``), steps the pure engine ``floor.rounds.engines.wheel`` (where
the host rules live) and applies what it decided: open, lock, misspin (``*R`` for the wheel), no-ball
watch, void, hold, stray result, result. One DB session per event; the caller commits.
"""
from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from typing import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from floor import timers
from floor.actors import Actor
from floor.errors import Msg
from floor.models import Round, RoundEvent
from floor.models import RoundStatus
from floor.rounds import core
from floor.rounds.core import Outcome, active_round, get_table, hold, last_round, stray
from floor.rounds.engines import wheel as engine
from floor.settings import HouseSettings

STRAY = "result_without_no_more_bets"
_TIMES = ("no_ball_since", "spinning_since")


def _actor(device: str | None, table_id: int) -> Actor:
    return Actor.device(device or "wheel", table_id)


def _load(session: Session, table_id: int, r: Round | None) -> engine.WheelState:
    table = get_table(session, table_id)
    last = last_round(session, table_id)
    strayed = session.execute(select(RoundEvent.data).where(RoundEvent.table_id == table_id, RoundEvent.kind == STRAY)
                              .order_by(RoundEvent.id.desc()).limit(1)).scalar_one_or_none()
    state = engine.WheelState(open=table.status == "open", strayed=(strayed or {}).get("spin"))
    if r is None or r.status not in engine.RUNNING:
        spin = r.spin if r is not None else (last.spin if last is not None else None)
        return engine.WheelState(state.open, None, spin, state.strayed)
    dev = dict(r.device or {})
    book = {k: dev.get(k) for k in ("nmb", "bare", "five", "misspin_spin")}
    times = {k: datetime.fromisoformat(dev[k]) if dev.get(k) else None for k in _TIMES}
    return engine.WheelState(state.open, engine.WheelRound(r.status, r.spin, respin=bool(dev.get("respin")),
                                                           **book, **times),
                             None, state.strayed)


def _store(r: Round, wr: engine.WheelRound | None) -> None:
    if wr is None:
        return
    book = {k: v for k, v in asdict(wr).items() if k not in ("status", "spin")}
    for k in _TIMES:
        book[k] = book[k].isoformat() if book[k] else None
    r.device = {**(r.device or {}), **book}   # a new dict: the JSON column sees the change
    if wr.spin is not None:
        r.spin = wr.spin


def _step(session: Session, table_id: int, event, at: datetime, actor: Actor, house: HouseSettings | None,
          r: Round | None, out: Outcome) -> Round | None:
    state, outcomes = engine.step(_load(session, table_id, r), event, at)
    table = get_table(session, table_id)
    if r is not None and r.status in engine.RUNNING:
        _store(r, state.round)
    for o in outcomes:
        if isinstance(o, engine.Open):
            r = core.open_round(session, actor, table, at, house, status="locked" if o.locked else "betting",
                                timed=False, spin=o.spin)
            _store(r, state.round)
            out.round_id = r.id
            if o.locked:
                core.event(session, r, table_id, "no_more_bets", at, actor, {"spin": o.spin})
        elif isinstance(o, engine.Lock):
            if o.was_betting:
                core.set_status(session, r, RoundStatus.LOCKED, at, actor, kind="no_more_bets", data={"spin": o.spin})
                timers.cancel_timer(session, f"round:{r.id}:betting")
            else:
                core.event(session, r, table_id, "no_more_bets", at, actor, {"spin": o.spin})
        elif isinstance(o, engine.Misspin):
            if o.was_betting:
                core.set_status(session, r, RoundStatus.LOCKED, at, actor, kind="misspin", data={"spin": o.spin})
                timers.cancel_timer(session, f"round:{r.id}:betting")
            else:
                core.event(session, r, table_id, "misspin", at, actor, {"spin": o.spin})
            out.command = o.command
            out.note("misspin: spin void, bets stay locked, wheel reset")
        elif isinstance(o, engine.NoBallWatch):
            timers.set_timer(session, f"round:{r.id}:noball", "rounds.no_ball", o.until, r.id, o.spin)
        elif isinstance(o, engine.Void):
            core.void(session, actor, r.id, o.reason, at)
            out.note("no ball: round voided")
        elif isinstance(o, engine.Hold):
            hold(session, actor, r, o.reason, at, o.data)
        elif isinstance(o, engine.Stray):
            message = (Msg("Wheel at table {table}: number {number} with no round locked; not settled",
                           table=table.number, number=o.number) if o.bare else
                       Msg("Wheel at table {table}: result {number} for spin {spin} with no round locked; not settled",
                           table=table.number, number=o.number, spin=o.spin))
            stray(session, actor, table_id, STRAY, message, at, {"spin": o.spin, "number": o.number})
        elif isinstance(o, engine.Result):
            timers.cancel_timer(session, f"round:{r.id}:noball")
            res = core.record_result(session, actor, r, {"number": o.number, "spin": o.spin}, at)
            out.settle = res.settle
    return r


def wheel_status(session: Session, table_id: int, state: int, spin: int, flags: Iterable[str], at: datetime, *,
                 winning: int | None = None, raw: bytes | None = None, device: str | None = None,
                 rpm: float | None = None, direction: int | None = None, house: HouseSettings) -> Outcome:
    """A status line ``*X;state;spin;win;flags;rpm;dir``: ``flags`` are the flags raised, by name
    (``no_ball``, ``misspin``, ``fault``, ``failed_launch``: the device layer decodes the bits),
    ``winning`` is the win# field (None when blank). The rotor's speed and direction at "no more bets" are kept on the round for the pit's
    wheel watch (``rpm``, ``direction``: 0 clockwise, 1 anticlockwise)."""
    r = active_round(session, table_id)
    out = Outcome(r.id if r else None, r.status if r else None)
    flags = frozenset(flags)
    r = _step(session, table_id, engine.Status(state, spin, flags, winning), at, _actor(device, table_id), house, r, out)
    if (r is not None and state == engine.STATE_NO_MORE_BETS and (r.device or {}).get("nmb") == spin
            and (r.device or {}).get("rotor_spin") != spin):
        r.device = {**(r.device or {}), "rpm": rpm, "direction": direction, "rotor_spin": spin}
    if r is None:
        last = last_round(session, table_id) if state == engine.STATE_WINNING_NUMBER else None
        round_id = last.id if last is not None and last.spin == spin else None
    else:
        round_id = r.id
    said = Msg("wheel status {state}, spin {spin}, number {number}, flags {flags}", state=state, spin=spin,
               number=winning, flags=",".join(sorted(flags)) or "-")
    core.frame(session, device, table_id, raw, said, at, round_id)
    out.round_id = out.round_id or round_id
    if r is not None:
        out.status = r.status
    return out


def no_ball_due(session: Session, round_id: int, spin: int | None, at: datetime) -> bool:
    """The timer 5 s after no ball was first seen: void if the wheel still reports no ball."""
    r = core.get_round(session, round_id, lock=True)
    out = Outcome(r.id, r.status)
    _step(session, r.table_id, engine.Tick(spin), at, Actor.system("no-ball timer"), None, r, out)
    return r.status == RoundStatus.VOIDED


def wheel_number(session: Session, table_id: int, spin: int | None, number: int, at: datetime, *,
                 raw: bytes | None = None, device: str | None = None, alone: bool = False,
                 direction: int | None = None) -> Outcome:
    """The bare winning-number line. ``spin`` is the spin of the last status line (None if unknown).
    ``alone``: the wheel tells nothing but its numbers (no states): the number settles the round the
    dealer closed betting on, and ``direction`` (0 clockwise, 1 anticlockwise), when the line
    carries it, is kept on the round for the pit's wheel watch."""
    r = active_round(session, table_id)
    out = Outcome(r.id if r else None, r.status if r else None)
    summary = (Msg("number {number} (spin {spin})", number=number, spin=spin) if not alone else
               Msg("number {number} (direction {direction}, number only)", number=number, direction=direction))
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= 36:
        core.frame(session, device, table_id, raw, Msg("bad number {number}", number=repr(number)), at, out.round_id)
        return out.note("not a pocket")
    if alone and r is not None and r.status in engine.RUNNING and direction in (0, 1):
        r.device = {**(r.device or {}), "direction": direction}
    r = _step(session, table_id, engine.Number(number, spin, alone=bool(alone)), at, _actor(device, table_id), None,
              r, out)
    if r is None:
        last = last_round(session, table_id)
        core.frame(session, device, table_id, raw, summary, at, last.id if last else None)
        return out
    core.frame(session, device, table_id, raw, summary, at, r.id)
    out.status = r.status
    return out
