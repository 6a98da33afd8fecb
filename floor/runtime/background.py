"""Background parts of a process: the scheduler, the device readers (and simulators on ptys for
the demo floor), and the device process of a production deployment."""
from __future__ import annotations

import atexit
import logging
import threading
from pathlib import Path

from flask import Flask
from sqlalchemy import select
from sqlalchemy.orm import sessionmaker

from devices.bridge import FloorBridge
from devices.config import load
from devices.demo import DemoDealer
from devices.dispatch import RoundsDispatch
from devices.runtime import DeviceRuntime, simulated_devices
from floor import notify
from floor.models import Table
from floor.runtime import scheduler
from floor.web.extensions import db

log = logging.getLogger(__name__)


def start_background(app: Flask) -> None:
    cfg = app.config["FLOOR"]["app"]
    if cfg.get("run_scheduler"):
        scheduler.start(app)
        atexit.register(scheduler.shutdown)
        log.info("scheduler started")
    if cfg.get("run_devices"):
        runtime = start_devices(app)
        atexit.register(runtime.stop)


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
    dispatch = RoundsDispatch(factory, app.config["HOUSE"])
    bridge = FloorBridge(factory, by_name, kinds, emit=notify.emit, dispatch=dispatch)
    runtime = DeviceRuntime(configs, sims).start(bridge)
    app.extensions["floor_devices"] = runtime
    if sims:
        # simulated devices need someone at the table: the demo dealers play through the real path
        runtime.dealer = DemoDealer(factory, app.config["HOUSE"], {int(c.table): sim for c, sim in zip(sim_configs, sims)},
                                    speed=speed, confirm_shoe=runtime.shoe_confirmed).start()
    return runtime


def run_device_process(app: Flask) -> None:
    """Production: one process owns the serial ports and emits through the message queue."""
    if not app.config["FLOOR"]["app"].get("message_queue"):
        log.warning("device process without a message queue: live updates stay in this process")
    runtime = start_devices(app)
    stop = threading.Event()
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass
    finally:
        runtime.stop()


