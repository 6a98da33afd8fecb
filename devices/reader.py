"""Reader threads: one per device. A reader owns its port.

It opens the port (exclusive where the platform allows), feeds every chunk to the device's pure
decoder, writes the shoe's ACK/NAK replies and the host's wheel commands, reconnects with capped
exponential backoff after an unplug, an error, a vanished or busy port, watches the heartbeat,
keeps per-device counters, and hands raw bytes, events and health to a sink. It knows the line,
not the games: the host rules are the engines' (``floor.rounds.engines``), and the commands they
ask for come back through ``send``. Nothing the sink or the line does stops the thread; only
``stop()`` does.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import replace
from pathlib import Path
from datetime import datetime, timedelta, timezone
from typing import Callable

import serial

from devices import journal
from devices.config import DeviceConfig
from devices.journal import Journal
from devices.events import ClockStep, FrameError, Silence
from devices.priority import line_first
from devices.protocols import new_decoder, scan
from devices.replay import feed as feed_decoder
from devices.shoe import Reply
from devices.sink import DeviceHealth, Sink
from devices.wheel import encode_command

log = logging.getLogger(__name__)
CLOCK_STEP_S = 1.0   # the wall clock moving this much against the steady one is a step, not drift


def _utcnow() -> datetime:
    return datetime.now(timezone.utc)


class DeviceReader:
    def __init__(self, config: DeviceConfig, sink: Sink, *, read_timeout: float = 0.05,
                 backoff_initial: float = 0.1, backoff_max: float = 5.0,
                 error_report_interval: float = 1.0,
                 clock: Callable[[], float] = time.monotonic,
                 wallclock: Callable[[], datetime] = _utcnow, realtime_priority: int = 0,
                 journal_dir: str | None = None) -> None:
        """``journal_dir``: where the line's journal of each device is kept (``devices.journal``);
        None: no journal (tests and tools that keep the bytes themselves)."""
        self.config = config
        self.journal = Journal(Path(journal_dir) / f"{config.name}.journal") if journal_dir else None
        self.realtime_priority = realtime_priority
        self.realtime = False   # whether the reader thread got it (devices.priority)
        self.name = config.name
        self.sink = sink
        self.read_timeout = read_timeout
        self.backoff_initial, self.backoff_max = backoff_initial, backoff_max
        self.error_report_interval = error_report_interval
        self.clock, self.wallclock = clock, wallclock
        self.decoder = new_decoder(config)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._port = None
        self._wlock = threading.Lock()  # writes come from the reader thread and from send()
        self._hlock = threading.Lock()  # guards the health record
        self._health = DeviceHealth(config.name, config.table, config.kind, config.port)
        self._published: DeviceHealth | None = None
        self._published_at = 0.0
        self._opened_once = False
        self._last_at: datetime | None = None   # the arrival of the last chunk (each one later)
        self._last_beat: float | None = None  # last status line (wheel) or frame (others)
        # The line's times: the wall clock read once, then moved by the steady clock, so a step of
        # the wall clock (a +1 h jump) never moves a deadline counted from a line's time.
        self._base = (self.wallclock(), self.clock())
        self._offset = 0.0   # the wall clock's lead over the line's times when last looked at
        self._watch = config.kind != "wheel"  # whether silence is a lost line (a wheel: mid-spin only)

    # --- control (any thread) --------------------------------------------------------------

    def start(self) -> "DeviceReader":
        self._thread = threading.Thread(target=self._run, name=f"device-{self.name}", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 3.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        if self.journal is not None and not self.alive:
            self.journal.close()
            self.journal = None
        self._update(state="stopped", connected=False)
        self._publish(force=True)

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def health(self) -> DeviceHealth:
        with self._hlock:
            return self._health

    def send(self, command: str | bytes) -> bool:
        """Write a host command (thread-safe). A wheel command is text like ``"R"`` or ``"*X"``;
        bytes are written as they are (e.g. ``devices.shoe.encode_command``). False when the port
        is not open: commands are not queued across a reconnect (a stale ``*R`` would be wrong)."""
        data = command if isinstance(command, bytes) else encode_command(command)
        return self._write(data)

    def stamp(self) -> datetime:
        """Now, on the line's clock (see ``__init__``); a step of the wall clock is reported once to
        the sink as a ``ClockStep``."""
        wall0, mono0 = self._base
        now = wall0 + timedelta(seconds=self.clock() - mono0)
        offset = (self.wallclock() - now).total_seconds()
        if abs(offset - self._offset) > CLOCK_STEP_S:
            step, self._offset = offset - self._offset, offset
            log.warning("device %s: the wall clock stepped %+.1f s; the line's times keep to the steady clock",
                        self.name, step)
            self._sink("events", self.name, [ClockStep(round(step, 1))], now)
        return now

    # --- the thread -------------------------------------------------------------------------

    def _run(self) -> None:
        self.realtime = line_first(self.realtime_priority, self.name)
        if self.journal is not None:
            try:
                self._replay_journal()
            except Exception:   # the line matters more: read it, and say what could not be replayed
                log.exception("device %s: the journal could not be replayed", self.name)
        backoff = self.backoff_initial
        while not self._stop.is_set():
            try:
                port = self._open()
            except Exception as exc:  # no such port, busy, permission: try again later
                self._io_error(f"open: {exc}")
                self._wait(backoff)
                backoff = min(backoff * 2, self.backoff_max)
                continue
            backoff = self.backoff_initial
            self._connected(port)
            try:
                while not self._stop.is_set():
                    data = port.read(1)  # blocks up to read_timeout
                    if data:
                        waiting = port.in_waiting
                        if waiting:
                            data += port.read(waiting)
                        self._chunk(data)
                    self._tick()
            except Exception as exc:  # unplug, EIO, vanished device, anything from the sink path
                if not self._stop.is_set():
                    self._io_error(f"read: {exc}")
            finally:
                self._disconnected(port)
            if not self._stop.is_set():
                self._wait(backoff)
                backoff = min(backoff * 2, self.backoff_max)

    def _open(self):
        kw = dict(baudrate=self.config.baudrate, timeout=self.read_timeout, write_timeout=1.0)
        if not self.config.port.startswith(("socket://", "rfc2217://", "loop://")):
            kw["exclusive"] = True  # posix flock: a second reader on the same port fails loudly
        port = serial.serial_for_url(self.config.port, do_not_open=True, **kw)
        return _open_keeping_input(port)

    def _connected(self, port) -> None:
        with self._wlock:
            self._port = port
        reconnect = self._opened_once
        self._opened_once = True
        self.decoder.reconnected()
        self._last_beat = self.clock()  # the watchdog counts from the (re)connection
        with self._hlock:
            h = self._health
            self._health = replace(h, state="connected", connected=True, connected_since=self.wallclock(),
                                   reconnects=h.reconnects + int(reconnect))
        at = self._arrival()
        self._journal(at, b"")
        self._sink("raw", self.name, b"", at)  # a break marker for replays
        self._publish(force=True)
        log.info("device %s connected on %s", self.name, self.config.port)

    def _disconnected(self, port) -> None:
        with self._wlock:
            self._port = None
            try:
                port.close()
            except Exception:  # closing a vanished device may fail; it is closed either way
                pass
        # closed on purpose (stop()): a shutdown, not a line fault, so no "disconnected" alert
        self._update(state="stopped" if self._stop.is_set() else "disconnected", connected=False,
                     connected_since=None)
        self._publish(force=True)

    def _wait(self, seconds: float) -> None:
        """Back off, still running the watchdog while the port is away."""
        deadline = self.clock() + seconds
        while not self._stop.is_set():
            left = deadline - self.clock()
            if left <= 0:
                return
            self._stop.wait(min(left, 0.1))
            self._tick()

    # --- data -------------------------------------------------------------------------------

    def _journal(self, at: datetime, data: bytes) -> None:
        if self.journal is not None:
            self.journal.append(at, data)   # on the disk before anything is done with it
            if self.journal.full:
                self._compact()

    def _arrival(self) -> datetime:
        """Now on the line's clock, later than the chunk before: a chunk's arrival names it (the
        floor stores and marks each once by it)."""
        at = self.stamp()
        if self._last_at is not None and at <= self._last_at:
            at = self._last_at + timedelta(microseconds=1)
        self._last_at = at
        return at

    def _handled_from(self, records: list) -> int:
        """Where the records the floor has not handled start (see ``devices.journal.unhandled``)."""
        handled_until = getattr(self.sink, "handled_until", None)
        if handled_until is not None:
            return journal.unhandled(records, handled_until(self.name))
        stored_until = getattr(self.sink, "stored_until", None)   # a sink that stores, and handles nothing
        if stored_until is not None:
            last = stored_until(self.name)
            return 0 if last is None else next((i for i, (at, _) in enumerate(records) if at > last), len(records))
        return len(records)

    def _compact(self) -> None:
        """Keep what the floor has not handled and the few records before it, nothing else."""
        records = journal.read(self.journal.path)
        try:
            start = self._handled_from(records)
        except Exception:   # the floor cannot say: keep everything
            log.exception("device %s: the journal is kept whole (the floor's mark could not be read)", self.name)
            start = 0
        self.journal.compact(records[max(0, min(start, len(records)) - journal.KEEP):])

    def _replay_journal(self) -> None:
        """The bytes this device sent whose events the floor has not all handled (the process before
        this one was killed with them in hand, stored or not) go on as if read now, with their own
        arrival times: what the floor already has of them (the chunk, the events handled) it skips.
        The records before them are fed to the decoder first, so a frame split across the two is
        whole and a repeat is known as one."""
        records = journal.read(self.journal.path)
        start = self._handled_from(records)
        if records:
            self._last_at = records[-1][0]
            before = records[max(0, start - journal.KEEP):start]
            marks = [i for i, (_, data) in enumerate(before) if not data]
            for at, data in before[marks[-1] if marks else 0:]:
                feed_decoder(self.decoder, data, at)   # state only: these were handled before
            if start < len(records):
                log.warning("device %s: %d chunks from the journal the floor had not handled", self.name,
                            len(records) - start)
            for at, data in records[start:]:
                self._process(data, at, self.clock(), live=False)
        # the records handed on stay until the floor has handled them (a second crash hands them on again)
        self.journal.compact(records[max(0, min(start, len(records)) - journal.KEEP):])

    def _chunk(self, data: bytes) -> None:
        at, now = self._arrival(), self.clock()
        self._journal(at, data)
        self._process(data, at, now)

    def _process(self, data: bytes, at: datetime, now: float, live: bool = True) -> None:
        try:
            events = feed_decoder(self.decoder, data, at)
        except Exception as exc:  # a decoder must never raise; if one does, keep the line alive
            log.exception("decoder of %s raised", self.name)
            events = [FrameError(f"decoder bug: {exc!r}", bytes(data[:64]))]
        replies = b"".join(e.data for e in events if isinstance(e, Reply))
        if replies and live:   # a journal's frames were answered (or will be sent again) back then
            self._write(replies)
        fault, beat, watch = scan(self.config.kind, events)
        if beat:
            self._last_beat = now
        if watch is not None:
            self._watch = watch
        d = self.decoder
        with self._hlock:
            h = self._health
            changes = dict(bytes_in=h.bytes_in + len(data), frames=d.frames,
                           duplicates=getattr(d, "duplicates", 0), frame_errors=d.errors)
            if d.frames != h.frames:
                changes["last_frame_at"] = at
            errors = [e for e in events if isinstance(e, FrameError)]
            if errors:
                changes.update(last_error=f"frame: {errors[-1].reason}", last_error_at=at)
            if fault is not None:
                changes["fault"] = fault or None
            if beat and h.lost:
                changes["lost"] = False
            self._health = replace(h, **changes)
        self._sink("raw", self.name, data, at)
        if events:
            # a journal's events were read, and sent to the live feed, by the process before this one
            replay = not live and hasattr(self.sink, "replayed")
            self._sink("replayed" if replay else "events", self.name, events, at)
        self._publish()

    def _tick(self) -> None:
        now = self.clock()
        hb = self.config.heartbeat_s
        if hb and self._last_beat is not None and now - self._last_beat > hb:
            # a wheel unplugged mid-spin is lost too; another device only while its port is open
            watching = self._watch if self.config.kind == "wheel" else self.health().connected
            if watching and not self.health().lost:
                silent = now - self._last_beat
                at = self.stamp()
                self._update(lost=True, last_error=f"no heartbeat for {silent:.1f} s", last_error_at=at)
                log.warning("device %s lost: no heartbeat", self.name)
                self._sink("events", self.name, [Silence(round(silent, 1))], at)
        self._publish()

    def _write(self, data: bytes) -> bool:
        error = None
        with self._wlock:
            port = self._port
            if port is None:
                return False
            try:
                port.write(data)
            except Exception as exc:  # reported outside the lock: the sink may be slow
                error = exc
        if error is not None:
            self._io_error(f"write: {error}")
            return False
        with self._hlock:
            self._health = replace(self._health, bytes_out=self._health.bytes_out + len(data))
        if hasattr(self.sink, "written"):
            self._sink("written", self.name, data, self.stamp())
        return True

    # --- health and the sink ----------------------------------------------------------------

    def _update(self, **changes) -> None:
        with self._hlock:
            self._health = replace(self._health, **changes)

    def _io_error(self, text: str) -> None:
        log.warning("device %s: %s", self.name, text)
        with self._hlock:
            self._health = replace(self._health, io_errors=self._health.io_errors + 1,
                                   last_error=text, last_error_at=self.wallclock())
        self._publish(force=True)

    def _sink(self, method: str, *args) -> bool:
        try:
            getattr(self.sink, method)(*args)
            return True
        except Exception as exc:
            log.exception("sink.%s failed for device %s", method, self.name)
            with self._hlock:
                self._health = replace(self._health, sink_errors=self._health.sink_errors + 1,
                                       last_error=f"sink.{method}: {exc!r}", last_error_at=self.wallclock())
            if method != "health":
                self._publish(force=True)
            return False

    def _publish(self, force: bool = False) -> None:
        """Send a snapshot when the line's state changed; counters at most once per interval."""
        h, prev = self.health(), self._published
        if prev == h:
            return
        key = lambda x: (x.state, x.connected, x.lost, x.fault)  # noqa: E731
        counters = lambda x: (x.last_error, x.errors, x.reconnects)  # noqa: E731
        now = self.clock()
        due = now - self._published_at >= self.error_report_interval
        if force or prev is None or key(prev) != key(h) or (counters(prev) != counters(h) and due):
            self._published, self._published_at = h, now
            self._sink("health", self.name, h)


