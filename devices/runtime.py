"""Running the devices of a process: simulators on ptys for the demo floor, and the readers.

The serving process (embedded default) or the device process (production) builds a FloorBridge and
calls start(); nothing here knows about flask.
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from pathlib import Path

from devices.config import DeviceConfig, load
from devices.reader import DeviceManager
from devices.simulate.base import PtyEnd
from devices.simulate.scanner import ScannerSimulator
from devices.simulate.shoe import ShoeSimulator
from devices.simulate.wheel import WheelSimulator

log = logging.getLogger(__name__)


def simulated_devices(dev_dir: Path, tables: list[tuple[int, str]], seed: int | None = None,
                      speed: float = 1.0):
    """One simulator per live-game table: (table number, kind) pairs in, (configs, simulators) out.
    Each speaks its real protocol on a pty whose slave is linked at dev_dir/<name>, like a
    /dev/serial/by-id entry. The wheel runs by itself; the shoe is paced by the dealer and the
    scanner reads on demand (devices.demo.DemoDealer plays the dealer). ``speed`` divides every
    simulated delay."""
    dev_dir.mkdir(parents=True, exist_ok=True)
    configs, sims = [], []
    for number, kind in tables:
        if kind == "roulette":
            name, dkind, sim = f"wheel-{number}", "wheel", WheelSimulator
            opts = {}
        elif kind == "baccarat":
            name, dkind, sim = f"shoe-{number}", "shoe", ShoeSimulator
            opts = {"paced": True}
        elif kind in ("blackjack", "casino_holdem"):
            name, dkind, sim = f"scanner-{number}", "scanner", ScannerSimulator
            opts = {"game": "blackjack" if kind == "blackjack" else "holdem", "on_demand": True}
        else:
            continue
        link = dev_dir / name
        end = PtyEnd(link=str(link))
        sims.append(sim(end, seed=seed, speed=speed, **opts))
        configs.append(DeviceConfig.from_dict({"name": name, "table": str(number), "kind": dkind, "port": str(link)}))
    return configs, sims


@dataclass
class DeviceRuntime:
    configs: list[DeviceConfig]
    simulators: list = field(default_factory=list)
    manager: DeviceManager | None = None
    beat_s: float = 3.0   # health is re-sent this often, so the floor can tell a silent process
    dealer: object | None = None   # the demo floor's dealers (devices.demo.DemoDealer), with simulators
    sink: object | None = None
    realtime_priority: int = 0   # SCHED_FIFO priority of the reader threads, 0: normal (devices.priority)
    journal_dir: str | None = None   # the line's journal of each device (devices.journal)
    _stop: threading.Event = field(default_factory=threading.Event)

    @classmethod
    def from_config(cls, entries: list[dict]) -> "DeviceRuntime":
        return cls(load(entries))

    def start(self, sink) -> "DeviceRuntime":
        self.sink = sink
        for sim in self.simulators:
            sim.start()
        self.manager = DeviceManager(self.configs, sink, realtime_priority=self.realtime_priority,
                                     journal_dir=self.journal_dir).start()
        log.info("devices: %s", ", ".join(f"{c.name} ({c.kind}) on {c.port}" for c in self.configs) or "none")
        threading.Thread(target=self._beat, args=(sink,), name="device-health-beat", daemon=True).start()
        return self

    def _beat(self, sink) -> None:
        while not self._stop.wait(self.beat_s):
            for snapshot in self.manager.health():
                try:
                    sink.health(snapshot.name, snapshot)
                except Exception:  # the next beat tries again; the readers go on regardless
                    log.exception("device health beat for %s failed", snapshot.name)

    def send(self, device: str, command: str | bytes) -> bool:
        """A command to one device (what the rounds ask for, e.g. a wheel's ``*R``)."""
        return self.manager is not None and device in self.manager.readers and self.manager.send(device, command)

    def shoe_confirmed(self, table: str | int) -> list[str]:
        """The dealer confirmed a new shoe: ``GP 00`` (confirm game) to the table's smart shoe."""
        from devices.shoe import encode_command
        out = []
        for name, reader in (self.manager.readers.items() if self.manager else ()):
            if reader.config.table == str(table) and reader.config.kind == "shoe":
                if reader.send(encode_command("GP", 0, bcc_includes_start=reader.config.bcc_includes_start)):
                    out.append(name)
        return out

    def stop(self) -> None:
        self._stop.set()
        if self.dealer is not None:
            self.dealer.stop()
        if self.manager is not None:
            self.manager.stop()
        if hasattr(self.sink, "close"):
            self.sink.close()   # the work the readers handed over is finished before the process goes
        for sim in self.simulators:
            sim.stop()
