"""Commands a person gives to a device, by name, and their execution by the process that owns the
ports. Only names and plain values travel (from a web process through Redis, or within one
process); the bytes are made here, next to the readers, from the device's own configuration.

A request is a dict: ``command`` and either ``device`` (a name) or ``table`` and ``kind``, plus
``code`` for the commands that take one. The reply is ``{"ok": True, "sent": [names]}`` or
``{"ok": False, "error": code, "message": text}`` with code ``bad_command``, ``no_device`` or
``not_connected``.
"""
from __future__ import annotations

from typing import Any

from devices import shoe, wheel
from devices.config import DeviceConfig

# What a person may send, per device kind (docs/protocols.md lists the host commands).
WHEEL = {"reset": "*R", "self_test": "*F", "poll": "*X", "version": "*V", "power_on": "*P 1",
         "power_off": "*P 0", "start_clockwise": "*u 1", "start_anticlockwise": "*u 3"}
SHOE = {"confirm_game": ("GP", None), "unlock": ("LK", 1), "lock": ("LK", 2), "clear_error": ("EC", None)}
COMMANDS: dict[str, tuple[str, ...]] = {"wheel": tuple(WHEEL), "shoe": tuple(SHOE), "scanner": ()}


class CommandError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def encode(config: DeviceConfig, command: str, code: int | None = None) -> bytes:
    """The bytes of a named command for this device (CommandError when it has no such command)."""
    if config.kind == "wheel" and command in WHEEL:
        return wheel.encode_command(WHEEL[command])
    if config.kind == "shoe" and command in SHOE:
        kind, nn = SHOE[command]
        if nn is None:
            nn = 0 if command == "confirm_game" else code
        if nn is None or not 0 <= int(nn) <= 99:
            raise CommandError("bad_command", f"{command} needs a code from 0 to 99")
        return shoe.encode_command(kind, int(nn), bcc_includes_start=config.bcc_includes_start)
    known = ", ".join(COMMANDS.get(config.kind, ())) or "none"
    raise CommandError("bad_command", f"a {config.kind} has no command {command!r} (it has: {known})")


def _matches(config: DeviceConfig, req: dict[str, Any]) -> bool:
    if req.get("device"):
        return config.name == req["device"]
    return config.table == str(req.get("table")) and config.kind == req.get("kind")


def execute(readers: dict, req: dict[str, Any]) -> dict[str, Any]:
    """Write a command to the matching readers' ports; ``readers`` maps names to DeviceReaders."""
    targets = [r for r in readers.values() if _matches(r.config, req)]
    what = req.get("device") or f"the {req.get('kind')} of table {req.get('table')}"
    if not targets:
        return {"ok": False, "error": "no_device", "message": f"this floor's device process has no {what}"}
    try:
        payloads = [(r, encode(r.config, str(req.get("command")), req.get("code"))) for r in targets]
    except CommandError as exc:
        return {"ok": False, "error": exc.code, "message": exc.message}
    sent = [r.name for r, data in payloads if r.send(data)]
    if not sent:
        return {"ok": False, "error": "not_connected",
                "message": f"{what} is not connected (unplugged, or its port is away): the command was not sent"}
    return {"ok": True, "sent": sent}
