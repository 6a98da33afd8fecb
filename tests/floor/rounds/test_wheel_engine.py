"""The wheel engine alone: status lines every 500 ms, bare numbers and the clock in, outcomes out."""
from datetime import datetime, timedelta, timezone

from floor.rounds.engines.wheel import (
    Hold,
    Lock,
    Misspin,
    NoBallWatch,
    Number,
    Open,
    Result,
    Status,
    Stray,
    Tick,
    Void,
    WheelState,
    run,
    step,
)

from devices.wheel import flag_names

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


class Run:
    """Feeds the engine at 500 ms per status line, collecting outcomes."""

    def __init__(self, open=True):
        self.state, self.t, self.out, self.spin = WheelState(open=open), 0.0, [], None

    def _step(self, event):
        self.state, more = step(self.state, event, T0 + timedelta(seconds=self.t))
        self.out += more

    def st(self, state, spin, flags=0, win=None, times=1):
        for _ in range(times):
            self.t += 0.5
            self.spin = spin
            self._step(Status(state, spin, flag_names(flags), win))   # the line's bits, by name
        return self

    def num(self, n):
        self._step(Number(n, self.spin))
        return self

    def wait(self, seconds):
        self.t += seconds
        self._step(Tick(self.spin))
        return self

    def spin_to_nmb(self, spin):
        return self.st(1, spin, times=2).st(2, spin, times=4).st(3, spin, times=4).st(4, spin, times=3)

    def kinds(self):
        return [type(o).__name__ for o in self.out]


def test_a_normal_spin_gives_each_outcome_once():
    r = Run().spin_to_nmb(11).num(25).st(5, 11, win=25, times=8)
    assert r.out == [Open(11), Lock(11, True), Result(25, 11)]
    r.spin_to_nmb(12).st(5, 12, win=3).num(3).st(5, 12, win=3, times=4)  # state 5 before the bare line
    assert r.out[3:] == [Open(12), Lock(12, True), Result(3, 12)]


def test_bare_number_and_state5_must_agree():
    r = Run().spin_to_nmb(1).num(7).st(5, 1, win=8, times=3)
    assert r.out[-1] == Hold("the bare number 7 and the state-5 line 8 disagree", {"bare": 7, "five": 8, "spin": 1})
    assert not any(isinstance(o, Result) for o in r.out)


def test_result_without_no_more_bets_is_held_once_and_never_settled():
    r = Run().st(1, 5).st(2, 5, times=2).st(3, 5).num(9).st(5, 5, win=9, times=9)
    assert r.kinds() == ["Open", "Hold"] and r.out[1].reason == "result without no more bets"


def test_a_stray_result_is_alerted_once_per_spin():
    r = Run(open=False).st(4, 6).num(9).st(5, 6, win=9, times=9).st(4, 7).st(5, 7, win=1, times=3)
    assert r.out == [Stray(6, 9, True), Stray(7, 1, False)]


def test_misspin_voids_keeps_bets_locked_and_the_respin_settles():
    r = Run().st(1, 3).st(2, 3, times=2).st(3, 3, times=2).st(3, 3, flags=2, times=4)
    assert r.out == [Open(3), Misspin(3, True)]
    assert r.out[-1].command == "*R"
    r.st(1, 3, times=2).st(2, 4).st(3, 4, times=3).st(4, 4, times=2).num(17).st(5, 4, win=17, times=2)
    assert r.out[2:] == [Lock(4, False), Result(17, 4)]  # no second round: the bets stayed locked


def test_misspin_after_no_more_bets_does_not_repeat_it():
    r = Run().spin_to_nmb(3).st(4, 3, flags=2).st(1, 3).st(3, 3).st(4, 3).num(2).st(5, 3, win=2)
    assert r.out == [Open(3), Lock(3, True), Misspin(3, False), Lock(3, False), Result(2, 3)]


def test_no_ball_waits_five_seconds_then_voids():
    r = Run().spin_to_nmb(4).st(4, 4, flags=1, times=9)  # 4 s since the first
    assert r.kinds() == ["Open", "Lock", "NoBallWatch"]
    assert r.out[-1] == NoBallWatch(4, T0 + timedelta(seconds=r.t - 4 + 5))
    r.wait(1.1)  # 5.1 s since the first flag-1 line: the timer's tick voids
    assert r.out[-1] == Void("no ball detected for 5 seconds")
    r.num(3).st(5, 4, win=3)
    assert r.out[-1] == Void("no ball detected for 5 seconds")   # over: the late result is nothing


def test_no_ball_that_clears_in_time_is_nothing():
    r = Run().spin_to_nmb(4).st(4, 4, flags=1, times=4).st(4, 4, times=2).wait(6).num(1).st(5, 4, win=1)
    assert r.out[-1] == Result(1, 4)


def test_failed_launch_is_tolerated_for_three_seconds():
    r = Run().st(1, 2).st(2, 2).st(3, 2, flags=8, times=5).st(3, 2, times=2)
    assert r.out == [Open(2)]
    r = Run().st(1, 2).st(2, 2).st(3, 2, flags=8, times=8)
    assert r.out == [Open(2), Hold("failed launch over 3 s", {"spin": 2})]


def test_fault_flag_and_closing_mid_round_hold():
    r = Run().st(1, 2).st(2, 2).st(3, 2, flags=4, times=3)
    assert r.out == [Open(2), Hold("wheel fault (sensor, motor or encoder)", {"spin": 2, "flags": ["fault"]})]
    r = Run().spin_to_nmb(2).st(6, 2, times=3)
    assert r.out[-1] == Hold("the wheel closed mid-round", {"spin": 2})


def test_a_wheel_moving_on_without_result_is_held_and_one_round_per_spin():
    r = Run().spin_to_nmb(8).st(1, 9).st(2, 9)
    assert r.out == [Open(8), Lock(8, True), Hold("the wheel reset without a confirmed result", {"spin": 9}),
                     Open(9)]
    # held mid-spin, the wheel carries on with that spin: no second round for it
    r = Run().st(2, 10).st(3, 10, flags=4).st(3, 10).st(4, 10).num(5).st(5, 10, win=5, times=5)
    assert r.kinds() == ["Open", "Hold"]


def test_spin_numbers_wrap_and_replay_gives_the_same_outcomes():
    r = Run().spin_to_nmb(256).num(5).st(5, 256, win=5).spin_to_nmb(1).num(6).st(5, 1, win=6)
    assert [o for o in r.out if isinstance(o, Result)] == [Result(5, 256), Result(6, 1)]
    stream = [(T0 + timedelta(seconds=i), e) for i, e in enumerate(
        [Status(2, 9), Status(4, 9), Number(4, 9), Status(5, 9, (), 4)])]
    assert run(stream) == [Open(9), Lock(9, True), Result(4, 9)]
