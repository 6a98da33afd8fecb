"""Two server processes share a Redis message queue: a change committed through one reaches a
Socket.IO client connected to the other."""
from __future__ import annotations

import subprocess
import threading
import uuid

import pytest
import redis
import requests
import socketio

from floor import alerts
from floor.actors import Actor
from tests import processes
from tests.servers import Server

# starts web and device processes: left out of `make test-fast`, run by `make test`
pytestmark = pytest.mark.slow

REDIS = "redis://127.0.0.1:6379/0"


@pytest.fixture
def redis_up():
    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=1).ping()
    except redis.RedisError:
        pytest.skip("Redis is not running on 127.0.0.1:6379 (.ci/run starts it)")


def test_event_committed_in_one_process_reaches_a_client_of_the_other(redis_up, app, session, db_url, tmp_path):
    alert_id = alerts.raise_alert(session, Actor.system(), "device_lost", "wheel 12 lost", table_id=None).id
    session.commit()
    session.close()   # on SQLite an open transaction would hold the write lock the servers need
    channel = f"floorman-test-{uuid.uuid4().hex}"
    a = Server(db_url, tmp_path / "a", FLOOR_APP_MESSAGE_QUEUE=REDIS, FLOOR_APP_MESSAGE_QUEUE_CHANNEL=channel)
    b = Server(db_url, tmp_path / "b", FLOOR_APP_MESSAGE_QUEUE=REDIS, FLOOR_APP_MESSAGE_QUEUE_CHANNEL=channel)
    try:
        a.wait(), b.wait()
        token = app.test_cli_runner().invoke(args=["floor", "token", "create", "pitboss"]).output.strip()
        got = threading.Event()
        received = []
        client = socketio.Client()

        @client.on("alert.acknowledged", namespace="/live")
        def on_ack(data):
            received.append(data)
            got.set()

        client.connect(b.url, namespaces=["/live"], auth={"token": token}, transports=["websocket"], wait_timeout=60)
        try:
            resp = requests.post(f"{a.url}/api/alerts/{alert_id}/acknowledge",
                                 headers={"Authorization": f"Bearer {token}"}, timeout=60)
            assert resp.status_code == 200, resp.text
            assert got.wait(60), "the event did not cross from process A to the client of process B"
            assert received == [{"id": alert_id}]
        finally:
            client.disconnect()
    finally:
        a.stop()
        b.stop()


def test_the_device_process_feeds_clients_of_a_web_process_through_the_queue(redis_up, app, db_url, tmp_path):
    """Production shape: one process owns the serial port, the web process serves the clients."""
    from devices.simulate.base import PtyEnd
    from devices.wheel import encode_number, encode_status

    token = app.test_cli_runner().invoke(args=["floor", "token", "create", "pitboss"]).output.strip()
    channel = f"floorman-test-{uuid.uuid4().hex}"
    end = PtyEnd(link=str(tmp_path / "usb-wheel-12"))
    cfg = tmp_path / "devices.toml"
    cfg.write_text(f'[[devices]]\nname = "wheel-12"\ntable = 12\nkind = "wheel"\nport = "{end.path}"\n')
    web = Server(db_url, tmp_path / "web", FLOOR_APP_MESSAGE_QUEUE=REDIS, FLOOR_APP_MESSAGE_QUEUE_CHANNEL=channel)
    env = {**web.env, "FLOOR_CONFIG": str(cfg), "FLOOR_APP_RUN_DEVICES": "true"}
    devices = processes.start("flask", ["--app", "app:create_app", "floor", "devices"], env, tmp_path / "devices.log")
    client = socketio.Client()
    try:
        web.wait()
        got = threading.Event()
        numbers = []

        @client.on("device.wheel.number", namespace="/live")
        def on_number(data):
            numbers.append(data)
            got.set()

        client.connect(web.url, namespaces=["/live"], auth={"token": token}, transports=["websocket"], wait_timeout=60)
        assert client.call("join_table", {"table_id": 5}, namespace="/live", timeout=60)["ok"]
        # Keep the wheel talking until the device process has opened the port and the number crosses.
        import time
        deadline = time.monotonic() + 60   # a hang guard: the device process may start slowly
        while not got.is_set() and time.monotonic() < deadline:
            end.write(encode_status(5, 4, 17) + encode_number(17))
            got.wait(0.5)
        assert got.is_set(), (tmp_path / "devices.log").read_text()[-2000:]
        assert numbers[0] == {"table_id": 5, "device": "wheel-12", "number": 17}
    finally:
        if client.connected:
            client.disconnect()
        devices.terminate()
        try:
            devices.wait(60)   # a hang guard: on a loaded machine the stop (readers, queue, device lock) is slow
        except subprocess.TimeoutExpired:
            devices.kill()
            raise AssertionError("the device process did not stop on SIGTERM: "
                                 + (tmp_path / "devices.log").read_text()[-3000:]) from None
        finally:
            web.stop()
            end.close()
