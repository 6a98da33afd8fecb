"""Device configuration: one entry per serial device (the lead wires it into config/*.toml)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from devices import protocols

KINDS = ("wheel", "shoe", "scanner")
ONE_PER_TABLE = ("wheel", "shoe")   # the devices that drive a table's rounds by themselves
DEFAULT_BAUD = {"wheel": 9600, "shoe": 4800, "scanner": 9600}


@dataclass(frozen=True, slots=True)
class DeviceConfig:
    name: str  # unique device name, e.g. "roulette-1-wheel"
    table: str  # table the device belongs to
    kind: str  # wheel | shoe | scanner
    port: str  # pyserial URL: /dev/serial/by-id/…, socket://host:4001, loop://, a pty path
    baudrate: int = 0  # 0: the kind's default line speed
    bcc_includes_start: bool = False  # shoe firmware that XORs ENQ into the BCC
    heartbeat_s: float | None = None  # wheel: 2.0 by default; others: no watchdog unless set
    prefix: bytes = b""  # scanner framing around the card code
    suffix: bytes = b""
    duplicate_window_s: float = 0.3  # scanner: same card within this window is one read
    options: dict[str, Any] = field(default_factory=dict)  # anything else, kept for the caller
    # the line format: a name of devices.protocols.PROTOCOLS or the dotted path of a decoder class;
    # "": the kind's own (wheel-v1, shoe-v1, scanner-v1)
    protocol: str = ""
    decoder: type | None = field(default=None, compare=False, repr=False)  # the class it names (set here)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"device {self.name!r}: kind must be one of {KINDS}, not {self.kind!r}")
        if not self.name or not self.port:
            raise ValueError("a device needs a name and a port")
        if not self.baudrate:
            object.__setattr__(self, "baudrate", DEFAULT_BAUD[self.kind])
        if not isinstance(self.protocol, str):
            raise ValueError(f"device {self.name!r}: protocol is a name or a dotted path, not {self.protocol!r}")
        if not self.protocol:
            object.__setattr__(self, "protocol", protocols.DEFAULT_PROTOCOL[self.kind])
        # the line format is checked now, before any port is opened: never at the first byte
        cls = protocols.resolve(self.protocol, self.kind, self.name)
        object.__setattr__(self, "decoder", cls)
        if self.kind == "wheel" and not protocols.sends_heartbeat(cls):
            if self.heartbeat_s is not None:
                raise ValueError(f"device {self.name!r}: a wheel on protocol {self.protocol!r} sends no heartbeat, "
                                 f"so heartbeat_s cannot be watched; leave it out")
        elif self.heartbeat_s is None and self.kind == "wheel":
            object.__setattr__(self, "heartbeat_s", 2.0)
        protocols.build(cls, self, self.name)   # a decoder that cannot be built is refused here too

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "DeviceConfig":
        known = {"name", "table", "kind", "port", "baudrate", "bcc_includes_start", "heartbeat_s",
                 "prefix", "suffix", "duplicate_window_s", "protocol"}
        missing = {"name", "table", "kind", "port"} - d.keys()
        if missing:
            raise ValueError(f"device entry {d!r} lacks {sorted(missing)}")
        kw = {k: v for k, v in d.items() if k in known}
        for k in ("prefix", "suffix"):  # TOML has no bytes
            if isinstance(kw.get(k), str):
                kw[k] = kw[k].encode("latin-1")
        if kw.get("heartbeat_s") is not None:
            kw["heartbeat_s"] = float(kw["heartbeat_s"])
        kw["baudrate"] = int(kw.get("baudrate") or 0)
        kw["bcc_includes_start"] = bool(kw.get("bcc_includes_start", False))
        kw["name"], kw["table"] = str(kw["name"]), str(kw["table"])
        return cls(**kw, options={k: v for k, v in d.items() if k not in known})


def load(entries: list[dict[str, Any]]) -> list[DeviceConfig]:
    configs = [DeviceConfig.from_dict(e) for e in entries]
    names = [c.name for c in configs]
    if len(set(names)) != len(names):
        raise ValueError(f"device names must be unique: {names}")
    for kind in ONE_PER_TABLE:
        seen: dict[str, str] = {}
        for c in configs:
            if c.kind == kind and c.table in seen:
                # two of them would both deal (or spin) into the table's one round
                raise ValueError(f"table {c.table} has two {kind}s ({seen[c.table]!r} and {c.name!r}): "
                                 f"a table has one {kind}")
            if c.kind == kind:
                seen[c.table] = c.name
    return configs
