"""A reader thread runs real-time when the process may (the device process's unit allows it), so a
frame waits for no settlement; the threads it starts for the database work run at normal priority;
where the kernel refuses, the reader says so and reads all the same."""
import logging
import os
import threading

import pytest

from devices.wheel import WinningNumber, encode_number, encode_status
from devices.worker import Worker
from tests.devices.helpers import wait_until


def _policy(tid: int) -> tuple[int, int]:
    return os.sched_getscheduler(tid), os.sched_getparam(tid).sched_priority


def _may_run_real_time(priority: int) -> bool:
    import resource
    return os.geteuid() == 0 or resource.getrlimit(resource.RLIMIT_RTPRIO)[0] >= priority


def test_a_reader_asked_for_real_time_runs_there_and_its_workers_do_not(pty, sink, make_reader):
    if not _may_run_real_time(7):
        pytest.skip("this user may not ask for real-time priority (the unit's LimitRTPRIO gives it)")
    reader = make_reader("wheel", pty.path, reader_kw={"realtime_priority": 7})
    wait_until(lambda: reader.realtime, what="the reader at real-time priority")
    assert _policy(reader._thread.native_id) == (os.SCHED_FIFO, 7)
    assert _policy(threading.get_native_id()) == (os.SCHED_OTHER, 0)   # the test's thread is untouched
    pty.write(encode_status(4, 3, None) + encode_number(17))
    wait_until(lambda: WinningNumber(17) in sink.events_of(reader.name))

    # a thread started from a real-time thread inherits it: the table's worker puts itself back
    seen = []
    started = threading.Event()

    def from_a_real_time_thread():
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(7))
        worker = Worker("table 12")
        worker.submit(lambda: seen.append(_policy(threading.get_native_id())))
        worker.drain(30)
        worker.stop(30)
        started.set()

    t = threading.Thread(target=from_a_real_time_thread)
    t.start()
    t.join(60)
    assert started.is_set() and seen == [(os.SCHED_OTHER, 0)]


def test_a_reader_refused_real_time_says_so_and_reads_all_the_same(pty, sink, make_reader, caplog):
    caplog.set_level(logging.WARNING, logger="devices.priority")
    reader = make_reader("wheel", pty.path, reader_kw={"realtime_priority": 150})   # no kernel gives 150
    pty.write(encode_status(4, 3, None) + encode_number(26))
    wait_until(lambda: WinningNumber(26) in sink.events_of(reader.name))
    assert not reader.realtime
    assert _policy(reader._thread.native_id) == (os.SCHED_OTHER, 0)
    assert any("wheel-1" in r.getMessage() and "normal priority" in r.getMessage() for r in caplog.records)


def test_without_the_setting_the_reader_runs_at_normal_priority(pty, sink, make_reader):
    reader = make_reader("wheel", pty.path)
    pty.write(encode_number(5))
    wait_until(lambda: WinningNumber(5) in sink.events_of(reader.name))
    assert not reader.realtime and _policy(reader._thread.native_id) == (os.SCHED_OTHER, 0)
