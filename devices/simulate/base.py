"""What every simulator shares: the device end of a line, and a thread with a speed factor.

``PtyEnd`` opens a pseudo-terminal (the reader opens its slave, like a USB-serial port) and can
point a symlink at the slave, like ``/dev/serial/by-id/…``; ``unplug()`` closes it and removes
the link, ``replug()`` opens a new pty and re-points the link. ``UrlEnd`` talks to any pyserial URL.
"""
from __future__ import annotations

import errno
import logging
import os
import random
import select
import threading
import termios
import tty

from devices.config import DEFAULT_BAUD
from devices.uart import Line, garble, parse_line

log = logging.getLogger(__name__)
_SPEEDS = {getattr(termios, f"B{b}"): b for b in (1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400)
           if hasattr(termios, f"B{b}")}


class PtyEnd:
    def __init__(self, link: str | None = None) -> None:
        self.link = link
        self.master: int | None = None
        self.slave: int | None = None
        self.slave_path: str | None = None
        self._lock = threading.Lock()
        self.replug()

    @property
    def path(self) -> str:
        """What a reader should open: the link when there is one."""
        return self.link or self.slave_path or ""

    def replug(self) -> None:
        with self._lock:
            if self.master is not None:
                return
            master, slave = os.openpty()
            tty.setraw(slave)  # no echo, no CR/LF translation before the reader configures it
            self._untouched = termios.tcgetattr(slave)
            os.set_blocking(master, False)
            # We keep the slave open too: a pty whose last slave closes hangs up, and a reader
            # reconnecting after an error must find the line still there.
            self.master, self.slave, self.slave_path = master, slave, os.ttyname(slave)
            if self.link:
                tmp = f"{self.link}.{os.getpid()}.tmp"
                if os.path.lexists(tmp):
                    os.unlink(tmp)
                os.symlink(self.slave_path, tmp)
                os.replace(tmp, self.link)  # atomic re-point, as udev does

    def host_line(self) -> Line | None:
        """The speed and framing a reader set on the line (None: nobody has configured it yet)."""
        slave = self.slave
        try:
            attrs = termios.tcgetattr(slave) if slave is not None else None
        except (termios.error, OSError):
            return None
        if attrs is None or attrs == self._untouched:
            return None
        cflag, speed = attrs[2], _SPEEDS.get(attrs[4])
        if speed is None:
            return None
        parity = "N" if not cflag & termios.PARENB else "O" if cflag & termios.PARODD else "E"
        return Line(speed, 7 if (cflag & termios.CSIZE) == termios.CS7 else 8, parity)

    def unplug(self) -> None:
        with self._lock:
            if self.link and os.path.lexists(self.link):
                os.unlink(self.link)
            for fd in (self.master, self.slave):
                if fd is not None:
                    try:
                        os.close(fd)
                    except OSError:
                        pass
            self.master = self.slave = None

    close = unplug

    @property
    def plugged(self) -> bool:
        return self.master is not None

    def write(self, data: bytes, stop: threading.Event | None = None) -> bool:
        """Write everything unless unplugged or stopped; the line stalls while nobody reads."""
        view = memoryview(data)
        while view:
            fd = self.master
            if fd is None or (stop is not None and stop.is_set()):
                return False
            try:
                n = os.write(fd, view)
                view = view[n:]
            except BlockingIOError:
                select.select([], [fd], [], 0.05)
            except OSError as exc:
                if exc.errno in (errno.EBADF, errno.EIO):
                    return False
                raise
        return True

    def read(self, timeout: float) -> bytes:
        fd = self.master
        if fd is None:
            return b""
        try:
            ready, _, _ = select.select([fd], [], [], timeout)
            return os.read(fd, 4096) if ready else b""
        except (OSError, ValueError):
            return b""


class UrlEnd:
    """The device end on a pyserial URL (a real port, ``socket://``, the other end of socat…)."""

    def __init__(self, url: str, baudrate: int = 9600) -> None:
        import serial
        self.url, self.baudrate = url, baudrate
        self._serial = serial
        self.port = None
        self.replug()

    path = property(lambda self: self.url)
    plugged = property(lambda self: self.port is not None)

    def replug(self) -> None:
        if self.port is None:
            self.port = self._serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=0)

    def unplug(self) -> None:
        if self.port is not None:
            self.port.close()
            self.port = None

    close = unplug

    def write(self, data: bytes, stop: threading.Event | None = None) -> bool:
        if self.port is None:
            return False
        self.port.write(data)
        return True

    def read(self, timeout: float) -> bytes:
        if self.port is None:
            return b""
        self.port.timeout = timeout
        first = self.port.read(1)
        return first + (self.port.read(self.port.in_waiting) if first and self.port.in_waiting else b"")


