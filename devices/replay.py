"""Replay a stored raw stream through a fresh decoder.

The reader hands every chunk to the sink as received, with its arrival time, and an empty chunk
whenever the port is (re)opened. Feeding that stream to a fresh decoder gives the very events the
reader produced live: decoders are pure, and the only time they see (a double-read window, for
the decoders that say they are ``timed``) is the stored arrival time.
"""
from __future__ import annotations

from datetime import datetime
from typing import Iterable

from devices.config import DeviceConfig
from devices.protocols import new_decoder

Stream = Iterable[tuple[datetime, bytes]]


def feed(decoder, data: bytes, arrived_at: datetime) -> list:
    """One chunk into a decoder, the way the reader does it."""
    if not data:
        decoder.reconnected()
        return []
    if getattr(decoder, "timed", False):   # a decoder that times its lines (a double-read window)
        return decoder.feed(data, arrived_at.timestamp())
    return decoder.feed(data)


def replay(config: DeviceConfig, stream: Stream) -> list:
    """The events a fresh decoder gives for ``stream`` (a list of (arrival time, bytes))."""
    decoder = new_decoder(config)
    events: list = []
    for at, data in stream:
        events.extend(feed(decoder, data, at))
    return events
