"""The integrator's bench on one line, without the floor: listen to a port and judge it
(``check``), record it (``capture``), play a recording back onto a port (``replay``). No database,
no sink: what ``flask floor devices check|capture|replay`` run.

A port is a pyserial URL or a path, opened the way the reader opens it (exclusively, keeping what
is waiting in it), so a port the device process holds is refused, not shared.
"""
from __future__ import annotations

import fcntl
import os
import select
import struct
import termios
import threading
import time
import tty
from datetime import datetime, timezone
from typing import Callable, TextIO

import serial

from devices import capture as cap
from devices.conformance import Conformance
from devices.config import DeviceConfig
from devices.reader import _open_keeping_input
from devices.shoe import Reply
from devices.uart import Line

__all__ = ["open_port", "check_port", "check_capture", "capture_port", "replay_capture", "PtyTarget"]


def open_port(url: str, line: Line | int, timeout: float = 0.05, *, keep_input: bool = False):
    """Open a port exclusively; what waits in it from before is dropped unless ``keep_input`` (a
    check or a capture starts from now: bytes left from another speed or another hour are not the
    device's)."""
    line = line if isinstance(line, Line) else Line(line)
    kw = dict(baudrate=line.baudrate, bytesize=line.bits, parity=line.parity, timeout=timeout, write_timeout=1.0)
    if not url.startswith(("socket://", "rfc2217://", "loop://")):
        kw["exclusive"] = True
    port = serial.serial_for_url(url, do_not_open=True, **kw)
    if keep_input:
        return _open_keeping_input(port)
    port.open()
    return port


def _chunks(port, stop: threading.Event, until: float | None, clock=time.monotonic, ended: list | None = None):
    """(seconds since the start, bytes) as the reader reads them, until ``until`` or ``stop``, or the
    port goes away (unplugged, the other end of a pty closed): then ``ended`` gets why and when."""
    t0 = clock()
    yield 0.0, b""    # the port was opened
    while not stop.is_set() and (until is None or clock() - t0 < until):
        try:
            data = port.read(1)
            if data:
                waiting = port.in_waiting
                if waiting:
                    data += port.read(waiting)
        except (OSError, serial.SerialException) as exc:
            if ended is not None:
                ended.append(f"the port went away after {clock() - t0:.1f} s: {exc}")
            return
        if data:
            yield clock() - t0, data


def check_port(config: DeviceConfig, *, seconds: float = 30.0, rounds: int = 0, answer: bool = True,
               stop: threading.Event | None = None, line: Line | None = None) -> dict:
    """Listen to ``config.port`` for ``seconds`` (or until ``rounds`` whole spins, coups or cards were
    seen) and report. ``answer``: write the shoe's ACK/NAK back, as the host does."""
    stop = stop or threading.Event()
    judge = Conformance(config, line)
    port = open_port(config.port, judge.line)
    last = 0.0
    ended: list[str] = []
    try:
        for t, data in _chunks(port, stop, seconds, ended=ended):
            last = t
            events = judge.feed(t, data) if data else []
            replies = b"".join(e.data for e in events if isinstance(e, Reply))
            if replies and answer:
                port.write(replies)
            if rounds and _seen(judge) >= rounds:
                break
    finally:
        port.close()
    report = judge.report(last if ended or (rounds and _seen(judge) >= rounds) else seconds)
    report["ended"] = ended[0] if ended else None
    report["answered"] = answer
    return report


def _seen(judge: Conformance) -> int:
    return len(judge.whole) if judge.kind != "scanner" else judge.frames.get("CardRead", 0)


def check_capture(capture: cap.Capture, config: DeviceConfig, line: Line | None = None) -> dict:
    """The report for a capture file, as if its line were listened to."""
    judge = Conformance(config, line)
    for t, data in capture.chunks:
        judge.feed(t, data)
    last = capture.chunks[-1][0] if capture.chunks else 0.0
    return judge.report(last)


def capture_port(url: str, kind: str, baudrate: int, out: TextIO, *, seconds: float | None = None,
                 stop: threading.Event | None = None, started: Callable[[], None] | None = None) -> tuple[int, int]:
    """Record what arrives on a port (listening only) to a capture file; (chunks, bytes)."""
    stop = stop or threading.Event()
    port = open_port(url, baudrate)
    chunks = size = 0
    try:
        cap.write_header(out, kind, url, baudrate, datetime.now(timezone.utc))
        if started:
            started()
        for t, data in _chunks(port, stop, seconds, ended=[]):
            cap.append(out, t, data)
            chunks, size = chunks + 1, size + len(data)
    finally:
        port.close()
    return chunks, size


