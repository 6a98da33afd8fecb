"""What differs between the kinds of device on a line: the decoder, what counts as a heartbeat,
what the device reports as a fault, and when its silence matters. Line concerns only: the host
rules of each game live in the engines of ``floor.rounds.engines``."""
from __future__ import annotations

from devices.config import DeviceConfig
from devices.events import FrameError
from devices.scanner import CardRead, ScannerDecoder
from devices.shoe import CardDealt, CoupStart, Reply, ShoeDecoder, ShoeError, ShoeErrorCleared, ShoeResult, Standby
from devices.wheel import FLAG_FAULT, SelfTest, WheelDecoder, WheelStatus, WinningNumber

# the wheel's own states while a spin is under way (place bets, spinning, no more bets, no ball):
# its silence then means a lost line mid-round; idle between rounds it may be quiet
WHEEL_MID_SPIN = (2, 3, 4, 7)


def new_decoder(config: DeviceConfig):
    if config.kind == "wheel":
        return WheelDecoder()
    if config.kind == "shoe":
        return ShoeDecoder(bcc_includes_start=config.bcc_includes_start)
    return ScannerDecoder(config.prefix, config.suffix, duplicate_window_s=config.duplicate_window_s)


def scan(kind: str, events: list) -> tuple[str | None, bool, bool | None]:
    """(device fault text: "" cleared, None no news; a heartbeat arrived; whether silence now
    matters: None no news)."""
    fault, beat, watch = None, False, None
    for e in events:
        if isinstance(e, WheelStatus):
            beat = True
            watch = e.state in WHEEL_MID_SPIN
            fault = "sensor/motor/encoder fault (flag 4)" if e.flags & FLAG_FAULT else ""
        elif isinstance(e, SelfTest) and e.code not in (0, "BUSY"):
            fault = f"self test failed: code {e.code}"
        elif isinstance(e, ShoeError):
            fault = f"shoe error {e.code}"
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
