"""Background parts of a process: the scheduler, the device readers (and simulators on ptys for
the demo floor), the device process of a production deployment, and what every process sets up
(timer wake-ups, recovery of settlements cut by a crash)."""
from __future__ import annotations

import atexit
import logging
import os
import threading
from pathlib import Path

from flask import Flask
from sqlalchemy import select
from sqlalchemy.orm import sessionmaker

from config import ConfigError
from devices.bridge import FloorBridge
from devices.config import load
from devices.demo import DemoDealer
from devices.dispatch import RoundsDispatch
from devices.priority import MAX_PRIORITY
from devices.runtime import DeviceRuntime, simulated_devices
from devices.tap import LineTap
from floor import layout, notify, timers
from floor.models import Table
from floor.runtime import recovery, scheduler
from floor.runtime.commands import CommandListener
from floor.runtime.devicelock import DeviceLock
from floor.runtime.lifetime import quick_handoffs, stop_event, wait_until_stopped
from floor.web.extensions import db

log = logging.getLogger(__name__)
STANDBY_POLL_S = 1.0    # a standby device process tries the lock this often
BEAT_S = 5.0            # the device process's own heartbeat


def factory(app: Flask) -> sessionmaker:
    with app.app_context():
        return sessionmaker(bind=db.engine, expire_on_commit=False)


def wire(app: Flask) -> None:
    """Every process: timers set here wake the scheduler elsewhere through Redis (the scheduler's own
    process wakes it directly, see floor.runtime.scheduler)."""
    cfg = app.config["FLOOR"]["app"]
    if cfg.get("message_queue") and not cfg.get("run_scheduler"):
        timers.set_waker(scheduler.redis_waker(cfg["message_queue"], cfg["message_queue_channel"]))


def recover(app: Flask) -> list[int]:
    """Settle what a crash left at "result" (every process that can settle runs this at its start)."""
    return recovery.recover_rounds(factory(app), app.config["HOUSE"])


def start_background(app: Flask) -> None:
    """A web process (floor.runtime.serve): and, as configured, the scheduler and the devices."""
    wire(app)
    cfg = app.config["FLOOR"]["app"]
    if cfg.get("run_scheduler"):
        scheduler.start(app)     # recovers first
        atexit.register(scheduler.shutdown)
        log.info("scheduler started")
    else:
        recover(app)
    if cfg.get("run_devices"):
        check_devices(app)
        supervisor = DeviceSupervisor(app).start()
        atexit.register(supervisor.stop)


def start_devices(app: Flask):

    floor_cfg = app.config["FLOOR"]
    with app.app_context():
        engine = db.engine
        factory = sessionmaker(bind=engine, expire_on_commit=False)
        with factory() as s:
            tables = {t.number: (t.id, t.kind) for t in s.execute(select(Table)).scalars()}
    configs = load(floor_cfg.get("devices", []))
    sims, sim_configs = [], []
    speed = float(floor_cfg["app"].get("simulator_speed") or 1.0)
    if floor_cfg["app"].get("simulate_devices"):
        live = [(n, kind) for n, (_, kind) in sorted(tables.items())
                if kind != "poker" and not any(c.table == str(n) for c in configs)]
        sim_configs, sims = simulated_devices(Path(app.instance_path) / "dev", live, speed=speed)
        configs += sim_configs
    by_name = {c.name: tables.get(int(c.table), (None, None))[0] if c.table.isdigit() else None for c in configs}
    kinds = {c.name: c.kind for c in configs}
    priority = floor_cfg["app"]["device_realtime_priority"]
    if isinstance(priority, bool) or not isinstance(priority, int) or not 0 <= priority <= MAX_PRIORITY:
        raise ConfigError(f"app.device_realtime_priority must be 0 (off) or 1 to {MAX_PRIORITY}, not {priority!r}")
    runtime = DeviceRuntime(configs, sims, realtime_priority=priority,
                            journal_dir=str(Path(app.instance_path) / "journal"))
    dispatch = RoundsDispatch(factory, app.config["HOUSE"], send=runtime.send)
    # the live device page's tap: publishes the lines only while someone has the page open
    tap = LineTap(notify.emit, app.extensions["floor_device_watchers"].any).start()
    bridge = FloorBridge(factory, by_name, kinds, emit=notify.emit, dispatch=dispatch, tap=tap,
                         lag_limit_s=app.config["HOUSE"].line_lag_ms / 1000,
                         # a device process held behind its line on purpose: tests of the line's time only
                         delay_s=float(os.environ.get("FLOORMAN_TEST_DEVICE_DELAY_S") or 0))
    dealer = None
    if sims:
        # simulated devices need someone at the table: the demo dealers play through the real path,
        # and are at their tables before the devices speak (a round opened by the wheel has its dealer)
        dealer = DemoDealer(factory, app.config["HOUSE"], {int(c.table): sim for c, sim in zip(sim_configs, sims)},
                            speed=speed, confirm_shoe=runtime.shoe_confirmed).prepare()
    runtime.start(bridge)
    app.extensions["floor_devices"] = runtime
    if dealer is not None:
        runtime.dealer = dealer.start()
    return runtime


