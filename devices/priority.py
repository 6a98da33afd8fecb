"""The line before everything else on the host: each reader thread can ask the kernel for real-time
scheduling (SCHED_FIFO), so a frame is read, acknowledged and put on the live feed as soon as it
arrives, even when bets and settlements keep both cores busy. The database work of the same process
stays at normal priority on the table workers.

A reader thread spends its life blocked on the port and wakes for a few milliseconds a frame, so it
cannot starve the host (the kernel also keeps 5 % of every second for normal threads). The device
process's unit allows it with ``LimitRTPRIO=``; where the kernel refuses, each reader says so when it
starts and runs at normal priority."""
from __future__ import annotations

import logging
import os

log = logging.getLogger(__name__)

MAX_PRIORITY = 99


def line_first(priority: int, name: str) -> bool:
    """Put the calling thread at SCHED_FIFO ``priority`` (0: leave it as it is). True when it runs there."""
    if not priority:
        return False
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(priority))   # 0: this thread, on Linux
    except (OSError, AttributeError) as exc:
        log.warning("device %s: reader at normal priority, real-time priority %d refused (%s); "
                    "give the device process LimitRTPRIO=%d", name, priority, exc, priority)
        return False
    return True


def normal() -> None:
    """Put the calling thread at normal scheduling: a thread a reader starts (a table's worker) would
    otherwise inherit the reader's real-time priority, and the database work must not have it."""
    try:
        if os.sched_getscheduler(0) != os.SCHED_OTHER:
            os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))   # lowering is always allowed
    except (OSError, AttributeError):   # no such calls (not Linux): the thread was never raised either
        pass
