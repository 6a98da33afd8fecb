"""A winning-number-only wheel (docs/protocols.md, "The winning-number-only wheel"): one line per
spin, ``N:<number>:<CW|CCW>`` CR LF, when the ball comes to rest, and nothing else.

By itself it spins every ``spin_s`` seconds (divided by speed), the rotor alternating its direction
like a real wheel. ``paced=True`` follows the dealer instead: the ball lands when ``land()`` is called
(the dealer launched it, called "no more bets", and it came to rest), so a test or the demo places
its bets and closes betting first, whatever the machine's speed. ``copies`` sends each line more than
once (some wheels repeat their result); the faults ``noise`` (line noise before the result),
``silence`` (the wheel says nothing for a spin: a lost result) and ``unplug`` apply.
"""
from __future__ import annotations

import threading

from devices import wheel_number as wn
from devices.simulate.base import Simulator


class NumberWheelSimulator(Simulator):
    kind = "wheel"
    protocol = "wheel-number-v1"

    def __init__(self, end, *, spin_s: float = 30.0, paced: bool = False, copies: int = 1,
                 bias: dict[int, float] | None = None, alternate: bool = True, **kw) -> None:
        super().__init__(end, **kw)
        self.weights = [float((bias or {}).get(n, 1.0)) for n in range(37)]
        if any(x < 0 for x in self.weights) or not any(self.weights):
            raise ValueError("pocket weights are positive")
        self.spin_s = spin_s
        self.paced = paced
        self.copies = max(1, copies)
        self.alternate = alternate
        self.direction = 0
        self.results: list[tuple[int, int]] = []   # (number, direction) the wheel announced, for tests
        self._land = threading.Semaphore(0)
        self.waiting = False   # paced: the ball is spinning until the dealer's call lands it

    def land(self) -> None:
        """The ball comes to rest (paced): the wheel sends the spin's number."""
        self._land.release()

    def run(self) -> None:
        while not self.stopped:
            if self.paced:
                self.waiting = True
                while not self.stopped and not self._land.acquire(timeout=0.05):
                    pass   # the host writes nothing to such a wheel: nothing to answer meanwhile
                self.waiting = False
                if self.stopped:
                    return
            elif not self.sleep(self.spin_s):
                return
            self.spin_once(self.round_faults())

    def spin_once(self, faults: set[str]) -> None:
        number = self.draw_number()
        if "unplug" in faults:
            self.unplug_for(self.unplug_s)
        if "silence" in faults:   # the wheel never says this spin's number
            self.results.append((number, -1))
        else:
            if "noise" in faults:
                self.send(self.noise())
            self.results.append((number, self.direction))
            for _ in range(self.copies):
                self.send(wn.encode_number(number, self.direction))
        if self.alternate:
            self.direction ^= 1

    def draw_number(self) -> int:
        if all(x == 1.0 for x in self.weights):
            return self.rng.randrange(37)
        return self.rng.choices(range(37), weights=self.weights)[0]
