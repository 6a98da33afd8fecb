"""device_frame_to_redis_p99_ms_page_closed / _page_open: from the last byte of a winning-number line
written to the wheel's pty to the number's live event published on the floor's Redis channel by the
device process (its whole part of the way), with nobody on the live device page, then with the page
open (a real Socket.IO client of a technician in the devices' room, receiving every byte, event and
health the device process now publishes beside the line's own feed). The same for the device process's
CPU per spin. Production shape: PostgreSQL, Redis, two web processes, the scheduler and the device
process."""
from __future__ import annotations

import json
import os
import threading
import time

import pytest
import redis
import socketio
from sqlalchemy.orm import Session

from devices.simulate.base import PtyEnd
from devices.wheel import encode_number, encode_status
from floor import staff as staff_svc
from floor.actors import Actor
from tests.benchmarks.test_bench_devices import CpuMeter, _clock_first, _pct
from tests.production.shape import REDIS, Floor, production_database

SPINS = int(os.environ.get("BENCH_PAGE_SPINS", 300))
GAP = 0.05


class NumberTap:
    """When each wheel number, and each batch of the device page, was published on the floor's channel."""

    def __init__(self, channel: str) -> None:
        self.numbers: list[float] = []
        self.lines = 0
        self.got = threading.Event()
        self.pubsub = redis.Redis.from_url(REDIS).pubsub(ignore_subscribe_messages=True)
        self.pubsub.subscribe(**{channel: self._on})
        self.thread = self.pubsub.run_in_thread(sleep_time=0.01, daemon=True)

    def _on(self, message) -> None:
        at = time.monotonic()
        try:
            data = json.loads(message["data"])
        except Exception:
            return
        if not isinstance(data, dict):
            return
        if data.get("event") == "device.wheel.number":
            self.numbers.append(at)
            self.got.set()
        elif data.get("event") == "device.line":
            self.lines += 1

    def stop(self) -> None:
        self.thread.stop()


def _spins(end: PtyEnd, tap: NumberTap, first: int) -> list[float]:
    """Each spin's lines as a wheel says them; returns the frame -> Redis time of each number, in ms."""
    out = []
    for i in range(first, first + SPINS):
        spin, number = i % 256 + 1, i % 37
        end.write(encode_status(2, spin, None) + encode_status(4, spin, None))
        time.sleep(GAP)
        tap.got.clear()
        seen = len(tap.numbers)
        line = encode_number(number)
        end.write(line[:-1])
        t0 = time.monotonic()
        end.write(line[-1:])             # the clock starts at the last byte of the line
        if not tap.got.wait(10):
            raise AssertionError(f"spin {i}: no number on Redis within 10 s")
        out.append((tap.numbers[seen] - t0) * 1000)
        end.write(encode_status(5, spin, number))
        time.sleep(GAP)
    return out


@pytest.fixture
def production_db(request):
    with production_database(request, f"fm_bench_device_page_{os.getpid()}") as url:
        yield url


@pytest.mark.timeout(1200)
def test_device_frame_to_redis_with_the_live_device_page_open_and_closed(production_db, tmp_path):
    end = PtyEnd(link=str(tmp_path / "usb-wheel-12"))
    floor = Floor(production_db, tmp_path, REDIS, devices={"wheel-12": end.path},
                  FLOOR_HOUSE_BETTING_SECONDS="30")
    page = None
    try:
        floor.start()
        with Session(floor.engine) as s:
            token = staff_svc.create_token(s, Actor.system("bench"), "tech", "bench")
            s.commit()
        with _clock_first():
            tap = NumberTap(floor.channel)
        meter = CpuMeter({"devices": [floor.devices.proc.pid]})
        cpu = [meter.snapshot()]
        closed = _spins(end, tap, 0)
        cpu.append(meter.snapshot())
        assert tap.lines == 0, "the device process published the device page's lines with nobody on it"

        received = {"batches": 0, "items": 0}
        hello = threading.Event()
        page = socketio.Client(reconnection=False)

        @page.on("device.line", namespace="/live")
        def on_line(data):
            received["batches"] += 1
            received["items"] += len(data["items"])
            hello.set()
        page.connect(floor.web_a.url, namespaces=["/live"], auth={"token": token}, transports=["websocket"],
                     wait_timeout=20)
        assert page.call("join_devices", {}, namespace="/live", timeout=20) == {"ok": True, "room": "devices"}
        assert hello.wait(30), "the device process never published to the open page"
        cpu.append(meter.snapshot())
        opened = _spins(end, tap, SPINS)
        cpu.append(meter.snapshot())
        tap.stop()
    finally:
        if page is not None and page.connected:
            page.disconnect()
        floor.stop()
        end.close()
    assert received["items"] >= SPINS * 3, received    # the page got the line: every spin's bytes and events
    spent_closed, spent_open = meter.spent(cpu[0], cpu[1]), meter.spent(cpu[2], cpu[3])
    print(f"\ndevice_frame_to_redis_p50_ms_page_closed: {_pct(closed, 50):.2f}")
    print(f"device_frame_to_redis_p99_ms_page_closed: {_pct(closed, 99):.2f}")
    print(f"device_frame_to_redis_p50_ms_page_open: {_pct(opened, 50):.2f}   ({received['items']} items in "
          f"{received['batches']} batches reached the page)")
    print(f"device_frame_to_redis_p99_ms_page_open: {_pct(opened, 99):.2f}")
    print(f"device_cpu_ms_per_spin_page_closed: {spent_closed['devices'] * 1000 / SPINS:.2f}")
    print(f"device_cpu_ms_per_spin_page_open: {spent_open['devices'] * 1000 / SPINS:.2f}")


def test_what_the_tap_costs_the_readers_thread():
    """The tap's part on a reader's thread, per chunk: nobody watching (a flag read), and watching (an
    append to the bounded buffer, emptied meanwhile by the tap's own thread as in the device process)."""
    from datetime import datetime, timezone

    from devices.tap import LineTap
    n, data, at = 200_000, b"*X;4;011;23;0;165;1\r\n", datetime.now(timezone.utc)
    emitted = []
    tap = LineTap(lambda ev, payload, room: emitted.append(len(payload["items"])), lambda: False)
    t0 = time.perf_counter()
    for _ in range(n):
        tap.chunk("wheel-12", data, at)
    unwatched = (time.perf_counter() - t0) / n * 1e9
    tap = LineTap(lambda ev, payload, room: emitted.append(len(payload["items"])), lambda: True,
                  interval=0.01, watch_every=0.01).start()
    try:
        while not tap.watching:
            time.sleep(0.01)
        t0 = time.perf_counter()
        for _ in range(n):
            tap.chunk("wheel-12", data, at)
        watched = (time.perf_counter() - t0) / n * 1e9
    finally:
        tap.stop()
    print(f"\ndevice_tap_put_ns_page_closed: {unwatched:.0f}")
    print(f"device_tap_put_ns_page_open: {watched:.0f}   ({tap.dropped_total} of {n} dropped at the buffer's bound, "
          f"chunks sent back to back with no pause)")
