"""The host's rules for a roulette wheel (docs/protocols.md, "What the host counts"), pure.

``WheelRules.feed(event, now)`` and ``WheelRules.tick(now)`` turn decoded wheel events plus a
monotonic time into round outcomes:

- ``BetsOpen(spin)`` once per round, ``NoMoreBets(spin)`` once per round (a respin after a misspin
  is the same round: no second BetsOpen; NoMoreBets when it first reaches state 4);
- ``Result(spin, number)`` exactly once, only after state 4 for the same spin and only when the bare
  number and the state-5 line agree (repeated state-5 lines are one result);
- ``Misspin(spin)``: the spin is void, bets stay locked, the host must send ``*R``; the next spin
  of the wheel settles the same round;
- ``NoBall(spin)``: flag 1 (or state 7) after no more bets for at least 5 s: void;
- ``Hold(spin, reason)``: the round waits for the pit boss (fault flag, fall to state 6, no status
  line for more than 2 s mid-round, a failed launch past its 3 s, a result without "no more bets",
  bare number and state-5 line disagreeing, a round that moved on without a confirmed result).
"""
from __future__ import annotations

from dataclasses import dataclass

from devices.wheel import (
    FLAG_FAILED_LAUNCH,
    FLAG_FAULT,
    FLAG_MISSPIN,
    FLAG_NO_BALL,
    STATE_BEFORE_GAME,
    STATE_CLOSED,
    STATE_NO_BALL,
    STATE_NO_MORE_BETS,
    STATE_PLACE_BETS,
    STATE_SPINNING,
    STATE_WINNING_NUMBER,
    WheelStatus,
    WinningNumber,
)

__all__ = ["BetsOpen", "NoMoreBets", "Result", "Misspin", "NoBall", "Hold", "WheelRules",
           "HOLD_FAULT", "HOLD_CLOSED", "HOLD_LOST", "HOLD_FAILED_LAUNCH", "HOLD_NO_NO_MORE_BETS",
           "HOLD_MISMATCH", "HOLD_UNCONFIRMED"]

HOLD_FAULT = "fault"  # flag 4: sensor, motor or encoder
HOLD_CLOSED = "closed"  # the wheel fell to state 6 mid-round
HOLD_LOST = "lost"  # no status line for more than heartbeat_s mid-round
HOLD_FAILED_LAUNCH = "failed_launch"  # flag 8 beyond the tolerated first seconds of state 3
HOLD_NO_NO_MORE_BETS = "result_without_no_more_bets"
HOLD_MISMATCH = "number_mismatch"  # bare number and state-5 line disagree
HOLD_UNCONFIRMED = "unconfirmed_result"  # the wheel moved on without a bare number + state 5 pair


@dataclass(frozen=True, slots=True)
class BetsOpen:
    spin: int


@dataclass(frozen=True, slots=True)
class NoMoreBets:
    spin: int


@dataclass(frozen=True, slots=True)
class Result:
    spin: int
    number: int


@dataclass(frozen=True, slots=True)
class Misspin:
    spin: int
    command: str = "R"  # what the host must send: the wheel resets and spins again


@dataclass(frozen=True, slots=True)
class NoBall:
    spin: int


@dataclass(frozen=True, slots=True)
class Hold:
    spin: int | None
    reason: str


