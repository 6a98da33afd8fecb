"""Who does something: a person at a terminal, a device, or the system itself."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Actor:
    name: str
    role: str
    terminal: str
    staff_id: int | None = None
    table_id: int | None = None   # a dealer terminal is bound to one table

    @classmethod
    def system(cls, what: str = "scheduler") -> "Actor":
        return cls(name="system", role="system", terminal=what)

    @classmethod
    def device(cls, device_name: str, table_id: int | None = None) -> "Actor":
        return cls(name=device_name, role="device", terminal=device_name, table_id=table_id)
