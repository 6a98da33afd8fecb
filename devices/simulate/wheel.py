"""A roulette wheel controller speaking the SS2-style protocol (docs/protocols.md, "The roulette wheel controller") with real timings.

Status line every 500 ms; states 1 -> 2 -> 3 -> 4 -> bare number -> 5 (repeated) -> next spin.
Answers ``*X``, ``*R``, ``*P``, ``*F``, ``*V`` and ``*u``. Faults: misspin (flag 2 until the host
sends ``*R``), no ball (flag 1 in state 4, then state 7), failed launch (flag 8 early in state 3),
sensor fault (flag 4), noise, silence, unplug and replug. For the pit's wheel watch it can also
run a biased wheel (``bias``: pocket -> weight, 1 being fair) and a wheel whose rotor keeps turning
the same way (``alternate=False``). A croupier (or a test) can keep the wheel in a state until
released (``hold_in``): betting stays open until the bets are down, whatever the machine's speed.
"""
from __future__ import annotations

import threading

from devices import wheel as w
from devices.simulate.base import Simulator

STATUS_EVERY = 0.5


class WheelSimulator(Simulator):
    kind = "wheel"
    # seconds (divided by speed) spent in each state of a normal spin
    TIMINGS = {"before": 1.0, "bets": 6.0, "spinning": 5.0, "no_more_bets": 3.0, "result": 4.0}

    def __init__(self, end, *, timings: dict | None = None, start_spin: int = 1,
                 no_ball_s: float = 6.0, silence_s: float = 3.0, bias: dict[int, float] | None = None,
                 alternate: bool = True, hold_in: tuple[int, ...] = (), **kw) -> None:
        super().__init__(end, **kw)
        self.weights = [float((bias or {}).get(n, 1.0)) for n in range(37)]
        if any(x < 0 for x in self.weights) or not any(self.weights):
            raise ValueError("pocket weights are positive")
        self.alternate = alternate
        self.timings = {**self.TIMINGS, **(timings or {})}
        self.no_ball_s = no_ball_s  # real seconds: the host's 5 s rule is in real time
        self.silence_s = silence_s  # real seconds without status lines
        self.state, self.spin, self.winning = w.STATE_BEFORE_GAME, start_spin, None
        self.flags, self.rpm, self.direction = 0, 0.0, 0
        self.powered = True
        self.results: list[tuple[int, int]] = []  # (spin, number) the wheel announced, for tests
        self._line = bytearray()
        self._reset = False
        self._held = set(hold_in)   # states the wheel stays in, past their time, until released
        self._releases: dict[int, int] = {}
        self._gate = threading.Lock()

    def release(self, state: int) -> None:
        """Let the wheel go on from ``state`` once (now, or the next time it is there)."""
        with self._gate:
            self._releases[state] = self._releases.get(state, 0) + 1

    def _may_leave(self, state: int) -> bool:
        with self._gate:
            if state not in self._held:
                return True
            if self._releases.get(state, 0) > 0:
                self._releases[state] -= 1
                return True
            return False

    # --- the host -------------------------------------------------------------------------

    def on_host_bytes(self, data: bytes) -> None:
        self._line += data
        while b"\n" in self._line:
            raw, _, rest = bytes(self._line).partition(b"\n")
            self._line = bytearray(rest)
            self.command(raw.strip().decode("ascii", "replace"))

    def command(self, cmd: str) -> None:
        if cmd == "*X":
            self.status()
        elif cmd == "*R":
            self._reset = True
        elif cmd.startswith("*P"):
            self.powered = cmd.endswith("1")
            self.send(b"*P OK\r\n")
        elif cmd == "*F":
            idle = self.state in (w.STATE_BEFORE_GAME, w.STATE_CLOSED)
            self.send(w.encode_selftest(0 if idle else "BUSY"))
        elif cmd == "*V":
            self.send(b"*V SS2-SIM 1.0\r\n")
        elif cmd.startswith("*u"):
            self.direction = 1 if cmd.endswith("3") else 0

    # --- the wheel ------------------------------------------------------------------------

    def status(self) -> None:
        self.send(w.encode_status(self.state, self.spin, self.winning, self.flags, self.rpm,
                                  self.direction))

    def hold(self, state: int, seconds: float, flags: int = 0, *, until_reset: bool = False) -> bool:
        """Stay in ``state`` for ``seconds`` (and on while it is held, until released), a status line
        every 500 ms; False if stopped or reset."""
        self.state, self.flags = state, flags
        left = seconds
        while not self.stopped and not self._reset:
            self.status()
            step = min(STATUS_EVERY, left)
            if not self.sleep(step):
                return False
            left -= step
            if left <= 0:
                if until_reset or self._may_leave(state):
                    return not until_reset  # a misspin waits for *R; past the time it resets itself
                left = STATUS_EVERY         # held: the status lines go on until released
        return False

    def run(self) -> None:
        while not self.stopped:
            if not self.powered:
                self.hold(w.STATE_CLOSED, 1.0)
                continue
            self.spin_once(self.round_faults())

    def spin_once(self, faults: set[str]) -> None:
        t = self.timings
        self._reset = False
        self.rpm = 0.0
        if not self.hold(w.STATE_BEFORE_GAME, t["before"]):
            return
        if not self.hold(w.STATE_PLACE_BETS, t["bets"]):
            return
        self.rpm = self.draw_rpm()
        while not self.stopped:  # a misspin makes the wheel spin again, bets still locked
            if self.spinning(faults):
                break
            faults.discard("misspin")
            self._reset = False
            if not self.hold(w.STATE_BEFORE_GAME, 0.5):
                return
        if self.stopped:
            return
        if "no_ball" in faults:
            self.hold(w.STATE_NO_MORE_BETS, self.no_ball_s * self.speed, w.FLAG_NO_BALL)
            self.hold(w.STATE_NO_BALL, 1.0, w.FLAG_NO_BALL)
            self.next_spin()
            return
        if not self.hold(w.STATE_NO_MORE_BETS, t["no_more_bets"]):
            return
        number = self.draw_number()
        self.winning = number
        self.results.append((self.spin, number))
        if "noise" in faults:
            self.send(self.noise())
        self.send(w.encode_number(number))
        self.hold(w.STATE_WINNING_NUMBER, t["result"])
        self.next_spin()

    def spinning(self, faults: set[str]) -> bool:
        """State 3 with its faults; False when a misspin made the host reset the wheel."""
        t = self.timings["spinning"]
        part = t / 5
        if "failed_launch" in faults:  # the controller retries within the tolerated 3 s
            if not self.hold(w.STATE_SPINNING, min(2 * part, 2.0), w.FLAG_FAILED_LAUNCH):
                return False
        if not self.hold(w.STATE_SPINNING, part):
            return False
        if "misspin" in faults:
            self.hold(w.STATE_SPINNING, 10.0, w.FLAG_MISSPIN, until_reset=True)
            return False
        if "sensor_fault" in faults:
            self.hold(w.STATE_SPINNING, part, w.FLAG_FAULT)
        if "noise" in faults:
            self.send(self.noise())
        if "silence" in faults:
            self._stop.wait(self.silence_s)
        if "unplug" in faults:
            self.unplug_for(self.unplug_s)
        return self.hold(w.STATE_SPINNING, 2 * part)

    def draw_number(self) -> int:
        """Where the ball lands: every pocket alike, or by the biased wheel's weights."""
        if all(x == 1.0 for x in self.weights):
            return self.rng.randrange(37)
        return self.rng.choices(range(37), weights=self.weights)[0]

    def draw_rpm(self) -> float:
        return round(self.rng.uniform(15.0, 30.0), 1)

    def next_spin(self) -> None:
        self.spin = self.spin % 256 + 1
        if self.alternate:
            self.direction ^= 1  # real wheels alternate the rotor direction
