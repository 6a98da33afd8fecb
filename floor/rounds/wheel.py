"""Roulette driven by the wheel controller (docs/protocols.md, host rules), one DB session per event.

The wheel's states drive the round: state 2 opens betting, state 4 ("no more bets") locks the bets
for that spin, and a result counts only when the bare number and the state-5 line of the same spin
agree, after state 4 for that spin. Repeated state-5 lines are one result. A misspin voids the spin
and keeps the bets locked (the host sends ``*R``; the next spin settles the round). No ball after
no more bets for 5 s voids the round. A fault flag, a fall to state 6 or a lost wheel holds it.

The round row keeps the wheel bookkeeping in ``device``: ``nmb`` (spin that reached state 4),
``bare`` and ``five`` (the two readings of that spin), ``respin`` (after a misspin),
``no_ball_since``.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from floor import timers
from floor.actors import Actor
from floor.models import Round
from floor.rounds import core
from floor.rounds.core import Outcome, active_round, get_table, hold, last_round, stray
from floor.settings import HouseSettings

FLAG_NO_BALL, FLAG_MISSPIN, FLAG_FAULT, FLAG_FAILED_LAUNCH = 1, 2, 4, 8
NO_BALL_SECONDS = 5.0


def _dev(r: Round) -> dict:
    return dict(r.device or {})


def _put(r: Round, dev: dict) -> None:
    r.device = dev   # a new dict: the JSON column sees the change


def _actor(device: str | None, table_id: int) -> Actor:
    return Actor.device(device or "wheel", table_id)


def wheel_status(session: Session, table_id: int, state: int, spin: int, flags: int, at: datetime, *,
                 winning: int | None = None, raw: bytes | None = None, device: str | None = None,
                 house: HouseSettings) -> Outcome:
    """A status line ``*X;state;spin;win;flags;...``: ``winning`` is the win# field (None when blank)."""
    actor = _actor(device, table_id)
    table = get_table(session, table_id)
    r = active_round(session, table_id)
    out = Outcome(r.id if r else None, r.status if r else None)
    summary = f"*X state={state} spin={spin} win={winning} flags={flags}"

    def done() -> Outcome:
        core.frame(session, device, table_id, raw, summary, at, out.round_id)
        if r is not None:
            out.status = r.status
        return out

    if r is not None and flags & FLAG_FAULT and r.status in ("betting", "locked"):
        hold(session, actor, r, "wheel fault (sensor, motor or encoder)", at, {"spin": spin, "flags": flags})
        return done()

    if state == 2:   # place bets
        if r is None and table.status == "open":
            r = core.open_round(session, actor, table, at, house, timed=False)
            out.round_id = r.id
        elif r is not None and r.status == "locked":
            dev = _dev(r)
            if dev.get("nmb") is not None and not dev.get("respin") and dev.get("nmb") != spin:
                hold(session, actor, r, "the wheel moved on without a confirmed result", at, {"spin": spin})
        return done()

    if r is None:
        if state == 5 and winning is not None:
            last = last_round(session, table_id)
            if last is not None and last.spin == spin and last.status in ("result", "settled", "voided", "held"):
                return done()   # the same result line again: one result
            stray(session, actor, table_id, "result_without_no_more_bets",
                  f"Wheel at table {table.number}: result {winning} for spin {spin} with no round locked; not settled",
                  at, {"spin": spin, "number": winning})
        elif state == 4 and table.status == "open":
            # "no more bets" for a round the host never saw open: record it so its result is kept
            r = core.open_round(session, actor, table, at, house, status="locked", timed=False, spin=spin)
            _put(r, {"nmb": spin})
            out.round_id = r.id
            core.event(session, r, table_id, "no_more_bets", at, actor, {"spin": spin})
        return done()

    dev = _dev(r)
    if state in (3, 4) and flags & FLAG_MISSPIN:
        if not dev.get("respin") or dev.get("misspin_spin") != spin:
            dev.update(respin=True, misspin_spin=spin, nmb=None, bare=None, five=None, no_ball_since=None)
            _put(r, dev)
            if r.status == "betting":
                core.set_status(session, r, "locked", at, actor, kind="misspin", data={"spin": spin})
            else:
                core.event(session, r, table_id, "misspin", at, actor, {"spin": spin})
            out.command = "*R"
            out.note("misspin: spin void, bets stay locked, wheel reset")
        return done()

    if state == 4:
        if dev.get("nmb") != spin:
            if dev.get("nmb") is not None and not dev.get("respin"):
                hold(session, actor, r, "the wheel moved on without a confirmed result", at, {"spin": spin})
                return done()
            dev.update(nmb=spin, bare=None, five=None, respin=False)
            r.spin = spin
            _put(r, dev)
            if r.status == "betting":
                core.set_status(session, r, "locked", at, actor, kind="no_more_bets", data={"spin": spin})
                timers.cancel_timer(session, f"round:{r.id}:betting")
            else:
                core.event(session, r, table_id, "no_more_bets", at, actor, {"spin": spin})
        _no_ball(session, actor, r, flags & FLAG_NO_BALL, at, out)
        return done()

    if state == 7:
        if dev.get("nmb") is not None:
            _no_ball(session, actor, r, True, at, out)
        return done()

    if state == 5 and winning is not None:
        if dev.get("nmb") != spin or r.status != "locked":
            if r.status == "result":
                return done()
            hold(session, actor, r, "result without no more bets", at, {"spin": spin, "number": winning})
            return done()
        if dev.get("five") is None:
            dev["five"] = winning
            _put(r, dev)
            _try_result(session, actor, r, at, out)
        return done()

    if state == 6 and r.status in ("betting", "locked"):
        hold(session, actor, r, "the wheel closed mid-round", at, {"spin": spin})
        return done()

    if state == 1 and r.status == "locked" and dev.get("nmb") is not None and not dev.get("respin"):
        hold(session, actor, r, "the wheel reset without a confirmed result", at, {"spin": spin})
    if state in (1, 3) and dev.get("no_ball_since"):
        dev["no_ball_since"] = None
        _put(r, dev)
    return done()


