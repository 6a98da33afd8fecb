"""The message queue the live feed travels on between processes (Redis), with a listener that is back
within a moment of Redis.

python-socketio's own Redis listener retries a lost connection after 1, 2, 4, 8 ... s: Redis away for
8 s left every tablet silent for 15 s. Here the listener tries again every quarter of a second (a refused
connection costs Redis and the process next to nothing), so the feed resumes as soon as Redis answers.
What was published while Redis was away is lost (Redis keeps nothing that matters): the pages read the
state again when they reconnect or on their next update.
"""
from __future__ import annotations

import time

import socketio

RETRY_S = 0.25
# A connection that dies without a word (a host gone, not a refused port) is noticed by the
# health check instead of waiting on a silent socket.
REDIS_OPTIONS = {"socket_connect_timeout": 1, "health_check_interval": 5}


class LiveQueue(socketio.RedisManager):
    name = "floor-redis"

    def __init__(self, url: str, channel: str, write_only: bool = False) -> None:
        super().__init__(url, channel=channel, write_only=write_only, redis_options=dict(REDIS_OPTIONS))

    def _redis_listen_with_retries(self):
        subscribed = False
        while True:
            try:
                if not subscribed:
                    self._redis_connect()
                    self.pubsub.subscribe(self.channel)
                    subscribed = True
                yield from self.pubsub.listen()
            except Exception as exc:   # any failure of the connection: the same answer, try again soon
                if subscribed:
                    self._get_logger().warning("live feed: Redis unavailable (%s); retrying every %s s",
                                               exc, RETRY_S)
                subscribed = False
                time.sleep(RETRY_S)
