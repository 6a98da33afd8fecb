"""What differs between the kinds of device on a line: the decoder, what counts as a heartbeat,
what the device reports as a fault, and when its silence matters. Line concerns only: the host
rules of each game live in the engines of ``floor.rounds.engines``.

A device's configuration names its line format (``protocol``): one of the names in ``PROTOCOLS``
or the dotted path of a decoder class (``package.module.ClassName``) that honours the decoder
contract (docs/protocols.md, "The decoder contract"). ``resolve`` checks the class when the
configuration is loaded, so a wrong name or a class that cannot decode is refused before any port
is opened, never at the first byte.
"""
from __future__ import annotations

import importlib
import inspect

from devices.events import FrameError
from devices.scanner import CardRead, ScannerDecoder
from devices.shoe import CardDealt, CoupStart, Reply, ShoeDecoder, ShoeError, ShoeErrorCleared, ShoeResult, Standby
from devices.wheel import FLAG_FAULT, SelfTest, WheelDecoder, WheelStatus, WinningNumber
from floor.errors import Msg

# The line formats the floor knows by name (a dotted path names any other decoder class).
PROTOCOLS = {
    "wheel-v1": "devices.wheel.WheelDecoder",                      # SS2-style controller: states and numbers
    "wheel-number-v1": "devices.wheel_number.NumberWheelDecoder",  # one line per spin: number and direction
    "shoe-v1": "devices.shoe.ShoeDecoder",                         # Angel Eye-style smart shoe
    "scanner-v1": "devices.scanner.ScannerDecoder",                # serial barcode card reader
}
DEFAULT_PROTOCOL = {"wheel": "wheel-v1", "shoe": "shoe-v1", "scanner": "scanner-v1"}


class ProtocolError(ValueError):
    """A device's ``protocol`` names no decoder, or a class that does not honour the contract."""


def resolve(protocol: str, kind: str, device: str = "?") -> type:
    """The decoder class ``protocol`` names for a device of ``kind``: a name of ``PROTOCOLS`` or a
    dotted path ``package.module.ClassName``. Raises ``ProtocolError`` saying what is wrong."""
    where = f"device {device!r}: protocol {protocol!r}"
    path = PROTOCOLS.get(protocol, protocol)
    module_name, _, name = path.rpartition(".")
    if not module_name or not name or any(not part.isidentifier() for part in path.split(".")):
        raise ProtocolError(f"{where} is neither a known protocol ({', '.join(sorted(PROTOCOLS))}) "
                            f"nor a dotted path to a decoder class (package.module.ClassName)")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ProtocolError(f"{where}: cannot import {module_name!r} ({exc})") from None
    cls = getattr(module, name, None)
    if not inspect.isclass(cls):
        raise ProtocolError(f"{where}: {module_name!r} has no class {name!r}")
    declared = getattr(cls, "kind", None)
    if declared not in DEFAULT_PROTOCOL:
        raise ProtocolError(f"{where}: {path} does not say which kind of device it decodes "
                            f"(a class attribute kind = \"wheel\", \"shoe\" or \"scanner\")")
    if declared != kind:
        raise ProtocolError(f"{where}: {path} decodes a {declared}, and this device is a {kind}")
    for method in ("feed", "reconnected"):
        if not callable(getattr(cls, method, None)):
            raise ProtocolError(f"{where}: {path} has no {method}() method (see the decoder contract)")
    return cls


def build(cls: type, config, device: str = "?"):
    """A decoder of ``cls`` for ``config``: ``cls.from_config(config)`` when the class has it, else
    ``cls()``. Checked like ``resolve``: the decoder must count its ``frames`` and ``errors``."""
    where = f"device {device!r}: protocol {getattr(config, 'protocol', cls.__name__)!r}"
    try:
        decoder = cls.from_config(config) if hasattr(cls, "from_config") else cls()
    except Exception as exc:
        raise ProtocolError(f"{where}: the decoder could not be built ({exc!r})") from None
    for counter in ("frames", "errors"):
        if not isinstance(getattr(decoder, counter, None), int):
            raise ProtocolError(f"{where}: the decoder does not count its {counter} (an int attribute)")
    return decoder


def new_decoder(config):
    """A fresh decoder for a device's configuration (``devices.config.DeviceConfig``)."""
    cls = config.decoder or resolve(config.protocol or DEFAULT_PROTOCOL[config.kind], config.kind, config.name)
    return build(cls, config, config.name)


def sends_heartbeat(cls: type) -> bool:
    """Whether the devices this decoder reads send a heartbeat the reader may watch for."""
    return bool(getattr(cls, "heartbeat", False))


# the wheel's own states while a spin is under way (place bets, spinning, no more bets, no ball):
# its silence then means a lost line mid-round; idle between rounds it may be quiet
WHEEL_MID_SPIN = (2, 3, 4, 7)


def scan(kind: str, events: list) -> tuple[str | None, bool, bool | None]:
    """(device fault text: "" cleared, None no news; a heartbeat arrived; whether silence now
    matters: None no news)."""
    fault, beat, watch = None, False, None
    for e in events:
        if isinstance(e, WheelStatus):
            beat = True
            watch = e.state in WHEEL_MID_SPIN
            # sentences the fault alert says in the reader's language (its template and values)
            fault = Msg("sensor/motor/encoder fault (flag 4)") if e.flags & FLAG_FAULT else ""
        elif isinstance(e, SelfTest) and e.code not in (0, "BUSY"):
            fault = Msg("self test failed: code {code}", code=e.code)
        elif isinstance(e, ShoeError):
            fault = Msg("shoe error {code}", code=e.code)
        elif isinstance(e, ShoeErrorCleared):
            fault = ""
        elif kind != "wheel" and not isinstance(e, (FrameError, Reply)):
            beat = True
    return fault, beat, watch


# the wheel's states that say betting is over for the spin: no more bets, the number, no ball
WHEEL_LOCKED = {4: "no_more_bets", 5: "result", 7: "no_more_bets"}
WHEEL_OPEN = (1, 2)   # before game, place bets: the next lock is a new one


def line_locks(events: list, locked: bool) -> tuple[list[str], bool]:
    """What closed betting in these events: the lock of the chunk, when the line closes betting in it
    after it had opened again (``locked``: whether it was closed before these events; the second
    value says whether it is closed after them). A lock the same chunk opens again is left out: the
    chunk's one arrival time would date the next round's lock too. A scanner knows no round, so each of its cards is a lock (one a
    chunk is enough). Line concerns only: a lock is what the device said, whatever the round has
    heard so far."""
    out: list[str] = []
    for e in events:
        what = None
        if isinstance(e, WheelStatus):
            if e.state in WHEEL_OPEN:
                locked, out = False, []
            what = WHEEL_LOCKED.get(e.state)
        elif isinstance(e, WinningNumber):
            if e.alone:   # a wheel with no states: each number closes betting, and nothing opens it again
                if "result" not in out:
                    out.append("result")
                continue
            what = "result"
        elif isinstance(e, (ShoeResult, Standby)):
            locked, out = False, []
        elif isinstance(e, CoupStart):
            what = "coup_start"
        elif isinstance(e, CardDealt):
            what = "card"
        elif isinstance(e, CardRead):
            if "card" not in out:
                out.append("card")
            continue
        if what is not None and not locked:
            out.append(what)
            locked = True
    return out, locked