def _no_ball(session: Session, actor: Actor, r: Round, no_ball: bool, at: datetime, out: Outcome) -> None:
    dev = _dev(r)
    if not no_ball:
        if dev.get("no_ball_since"):
            dev["no_ball_since"] = None
            _put(r, dev)
        return
    since = dev.get("no_ball_since")
    if since is None:
        dev["no_ball_since"] = at.isoformat()
        _put(r, dev)
        timers.set_timer(session, f"round:{r.id}:noball", "rounds.no_ball", at + timedelta(seconds=NO_BALL_SECONDS),
                         r.id, r.spin)
        return
    if (at - datetime.fromisoformat(since)).total_seconds() >= NO_BALL_SECONDS:
        core.void(session, actor, r.id, "no ball detected for 5 seconds", at)
        out.note("no ball: round voided")


def no_ball_due(session: Session, round_id: int, spin: int | None, at: datetime) -> bool:
    """The timer 5 s after no ball was first seen: void if the wheel still reports no ball."""
    r = core.get_round(session, round_id, lock=True)
    dev = _dev(r)
    if r.status != "locked" or not dev.get("no_ball_since") or r.spin != spin:
        return False
    if (at - datetime.fromisoformat(dev["no_ball_since"])).total_seconds() < NO_BALL_SECONDS:
        return False
    core.void(session, Actor.system("no-ball timer"), r.id, "no ball detected for 5 seconds", at)
    return True


def wheel_number(session: Session, table_id: int, spin: int | None, number: int, at: datetime, *,
                 raw: bytes | None = None, device: str | None = None) -> Outcome:
    """The bare winning-number line. ``spin`` is the spin of the last status line (None if unknown)."""
    actor = _actor(device, table_id)
    table = get_table(session, table_id)
    r = active_round(session, table_id)
    out = Outcome(r.id if r else None, r.status if r else None)
    summary = f"number {number} (spin {spin})"
    if not isinstance(number, int) or not 0 <= number <= 36:
        core.frame(session, device, table_id, raw, f"bad number {number!r}", at, out.round_id)
        return out.note("not a pocket")
    if r is None:
        last = last_round(session, table_id)
        if not (last is not None and last.spin == spin and last.status in ("result", "settled", "voided", "held")):
            stray(session, actor, table_id, "result_without_no_more_bets",
                  f"Wheel at table {table.number}: number {number} with no round locked; not settled", at,
                  {"spin": spin, "number": number})
        core.frame(session, device, table_id, raw, summary, at, last.id if last else None)
        return out
    dev = _dev(r)
    if r.status != "locked" or dev.get("nmb") is None or (spin is not None and dev.get("nmb") != spin):
        if r.status not in ("result",):
            hold(session, actor, r, "result without no more bets", at, {"spin": spin, "number": number})
    elif dev.get("bare") is None:
        dev["bare"] = number
        _put(r, dev)
        _try_result(session, actor, r, at, out)
    core.frame(session, device, table_id, raw, summary, at, r.id)
    out.status = r.status
    return out


def _try_result(session: Session, actor: Actor, r: Round, at: datetime, out: Outcome) -> None:
    dev = _dev(r)
    bare, five = dev.get("bare"), dev.get("five")
    if bare is None or five is None:
        return
    if bare != five:
        hold(session, actor, r, f"the bare number {bare} and the state-5 line {five} disagree", at,
             {"bare": bare, "five": five, "spin": r.spin})
        return
    timers.cancel_timer(session, f"round:{r.id}:noball")
    res = core.record_result(session, actor, r, {"number": bare, "spin": r.spin}, at)
    out.settle, out.status = res.settle, r.status