def _open_keeping_input(port):
    """Open a port without discarding what is waiting in it. pyserial flushes a port's input when it
    opens it; what a device sent while its port was closed (the device process restarting, a
    reconnect) is the rest of a round, and is read like anything else."""
    if hasattr(port, "_reset_input_buffer"):
        port._reset_input_buffer = lambda: None   # this instance only, for the open
        try:
            port.open()
        finally:
            del port._reset_input_buffer
    else:
        port.open()
    return port


class DeviceManager:
    """Starts and stops one reader per configured device."""

    def __init__(self, configs: list[DeviceConfig], sink: Sink, **reader_options) -> None:
        self.readers = {c.name: DeviceReader(c, sink, **reader_options) for c in configs}

    def start(self) -> "DeviceManager":
        for reader in self.readers.values():
            reader.start()
        return self

    def stop(self, timeout: float = 3.0) -> None:
        for reader in self.readers.values():
            reader._stop.set()  # all at once, then wait for each
        for reader in self.readers.values():
            reader.stop(timeout)

    def health(self) -> list[DeviceHealth]:
        return [r.health() for r in self.readers.values()]

    def send(self, device: str, command: str | bytes) -> bool:
        return self.readers[device].send(command)

    def __getitem__(self, name: str) -> DeviceReader:
        return self.readers[name]
