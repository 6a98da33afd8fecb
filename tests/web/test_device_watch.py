"""Who has the live device page open, as the processes of a production floor share it through Redis:
a web process notes a page, the device process (another client of the same record) sees it, until the
page leaves or its note runs out."""
from __future__ import annotations

import uuid

import pytest
import redis

from floor.web.device_watch import LocalWatchers, RedisWatchers, watchers_for

REDIS = "redis://127.0.0.1:6379/0"


@pytest.fixture
def channel():
    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=1).ping()
    except redis.RedisError:
        pytest.skip("needs Redis on 127.0.0.1:6379 (.ci/run starts it)")
    name = f"floorman-test-{uuid.uuid4().hex[:12]}"
    yield name
    redis.Redis.from_url(REDIS).delete(f"{name}.device-watchers")


def test_a_page_noted_by_one_web_process_is_seen_by_the_device_process(channel):
    web_a, web_b, devices = (RedisWatchers(REDIS, channel) for _ in range(3))
    assert not devices.any()
    web_a.add("page-1")
    web_b.add("page-2")
    assert devices.any()
    web_a.remove("page-1")
    assert devices.any()
    web_b.remove("page-2")
    assert not devices.any()
    web_a.add("page-3", ttl=-1)       # a page whose note ran out (its tablet went away without a word)
    assert not devices.any()


def test_the_record_is_in_memory_without_a_message_queue_and_in_redis_with_one(channel):
    assert isinstance(watchers_for({"app": {"message_queue": "", "message_queue_channel": channel}}), LocalWatchers)
    assert isinstance(watchers_for({"app": {"message_queue": REDIS, "message_queue_channel": channel}}), RedisWatchers)
    local = LocalWatchers()
    local.add("page")
    assert local.any()
    local.add("page", ttl=-1)         # its note ran out
    assert not local.any()
