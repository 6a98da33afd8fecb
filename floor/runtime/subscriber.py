"""A thread that listens on one Redis channel for the life of the process and survives Redis going away.

The device-command listener and the scheduler's wake-up listener are both this: subscribe, say "ready"
once subscribed, hand each message on, and on a lost connection try again every quarter of a second (a
refused connection costs next to nothing), so they are back within a moment of Redis.
"""
from __future__ import annotations

import logging
import threading

import redis

log = logging.getLogger(__name__)


class Subscriber:
    name = "redis-subscriber"

    def __init__(self, url: str, channel: str) -> None:
        self.url, self.channel = url, channel
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)

    def start(self, wait: float = 5.0):
        self._thread.start()
        self._ready.wait(wait)   # subscribed before the process says it is up
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(3)

    def subscribed(self) -> None:
        """After each (re)subscription: catch up on what was sent while nobody listened."""

    def handle(self, client: redis.Redis, data: bytes | str) -> None:
        raise NotImplementedError

    def unavailable(self, exc: Exception) -> None:
        log.warning("%s: Redis unavailable (%s); retrying", self.name, exc)

    retry_s = 0.25

    def _run(self) -> None:
        down = False   # said once per outage, not four times a second
        while not self._stop.is_set():
            try:
                client = redis.Redis.from_url(self.url, socket_connect_timeout=2, health_check_interval=30)
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(self.channel)
                pubsub.get_message(timeout=1.0)   # the subscription's confirmation
                self._ready.set()
                down = False
                self.subscribed()
                while not self._stop.is_set():
                    msg = pubsub.get_message(timeout=1.0)
                    if msg is not None and msg.get("type") == "message":
                        self.handle(client, msg["data"])
                pubsub.close()
                client.close()
            except (redis.RedisError, OSError) as exc:
                if not down:
                    self.unavailable(exc)
                down = True
                self._stop.wait(self.retry_s)
