"""The roulette wheel's host rules as one pure transition: ``step(state, event, now) -> (state, outcomes)``.

The live rounds (``floor/rounds/wheel.py``) load the state from the table's rows, step it with each
status line or bare number the wheel sends, turn the outcomes into rows and store the round's
bookkeeping back. ``now`` is the line's arrival time, so a stored stream replays to the same
outcomes. The rules (docs/protocols.md, "What the host counts"):

- state 2 opens betting when the table is open and no round is running, once per spin;
- state 4 locks the bets for that spin (a state 4 the host never saw open opens a locked round);
- a result counts when the bare number and the state-5 line of the same spin agree, after state 4
  for that spin; repeated state-5 lines are one result, and a stray result is alerted once;
- a wheel that tells its numbers alone (no states: ``Number(alone=True)``) settles the round the
  dealer closed betting on; its number while betting is open holds the round;
- a misspin (flag 2 in state 3 or 4) voids the attempt, keeps the bets locked and asks for ``*R``;
- no ball (flag 1 in state 4, or state 7) for 5 s voids the round;
- a failed launch (flag 8) past the first 3 s of state 3, a fault (flag 4), a fall to state 6, or a
  wheel that resets or moves on without a confirmed result holds the round for the pit boss.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from floor.errors import Msg

STATE_BEFORE_GAME, STATE_PLACE_BETS, STATE_SPINNING, STATE_NO_MORE_BETS = 1, 2, 3, 4
STATE_WINNING_NUMBER, STATE_CLOSED, STATE_NO_BALL = 5, 6, 7
# The status line's flags by the names the device layer decodes them to (their bits are the line's
# business, not the rules')
NO_BALL_FLAG, MISSPIN_FLAG, FAULT_FLAG, FAILED_LAUNCH_FLAG = "no_ball", "misspin", "fault", "failed_launch"
NO_BALL = timedelta(seconds=5)
FAILED_LAUNCH = timedelta(seconds=3)
RESET = "*R"   # the command a misspin asks the wheel for
RUNNING = ("betting", "locked")


# --- state -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class WheelRound:
    """The running round's bookkeeping (what the round row keeps in ``device``)."""

    status: str                       # betting | locked (anything else: the round is over)
    spin: int | None = None
    nmb: int | None = None            # the spin that reached "no more bets"
    bare: int | None = None           # the bare number of that spin
    five: int | None = None           # the state-5 number of that spin
    respin: bool = False              # a misspin voided the attempt: the wheel's next spin settles
    misspin_spin: int | None = None
    no_ball_since: datetime | None = None
    spinning_since: datetime | None = None


@dataclass(frozen=True)
class WheelState:
    open: bool                        # the table takes rounds
    round: WheelRound | None = None   # the round running, if any
    last_spin: int | None = None      # the spin of the last round that ended
    strayed: int | None = None        # the spin of the last stray result alerted


# --- events ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Status:
    state: int
    spin: int
    flags: frozenset[str] = frozenset()   # the flags raised, by name (NO_BALL_FLAG …)
    winning: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "flags", frozenset(self.flags or ()))


@dataclass(frozen=True)
class Number:
    number: int
    spin: int | None    # the spin of the last status line
    # the number is all the wheel tells (a winning-number-only wheel: no states, no state-5 line to
    # agree with): it settles the round the dealer closed betting on
    alone: bool = False


@dataclass(frozen=True)
class Tick:
    """Time passes (the no-ball timer): nothing came from the wheel."""

    spin: int | None = None


# --- outcomes ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Open:
    spin: int
    locked: bool = False              # opened at "no more bets": no bets on it


@dataclass(frozen=True)
class Lock:
    spin: int
    was_betting: bool


@dataclass(frozen=True)
class Misspin:
    spin: int
    was_betting: bool
    command: str = RESET


@dataclass(frozen=True)
class NoBallWatch:
    spin: int | None
    until: datetime


@dataclass(frozen=True)
class Void:
    reason: Msg


