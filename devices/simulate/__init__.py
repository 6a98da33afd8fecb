"""Simulated devices speaking the real protocols on a pty (or any pyserial URL).

    python -m devices.simulate wheel|shoe|scanner --port pty|URL [--link PATH] [--seed N]
                               [--speed X] [--fault NAME ...] [--fault-every N]
"""
from devices.simulate.base import FAULTS, PtyEnd, Simulator, UrlEnd
from devices.simulate.scanner import ScannerSimulator
from devices.simulate.shoe import ShoeSimulator
from devices.simulate.wheel import WheelSimulator

SIMULATORS = {"wheel": WheelSimulator, "shoe": ShoeSimulator, "scanner": ScannerSimulator}

__all__ = ["FAULTS", "PtyEnd", "UrlEnd", "Simulator", "WheelSimulator", "ShoeSimulator",
           "ScannerSimulator", "SIMULATORS", "open_end"]


def open_end(port: str = "pty", link: str | None = None, baudrate: int = 9600):
    """``"pty"``: a new pseudo-terminal (with an optional symlink); anything else: a pyserial URL."""
    return PtyEnd(link) if port == "pty" else UrlEnd(port, baudrate)