FAULTS = ("misspin", "no_ball", "failed_launch", "sensor_fault", "noise", "bad_bcc", "overdraw",
          "unplug", "silence", "double_read", "wrong_speed")


class Simulator:
    """A device on a thread. ``speed`` divides every delay; ``faults`` recur every
    ``fault_every`` rounds; ``inject(name)`` makes one happen in the next round.

    ``wrong_speed`` is not a round's fault but the line's, for the whole run: the device sends at
    ``line_speed`` (twice its kind's speed unless given) with ``line_framing``, and every byte reaches
    the host as a UART set to the host's speed reads it (``devices.uart.garble``): the same garbage
    every time. The host's speed is the one its reader set on the pty (a host that tries the right
    speed reads clean bytes), or ``host_baudrate`` (the kind's speed unless given) before a reader
    has configured the line or on a URL."""

    kind = "device"

    def __init__(self, end, *, seed: int | None = None, speed: float = 1.0,
                 faults: tuple[str, ...] | list[str] = (), fault_every: int = 5,
                 unplug_s: float = 2.0, line_speed: int | None = None, line_framing: str = "8N1",
                 host_baudrate: int | None = None) -> None:
        unknown = set(faults) - set(FAULTS)
        if unknown:
            raise ValueError(f"unknown faults {sorted(unknown)}; known: {FAULTS}")
        self.line: tuple[Line, Line] | None = None   # (the device's line, the host's) when they differ
        if "wrong_speed" in faults:
            baud = DEFAULT_BAUD.get(self.kind, 9600)
            self.line = (parse_line(f"{line_speed or 2 * baud} {line_framing}"), Line(host_baudrate or baud))
        self.end = end
        self.rng = random.Random(seed)
        self.speed = speed
        self.faults = tuple(faults)
        self.fault_every = max(1, fault_every)
        self.unplug_s = unplug_s
        self.rounds = 0
        self._injected: list[str] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.received = bytearray()  # everything the host wrote to us

    @property
    def path(self) -> str:
        return self.end.path

    def inject(self, fault: str) -> None:
        if fault not in FAULTS:
            raise ValueError(f"unknown fault {fault!r}")
        with self._lock:
            self._injected.append(fault)

    def round_faults(self) -> set[str]:
        """Faults for the round starting now: injected ones, plus the recurring ones when due."""
        with self._lock:
            now = set(self._injected)
            self._injected.clear()
        self.rounds += 1
        if self.faults and self.rounds % self.fault_every == 0:
            now |= set(self.faults)
        return now

    def start(self) -> "Simulator":
        self._thread = threading.Thread(target=self._main, name=f"sim-{self.kind}", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 3.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        self.end.close()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def run_forever(self) -> None:
        """Run on the calling thread until stopped (the CLI)."""
        self._main()

    def _main(self) -> None:
        try:
            self.run()
        except Exception:
            if not self._stop.is_set():
                log.exception("%s simulator died", self.kind)
                raise

    def run(self) -> None:  # pragma: no cover - subclasses
        raise NotImplementedError

    def sleep(self, seconds: float) -> bool:
        """Sleep ``seconds / speed`` while answering the host; False once stopped."""
        import time
        deadline = time.monotonic() + seconds / self.speed
        while not self._stop.is_set():
            left = deadline - time.monotonic()
            if left <= 0:
                return True
            if not self.end.plugged:
                self._stop.wait(min(left, 0.05))
                continue
            data = self.end.read(min(left, 0.05))
            if data:
                self.received += data
                self.on_host_bytes(data)
        return False

    def on_host_bytes(self, data: bytes) -> None:
        """Bytes the host wrote (commands, ACK/NAK)."""

    def send(self, data: bytes) -> bool:
        if self.line is not None:
            host = getattr(self.end, "host_line", lambda: None)() or self.line[1]
            data = garble(data, self.line[0], host)
        return self.end.write(data, self._stop)

    def noise(self) -> bytes:
        """Line noise: high bytes (never a valid frame), ended so line protocols resynchronise."""
        return bytes(self.rng.randrange(0x80, 0x100) for _ in range(self.rng.randrange(1, 12))) + b"\r\n"

    def unplug_for(self, seconds: float) -> None:
        """Pull the cable for ``seconds`` of real time (not scaled: readers back off in real time)."""
        self.end.unplug()
        log.info("%s simulator unplugged", self.kind)
        self._stop.wait(seconds)
        if not self._stop.is_set():
            self.end.replug()
        log.info("%s simulator replugged at %s", self.kind, self.end.path)