@dataclass(frozen=True)
class Hold:
    reason: Msg
    data: dict


@dataclass(frozen=True)
class Stray:
    """A result with no round locked for it: recorded and alerted, never settled."""

    spin: int | None
    number: int
    bare: bool                        # the bare number line (else the state-5 line)


@dataclass(frozen=True)
class Result:
    number: int
    spin: int | None


# --- the transition ----------------------------------------------------------------------------------

def step(state: WheelState, event, now: datetime) -> tuple[WheelState, list]:
    if state.round is not None and state.round.status not in RUNNING:
        state = replace(state, round=None, last_spin=state.round.spin)
    if isinstance(event, Status):
        return _status(state, event, now)
    if isinstance(event, Number):
        return _number(state, event)
    if isinstance(event, Tick):
        return _tick(state, event, now)
    return state, []


def _with(state: WheelState, r: WheelRound) -> WheelState:
    return replace(state, round=r)


def _end(state: WheelState, status: str, outcome) -> tuple[WheelState, list]:
    return _with(state, replace(state.round, status=status)), [outcome]


def _hold(state: WheelState, reason: Msg, **data) -> tuple[WheelState, list]:
    return _end(state, "held", Hold(reason, data))


def _status(s: WheelState, e: Status, now: datetime) -> tuple[WheelState, list]:
    r, state, spin, flags = s.round, e.state, e.spin, e.flags
    if r is not None and FAULT_FLAG in flags:
        return _hold(s, Msg("wheel fault (sensor, motor or encoder)"), spin=spin, flags=sorted(flags))

    if state == STATE_PLACE_BETS:
        if r is None:
            if s.open and s.last_spin != spin:   # one round per spin
                return _with(s, WheelRound("betting", spin)), [Open(spin)]
            return s, []
        if r.status == "locked" and r.nmb is not None and not r.respin and r.nmb != spin:
            return _hold(s, Msg("the wheel moved on without a confirmed result"), spin=spin)
        return s, []

    if r is None:
        if state == STATE_WINNING_NUMBER and e.winning is not None:
            return _stray(s, spin, e.winning, bare=False)
        if state == STATE_NO_MORE_BETS and s.open and s.last_spin != spin:
            return _with(s, WheelRound("locked", spin, nmb=spin)), [Open(spin, locked=True)]
        return s, []

    if state in (STATE_SPINNING, STATE_NO_MORE_BETS) and MISSPIN_FLAG in flags:
        if r.respin and r.misspin_spin == spin:
            return s, []   # the same misspin, repeated on the next lines
        r2 = replace(r, status="locked", respin=True, misspin_spin=spin, nmb=None, bare=None, five=None,
                     no_ball_since=None, spinning_since=None)
        return _with(s, r2), [Misspin(spin, r.status == "betting")]

    if state == STATE_SPINNING:
        since = r.spinning_since or now
        r = replace(r, spinning_since=since, no_ball_since=None)
        if FAILED_LAUNCH_FLAG in flags and now - since > FAILED_LAUNCH:
            return _hold(_with(s, r), Msg("failed launch over 3 s"), spin=spin)
        return _with(s, r), []
    r = replace(r, spinning_since=None)

    if state == STATE_NO_MORE_BETS:
        out: list = []
        if r.nmb != spin:
            if r.nmb is not None and not r.respin:
                return _hold(_with(s, r), Msg("the wheel moved on without a confirmed result"), spin=spin)
            out.append(Lock(spin, r.status == "betting"))
            r = replace(r, status="locked", spin=spin, nmb=spin, bare=None, five=None, respin=False)
        return _no_ball(_with(s, r), NO_BALL_FLAG in flags, now, out)

    if state == STATE_NO_BALL:
        if r.nmb is not None:
            return _no_ball(_with(s, r), True, now, [])
        return _with(s, r), []

    if state == STATE_WINNING_NUMBER and e.winning is not None:
        if r.nmb != spin or r.status != "locked":
            return _hold(_with(s, r), Msg("result without no more bets"), spin=spin, number=e.winning)
        if r.five is not None:
            return _with(s, r), []   # the same state-5 line again: one result
        return _result(_with(s, replace(r, five=e.winning)))

    if state == STATE_CLOSED:
        return _hold(_with(s, r), Msg("the wheel closed mid-round"), spin=spin)

    if state == STATE_BEFORE_GAME and r.status == "locked" and r.nmb is not None and not r.respin:
        return _hold(_with(s, r), Msg("the wheel reset without a confirmed result"), spin=spin)
    return _with(s, replace(r, no_ball_since=None) if state == STATE_BEFORE_GAME else r), []


