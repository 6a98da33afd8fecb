"""What differs between the kinds of device on a line: the decoder, what counts as a heartbeat,
what the device reports as a fault, and when its silence matters. Line concerns only: the host
rules of each game live in the engines of ``floor.rounds.engines``."""
from __future__ import annotations

from devices.config import DeviceConfig
from devices.events import FrameError
from devices.scanner import ScannerDecoder
from devices.shoe import Reply, ShoeDecoder, ShoeError, ShoeErrorCleared
from devices.wheel import FLAG_FAULT, SelfTest, WheelDecoder, WheelStatus

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
