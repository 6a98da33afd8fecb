from devices.wheel import WheelStatus, WinningNumber
from devices.wheel_rules import (
    HOLD_CLOSED,
    HOLD_FAILED_LAUNCH,
    HOLD_FAULT,
    HOLD_LOST,
    HOLD_MISMATCH,
    HOLD_NO_NO_MORE_BETS,
    HOLD_UNCONFIRMED,
    BetsOpen,
    Hold,
    Misspin,
    NoBall,
    NoMoreBets,
    Result,
    WheelRules,
)


class Run:
    """Feeds a WheelRules at 500 ms per status line, collecting outcomes."""

    def __init__(self, **kw):
        self.rules, self.t, self.out = WheelRules(**kw), 0.0, []

    def st(self, state, spin, flags=0, win=None, times=1):
        for _ in range(times):
            self.t += 0.5
            self.out += self.rules.feed(WheelStatus(state, spin, win, flags, 20.0, 0), self.t)
        return self

    def num(self, n):
        self.out += self.rules.feed(WinningNumber(n), self.t)
        return self

    def wait(self, seconds):
        self.t += seconds
        self.out += self.rules.tick(self.t)
        return self

    def spin_to_nmb(self, spin):
        return self.st(1, spin, times=2).st(2, spin, times=4).st(3, spin, times=4).st(4, spin, times=3)


def test_a_normal_spin_gives_each_outcome_once():
    r = Run().spin_to_nmb(11).num(25).st(5, 11, win=25, times=8)
    assert r.out == [BetsOpen(11), NoMoreBets(11), Result(11, 25)]
    assert not r.rules.round_in_progress
    r.spin_to_nmb(12).st(5, 12, win=3).num(3).st(5, 12, win=3, times=4)  # state 5 before the bare line
    assert r.out[3:] == [BetsOpen(12), NoMoreBets(12), Result(12, 3)]


def test_bare_number_and_state5_must_agree():
    r = Run().spin_to_nmb(1).num(7).st(5, 1, win=8, times=3)
    assert r.out[-1] == Hold(1, HOLD_MISMATCH) and not any(isinstance(o, Result) for o in r.out)


def test_result_without_no_more_bets_is_held_not_settled():
    r = Run().st(1, 5).st(2, 5, times=2).st(3, 5).num(9).st(5, 5, win=9, times=3)
    assert Hold(5, HOLD_NO_NO_MORE_BETS) in r.out and not any(isinstance(o, Result) for o in r.out)


def test_misspin_voids_keeps_bets_locked_and_the_respin_settles():
    r = Run().st(1, 3).st(2, 3, times=2).st(3, 3, times=2).st(3, 3, flags=2, times=4)
    assert r.out == [BetsOpen(3), Misspin(3)]
    assert r.out[-1].command == "R" and r.rules.round_in_progress
    r.st(1, 3, times=2).st(3, 3, times=3).st(4, 3, times=2).num(17).st(5, 3, win=17, times=2)
    assert r.out[2:] == [NoMoreBets(3), Result(3, 17)]  # no second BetsOpen: bets stayed locked


def test_misspin_after_no_more_bets_does_not_repeat_it():
    r = Run().spin_to_nmb(3).st(4, 3, flags=2).st(1, 3).st(3, 3).st(4, 3).num(2).st(5, 3, win=2)
    assert r.out == [BetsOpen(3), NoMoreBets(3), Misspin(3), Result(3, 2)]


def test_no_ball_waits_five_seconds_then_voids():
    r = Run().spin_to_nmb(4).st(4, 4, flags=1, times=9)  # 4 s since the first
    assert not any(isinstance(o, NoBall) for o in r.out)
    r.wait(1.1)  # 5.1 s since the first flag-1 line
    assert r.out[-1] == NoBall(4) and not r.rules.round_in_progress


def test_no_ball_that_clears_in_time_is_nothing():
    r = Run().spin_to_nmb(4).st(4, 4, flags=1, times=4).st(4, 4, times=2).wait(6).num(1).st(5, 4, win=1)
    assert r.out[-1] == Result(4, 1)


def test_failed_launch_is_tolerated_for_three_seconds():
    r = Run().st(1, 2).st(2, 2).st(3, 2, flags=8, times=5).st(3, 2, times=2)
    assert r.out == [BetsOpen(2)]
    r = Run().st(1, 2).st(2, 2).st(3, 2, flags=8, times=8)
    assert r.out == [BetsOpen(2), Hold(2, HOLD_FAILED_LAUNCH)]


def test_fault_flag_and_closing_mid_round_hold():
    r = Run().st(1, 2).st(2, 2).st(3, 2, flags=4, times=3)
    assert r.out == [BetsOpen(2), Hold(2, HOLD_FAULT)]
    r = Run().spin_to_nmb(2).st(6, 2, times=3)
    assert r.out[-1] == Hold(2, HOLD_CLOSED)


def test_silence_mid_round_holds_but_not_between_rounds():
    r = Run().st(1, 2).st(2, 2).wait(2.5)
    assert r.out[-1] == Hold(2, HOLD_LOST)
    r = Run().spin_to_nmb(2).num(0).st(5, 2, win=0).wait(10)
    assert r.out[-1] == Result(2, 0)


def test_a_wheel_moving_on_without_result_is_held():
    r = Run().spin_to_nmb(8).st(1, 9).st(2, 9)
    assert r.out == [BetsOpen(8), NoMoreBets(8), Hold(8, HOLD_UNCONFIRMED), BetsOpen(9)]


def test_spin_numbers_wrap():
    r = Run().spin_to_nmb(256).num(5).st(5, 256, win=5).spin_to_nmb(1).num(6).st(5, 1, win=6)
    assert [o for o in r.out if isinstance(o, Result)] == [Result(256, 5), Result(1, 6)]