def _number(s: WheelState, e: Number) -> tuple[WheelState, list]:
    r = s.round
    if e.alone:
        return _number_alone(s, e)
    if r is None:
        return _stray(s, e.spin, e.number, bare=True)
    if r.status != "locked" or r.nmb is None or (e.spin is not None and r.nmb != e.spin):
        return _hold(s, Msg("result without no more bets"), spin=e.spin, number=e.number)
    if r.bare is not None:
        return s, []
    return _result(_with(s, replace(r, bare=e.number)))


def _number_alone(s: WheelState, e: Number) -> tuple[WheelState, list]:
    """A winning-number-only wheel: the dealer opened and closed betting at the terminal (the wheel has
    no states to do it), and the number, when it comes, is the result. A number while betting is
    still open holds the round (the dealer did not call "no more bets": bets may have gone on with the
    ball in the rim); a number with no round is a stray result."""
    r = s.round
    if r is None:
        return _stray(s, None, e.number, bare=True)
    if r.status != "locked":
        return _hold(s, Msg("result without no more bets"), spin=r.spin, number=e.number)
    return _end(_with(s, replace(r, bare=e.number, five=e.number)), "result", Result(e.number, r.spin))


def _stray(s: WheelState, spin: int | None, number: int, *, bare: bool) -> tuple[WheelState, list]:
    """A result with no round: the spin of the last round repeating itself is nothing; anything
    else is alerted once per spin, however many lines repeat it."""
    if spin is not None and spin in (s.last_spin, s.strayed):
        return s, []
    return replace(s, strayed=spin), [Stray(spin, number, bare)]


def _result(s: WheelState) -> tuple[WheelState, list]:
    r = s.round
    if r.bare is None or r.five is None:
        return s, []
    if r.bare != r.five:
        return _hold(s, Msg("the bare number {bare} and the state-5 line {five} disagree", bare=r.bare, five=r.five),
                     bare=r.bare, five=r.five, spin=r.spin)
    return _end(s, "result", Result(r.bare, r.spin))


def _no_ball(s: WheelState, no_ball: bool, now: datetime, out: list) -> tuple[WheelState, list]:
    r = s.round
    if not no_ball:
        return _with(s, replace(r, no_ball_since=None)), out
    if r.no_ball_since is None:
        return _with(s, replace(r, no_ball_since=now)), out + [NoBallWatch(r.spin, now + NO_BALL)]
    if now - r.no_ball_since >= NO_BALL:
        state, more = _end(s, "voided", Void("no ball detected for 5 seconds"))
        return state, out + more
    return s, out


def _tick(s: WheelState, e: Tick, now: datetime) -> tuple[WheelState, list]:
    r = s.round
    if (r is None or r.status != "locked" or r.no_ball_since is None or r.spin != e.spin
            or now - r.no_ball_since < NO_BALL):
        return s, []
    return _end(s, "voided", Void("no ball detected for 5 seconds"))


def run(items, *, open: bool = True) -> list:
    """Every outcome of a stream of (arrival time, event), the table left to the wheel: the rounds
    that end are simply over (tools and tests replay a wheel's stream through this)."""
    state, out = WheelState(open=open), []
    for now, event in items:
        state, more = step(state, event, now)
        out.extend(more)
    return out
