"""Simulated devices speaking the real protocols on a pty (or any pyserial URL).

    python -m devices.simulate wheel|shoe|scanner --port pty|URL [--link PATH] [--seed N]
                               [--speed X] [--fault NAME ...] [--fault-every N]
                               [--protocol wheel-number-v1 [--spin-s S] [--copies N]]
"""
from devices.simulate.base import FAULTS, PtyEnd, Simulator, UrlEnd
from devices.simulate.scanner import ScannerSimulator
from devices.simulate.shoe import ShoeSimulator
from devices.simulate.wheel import WheelSimulator
from devices.simulate.wheel_number import NumberWheelSimulator

SIMULATORS = {"wheel": WheelSimulator, "shoe": ShoeSimulator, "scanner": ScannerSimulator}
# the other line formats a kind of device may speak (its configuration's ``protocol``)
PROTOCOL_SIMULATORS = {"wheel-number-v1": NumberWheelSimulator}

__all__ = ["FAULTS", "PtyEnd", "UrlEnd", "Simulator", "WheelSimulator", "ShoeSimulator",
           "ScannerSimulator", "NumberWheelSimulator", "SIMULATORS", "PROTOCOL_SIMULATORS", "open_end"]


def open_end(port: str = "pty", link: str | None = None, baudrate: int = 9600):
    """``"pty"``: a new pseudo-terminal (with an optional symlink); anything else: a pyserial URL."""
    return PtyEnd(link) if port == "pty" else UrlEnd(port, baudrate)
