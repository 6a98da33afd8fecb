"""Which decoder and which host rules a kind of device gets."""
from __future__ import annotations

from devices.config import DeviceConfig
from devices.scanner import ScannerDecoder
from devices.shoe import ShoeDecoder
from devices.shoe_rules import ShoeRules
from devices.wheel import WheelDecoder
from devices.wheel_rules import WheelRules


def new_decoder(config: DeviceConfig):
    if config.kind == "wheel":
        return WheelDecoder()
    if config.kind == "shoe":
        return ShoeDecoder(bcc_includes_start=config.bcc_includes_start)
    return ScannerDecoder(config.prefix, config.suffix, duplicate_window_s=config.duplicate_window_s)


def new_rules(config: DeviceConfig):
    """Pure host rules fed by the reader, or None (the scanner's cards need the game's decisions,
    so seat assignment lives in the floor)."""
    if config.kind == "wheel":
        return WheelRules(heartbeat_s=config.heartbeat_s or 2.0)
    if config.kind == "shoe":
        return ShoeRules(decks=int(config.options.get("decks", 8)))
    return None