class WheelRules:
    def __init__(self, *, heartbeat_s: float = 2.0, no_ball_s: float = 5.0,
                 failed_launch_s: float = 3.0) -> None:
        self.heartbeat_s = heartbeat_s
        self.no_ball_s = no_ball_s
        self.failed_launch_s = failed_launch_s
        self.in_round = False  # bets open or locked and no settlement/void yet
        self.locked = False  # no more bets seen: bets stay locked until settled or voided
        self._respin = False  # a misspin voided the attempt: the wheel's next spin settles the round
        self.spin: int | None = None  # spin the current attempt runs under
        self._nmb_spin: int | None = None  # spin for which this attempt saw state 4
        self._bare: int | None = None  # bare number seen for this attempt
        self._five: int | None = None  # state-5 number seen for this attempt
        self._done = False  # this attempt is settled, voided or held: ignore it from now
        self._holds: set[str] = set()  # hold reasons already reported this round
        self._state: int | None = None
        self._spinning_since: float | None = None
        self._no_ball_since: float | None = None
        self._launch_failing = False
        self._last_status: float | None = None

    @property
    def round_in_progress(self) -> bool:
        return self.in_round

    # --- events ---------------------------------------------------------------------------

    def feed(self, event, now: float) -> list:
        out: list = []
        if isinstance(event, WheelStatus):
            self._status(event, now, out)
        elif isinstance(event, WinningNumber):
            self._number(event.number, out)
        return out

    def tick(self, now: float) -> list:
        """Time-driven rules: no ball for 5 s, a failed launch past 3 s, a silent wheel."""
        out: list = []
        if self.in_round and self._last_status is not None and now - self._last_status > self.heartbeat_s:
            self._hold(HOLD_LOST, out)
        if (self._no_ball_since is not None and not self._done
                and now - self._no_ball_since >= self.no_ball_s):
            out.append(NoBall(self.spin))
            self._end_round()
        if (self._launch_failing and self._spinning_since is not None and not self._done
                and now - self._spinning_since > self.failed_launch_s):
            self._hold(HOLD_FAILED_LAUNCH, out)
        return out

    def _status(self, st: WheelStatus, now: float, out: list) -> None:
        self._last_status = now
        if HOLD_LOST in self._holds:
            self._holds.discard(HOLD_LOST)  # the wheel is back; the hold stays with the pit boss
        state, spin = st.state, st.spin
        prev, self._state = self._state, state

        if st.flags & FLAG_FAULT and self.in_round:
            self._hold(HOLD_FAULT, out)

        early = (STATE_BEFORE_GAME, STATE_PLACE_BETS, STATE_SPINNING)
        # a new attempt: another spin number, or the wheel went back to an earlier state (a reset)
        if state in early and (spin != self.spin or prev not in early or state < prev):
            self._new_attempt(spin, out)
        if state == STATE_PLACE_BETS and not self.in_round:
            self.in_round = True
            out.append(BetsOpen(spin))
        if state == STATE_SPINNING:
            if prev != STATE_SPINNING or self._spinning_since is None:
                self._spinning_since = now
            self.in_round = True
            self._launch_failing = bool(st.flags & FLAG_FAILED_LAUNCH)
            if self._launch_failing and now - self._spinning_since > self.failed_launch_s:
                self._hold(HOLD_FAILED_LAUNCH, out)
        else:
            self._launch_failing = False
        if st.flags & FLAG_MISSPIN and state in (STATE_SPINNING, STATE_NO_MORE_BETS) and not self._done:
            out.append(Misspin(spin))
            self.in_round = self._respin = True
            self._done = True  # void; the wheel's next spin settles this round
            return
        if state == STATE_NO_MORE_BETS and not self._done:
            self.spin = spin
            self.in_round = True
            if self._nmb_spin != spin:
                self._nmb_spin = spin
                if not self.locked:
                    self.locked = True
                    out.append(NoMoreBets(spin))
        if (state == STATE_NO_BALL or (state == STATE_NO_MORE_BETS and st.flags & FLAG_NO_BALL)) \
                and not self._done and self.in_round:
            if self._no_ball_since is None:
                self._no_ball_since = now
        elif state != STATE_NO_BALL and not st.flags & FLAG_NO_BALL:
            self._no_ball_since = None
        if state == STATE_WINNING_NUMBER and not self._done and st.winning is not None:
            if self._five is None:
                self._five = st.winning
                if self._nmb_spin != spin:
                    self._hold(HOLD_NO_NO_MORE_BETS, out, spin)
                    self._end_round()
                else:
                    self._try_result(out)
        if state == STATE_CLOSED and self.in_round and not self._done:
            self._hold(HOLD_CLOSED, out)
            self._end_round()  # the pit boss decides what happens to this round
        out.extend(self.tick(now))

    def _number(self, number: int, out: list) -> None:
        if self._done or self._bare is not None:
            return
        self._bare = number
        self._try_result(out)

    def _try_result(self, out: list) -> None:
        if self._bare is None or self._five is None or self._done:
            return
        if self._bare != self._five:
            self._hold(HOLD_MISMATCH, out)
            self._end_round()
            return
        out.append(Result(self.spin, self._bare))
        self._end_round()

    def _new_attempt(self, spin: int, out: list) -> None:
        """The wheel starts a spin: settle the books on the previous attempt first."""
        if self.in_round and not self._done and self._nmb_spin is not None:
            self._hold(HOLD_UNCONFIRMED, out)  # it passed "no more bets" and never gave a result
            self._end_round()
        if self._done and not (self.locked or self._respin):
            self.in_round = False
        self._respin = False
        self.spin = spin
        self._nmb_spin = self._bare = self._five = None
        self._done = False
        self._no_ball_since = None
        self._spinning_since = None
        if not self.in_round:
            self._holds.clear()

    def _end_round(self) -> None:
        self._done = True
        self.in_round = False
        self.locked = False
        self._no_ball_since = None

    def _hold(self, reason: str, out: list, spin: int | None = None) -> None:
        if reason in self._holds:
            return
        self._holds.add(reason)
        out.append(Hold(self.spin if spin is None else spin, reason))