class DeviceSupervisor:
    """Owns the devices while it holds the floor's device lock; stands by while another process does."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        with app.app_context():
            self.lock = DeviceLock(db.engine, app.instance_path)
        self.runtime: DeviceRuntime | None = None
        self.listener: CommandListener | None = None
        self._stop = threading.Event()
        self._mutex = threading.Lock()
        self._thread = threading.Thread(target=self._watch, name="device-supervisor", daemon=True)
        self.standing_by = False

    def start(self) -> "DeviceSupervisor":
        if self.lock.try_acquire():
            self._up()
        else:
            self._standby()
        self._thread.start()
        return self

    def _standby(self) -> None:
        self.standing_by = True
        log.warning("devices: another device process owns this floor's devices (%s); standing by: this process "
                    "opens no port and reports nothing until that one stops", self.lock.holder())

    def _watch(self) -> None:
        beat_due = 0.0
        while not self._stop.wait(STANDBY_POLL_S):
            with self._mutex:
                if self._stop.is_set():
                    return
                if self.runtime is None:
                    if self.lock.try_acquire():
                        log.warning("devices: the other device process stopped; this one takes the devices over")
                        self._up()
                elif not self.lock.held():
                    log.error("devices: lost the device lock; stopping the readers and standing by")
                    self._down()
                    self._standby()
                else:
                    beat_due += STANDBY_POLL_S
                    if beat_due >= BEAT_S:
                        beat_due = 0.0
                        try:
                            self.lock.beat()
                        except Exception:
                            log.exception("devices: heartbeat failed")

    def _up(self) -> None:
        self.standing_by = False
        recover(self.app)
        self.runtime = start_devices(self.app)
        cfg = self.app.config["FLOOR"]["app"]
        if cfg.get("message_queue"):
            runtime = self.runtime
            self.listener = CommandListener(cfg["message_queue"], cfg["message_queue_channel"],
                                            lambda: runtime.manager.readers if runtime.manager else {}).start()

    def _down(self) -> None:
        if self.listener is not None:
            self.listener.stop()
            self.listener = None
        if self.runtime is not None:
            self.runtime.stop()
            self.runtime = None
            self.app.extensions.pop("floor_devices", None)

    def stop(self) -> None:
        self._stop.set()
        with self._mutex:
            self._down()
            self.lock.release()


def check_devices(app: Flask) -> None:
    """Every configured device belongs to a table of this floor that deals its game: a device for a
    table that does not exist would read cards and numbers nobody can use, so the process refuses to
    start and says which device and what to do."""
    try:   # the entries themselves, their line format (protocol) and its decoder first: no port opened yet
        load(app.config["FLOOR"].get("devices") or [])
    except ValueError as exc:
        raise ConfigError(f"devices: refusing to start: {exc}") from None
    with app.app_context():
        with factory(app)() as s:
            problems = layout.device_problems(s, [(str(d.get("name")), str(d.get("table")), str(d.get("kind")))
                                                  for d in app.config["FLOOR"].get("devices") or []])
    if problems:
        raise ConfigError("devices: refusing to start: " + "; ".join(problems))


def run_device_process(app: Flask, stop: threading.Event | None = None) -> None:
    """Production: one process owns the serial ports and emits through the message queue."""
    check_devices(app)
    if not app.config["FLOOR"]["app"].get("message_queue"):
        log.warning("device process without a message queue: live updates and commands stay in this process")
    wire(app)
    quick_handoffs()
    stop = stop_event(stop)
    supervisor = DeviceSupervisor(app).start()
    try:
        wait_until_stopped(stop)
    finally:
        supervisor.stop()
