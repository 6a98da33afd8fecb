"""How a long-running process (scheduler, device process) lives until its end: SIGTERM from systemd or
docker and SIGINT set its stop event, so the process shuts its parts down cleanly."""
from __future__ import annotations

import signal
import threading


def stop_event(stop: threading.Event | None = None) -> threading.Event:
    """The process's stop event, set by SIGTERM and SIGINT (wired only in the main thread, where Python
    allows it; a test running a process loop in a thread sets the event itself)."""
    stop = stop or threading.Event()
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
    return stop


def wait_until_stopped(stop: threading.Event) -> None:
    try:
        while not stop.wait(1.0):
            pass
    except KeyboardInterrupt:
        pass


SWITCH_INTERVAL_S = 0.001


def quick_handoffs() -> None:
    """A thread that wakes (a reader with a line, the message queue's listener with an update, a
    client's writer) gets the interpreter within a millisecond, not the default five, from a thread
    busy with a request or a settlement: the live feed crosses several such hand-offs on its way."""
    import sys
    sys.setswitchinterval(SWITCH_INTERVAL_S)