class PtyTarget:
    """A new pseudo-terminal to replay onto: a reader opens ``path`` (or the ``link`` pointed at it)
    as it would a device's port. Playing starts once a reader has it open."""

    def __init__(self, link: str | None = None) -> None:
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.slave_path = os.ttyname(slave)
        os.close(slave)      # while no reader has it open, the master sees a hang-up
        self.link = link
        if link:
            tmp = f"{link}.{os.getpid()}.tmp"
            if os.path.lexists(tmp):
                os.unlink(tmp)
            os.symlink(self.slave_path, tmp)
            os.replace(tmp, link)

    @property
    def path(self) -> str:
        return self.link or self.slave_path

    def opened(self) -> bool:
        p = select.poll()
        p.register(self.master, select.POLLHUP)
        return not any(ev & select.POLLHUP for _, ev in p.poll(0))

    def wait_opened(self, stop: threading.Event) -> bool:
        while not stop.is_set():
            if self.opened():
                return True
            stop.wait(0.02)
        return False

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.master, view):]
            except BlockingIOError:
                select.select([], [self.master], [], 0.05)

    def drain_input(self) -> None:
        """Drop what the reader wrote back (a shoe's ACKs), so its writes never block."""
        while select.select([self.master], [], [], 0)[0]:
            try:
                if not os.read(self.master, 4096):
                    return
            except OSError:
                return

    def wait_read(self, stop: threading.Event, timeout: float = 30.0, settle: float = 1.0) -> None:
        """Until the reader has read everything written: nothing waiting on its side for ``settle``
        seconds on end (the kernel hands bytes on to the reader's side a moment after they were
        written, so one look is not enough), or it closed the port."""
        try:
            fd = os.open(self.slave_path, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
        except OSError:
            return
        try:
            deadline = time.monotonic() + timeout
            quiet_since = time.monotonic()
            while not stop.is_set() and time.monotonic() < deadline:
                waiting = struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0]
                now = time.monotonic()
                if waiting:
                    quiet_since = now
                elif now - quiet_since >= settle:
                    return
                self.drain_input()
                stop.wait(0.02)
        finally:
            os.close(fd)

    def close(self) -> None:
        if self.link and os.path.lexists(self.link):
            os.unlink(self.link)
        os.close(self.master)


class _PortTarget:
    def __init__(self, url: str, baudrate: int) -> None:
        self.port = open_port(url, baudrate, keep_input=True)
        self.path = url

    def wait_opened(self, stop: threading.Event) -> bool:
        return True

    def write(self, data: bytes) -> None:
        self.port.write(data)
        self.port.flush()

    def drain_input(self) -> None:
        if self.port.in_waiting:
            self.port.read(self.port.in_waiting)

    def wait_read(self, stop: threading.Event, timeout: float = 10.0) -> None:
        self.port.flush()

    def close(self) -> None:
        self.port.close()


def replay_capture(capture: cap.Capture, target, *, speed: float = 1.0, stop: threading.Event | None = None,
                   clock=time.monotonic) -> tuple[int, int]:
    """Write a capture's chunks onto ``target`` (a ``PtyTarget``, or a URL) with their timings divided
    by ``speed``; (chunks, bytes) written. Waits for a reader on a pty before the first byte."""
    if speed <= 0:
        raise ValueError("the speed is a positive factor")
    stop = stop or threading.Event()
    if isinstance(target, str):
        target = _PortTarget(target, capture.header.baudrate)
    if not target.wait_opened(stop):
        return 0, 0
    chunks = size = 0
    t0 = clock()
    for t, data in capture.chunks:
        if not data:
            continue   # a (re)opened port in the recording: nothing to send
        while not stop.is_set():
            left = t / speed - (clock() - t0)
            if left <= 0:
                break
            target.drain_input()
            stop.wait(min(left, 0.05))
        if stop.is_set():
            break
        target.write(data)
        chunks, size = chunks + 1, size + len(data)
    target.wait_read(stop)
    return chunks, size
