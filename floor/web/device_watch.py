"""Who has the live device page open: the device process publishes a device's bytes only then.

A page that joins the devices' room is noted here until ``TTL_S`` from now (the page says so again every
``RENEW_S`` while it is open); leaving the room or disconnecting removes it at once. In one process (the
embedded default) the note is kept in memory; with a message queue it is a Redis sorted set the device
process reads (member: the Socket.IO session, score: until when), so every web process can note its
own pages and the device process asks one question for all of them.
"""
from __future__ import annotations

import threading
import time

import redis

TTL_S = 30.0
RENEW_S = 10.0


class LocalWatchers:
    def __init__(self) -> None:
        self._until: dict[str, float] = {}
        self._lock = threading.Lock()

    def add(self, sid: str, ttl: float = TTL_S) -> None:
        with self._lock:
            self._until[sid] = time.time() + ttl

    def remove(self, sid: str) -> None:
        with self._lock:
            self._until.pop(sid, None)

    def any(self) -> bool:
        now = time.time()
        with self._lock:
            for sid in [s for s, until in self._until.items() if until <= now]:
                del self._until[sid]
            return bool(self._until)


class RedisWatchers:
    def __init__(self, url: str, channel: str) -> None:
        self.key = f"{channel}.device-watchers"
        self.client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=2)

    def add(self, sid: str, ttl: float = TTL_S) -> None:
        self.client.zadd(self.key, {sid: time.time() + ttl})

    def remove(self, sid: str) -> None:
        self.client.zrem(self.key, sid)

    def any(self) -> bool:
        now = time.time()
        pipe = self.client.pipeline()
        pipe.zremrangebyscore(self.key, "-inf", now)
        pipe.zcard(self.key)
        return bool(pipe.execute()[1])


def watchers_for(cfg: dict):
    """The record this floor's processes share: in memory without a message queue, else in Redis."""
    url = cfg["app"].get("message_queue") or None
    return RedisWatchers(url, cfg["app"]["message_queue_channel"]) if url else LocalWatchers()
