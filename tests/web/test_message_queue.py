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
                                 json={}, headers={"Authorization": f"Bearer {token}"}, timeout=60)
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


class PrivateRedis:
    """A redis-server of the test's own on a port of its own, so the test can stop and start it."""

    def __init__(self, tmp_path) -> None:
        import shutil

        from tests.servers import free_port
        self.exe = shutil.which("redis-server")
        if self.exe is None:
            pytest.skip("redis-server is not installed")
        self.port, self.dir, self.proc = free_port(), tmp_path, None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> "PrivateRedis":
        self.proc = subprocess.Popen([self.exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                      "--appendonly", "no", "--dir", str(self.dir)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url, socket_connect_timeout=1)
        wait_for(lambda: _answers(client), "the private Redis to answer")
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(30)


def _answers(client) -> bool:
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False


def wait_for(pred, what: str, timeout: float = 60.0):
    import time
    deadline = time.monotonic() + timeout   # a hang guard only
    while not (value := pred()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)
    return value


def test_the_live_feed_resumes_within_a_second_of_redis_coming_back(app, db_url, tmp_path):
    """Redis away for 8 s: /healthz says so while it is away, and once Redis answers again the web
    process is listening again within a second, so the next update reaches a real Socket.IO client."""
    import time

    from socketio import RedisManager
    token = app.test_cli_runner().invoke(args=["floor", "token", "create", "pitboss"]).output.strip()
    queue = PrivateRedis(tmp_path).start()
    channel = f"floorman-test-{uuid.uuid4().hex}"
    web = Server(db_url, tmp_path / "web", FLOOR_APP_MESSAGE_QUEUE=queue.url, FLOOR_APP_MESSAGE_QUEUE_CHANNEL=channel)
    client = socketio.Client()
    received: list[dict] = []
    try:
        web.wait()
        assert requests.get(web.url + "/healthz", timeout=30).json()["message_queue"] == {"ok": True}
        client.on("alert.acknowledged", lambda data: received.append(data), namespace="/live")
        client.connect(web.url, namespaces=["/live"], auth={"token": token}, transports=["websocket"], wait_timeout=60)

        def delivered(n: int) -> bool:
            # what another process (the device process, an API process) does: publish on the queue
            try:
                RedisManager(queue.url, channel=channel, write_only=True).emit(
                    "alert.acknowledged", {"id": n}, namespace="/live", room="floor")
            except Exception:
                pass
            time.sleep(0.05)
            return {"id": n} in received

        wait_for(lambda: delivered(1), "the first update through the queue")
        queue.stop()
        health = wait_for(lambda: (b := requests.get(web.url + "/healthz", timeout=30).json())
                          ["message_queue"]["ok"] is False and b, "/healthz to see Redis gone")
        assert health["status"] == "degraded" and health["message_queue"]["error"]
        time.sleep(8)   # the outage itself (the listener's back-off grew through it before)
        queue.start()
        back = time.monotonic()
        listening = redis.Redis.from_url(queue.url)
        wait_for(lambda: listening.pubsub_numsub(channel)[0][1] >= 1, "the web process to listen again")
        resumed = time.monotonic() - back
        print(f"live_feed_resumed_after_redis_s: {resumed:.3f}")
        assert resumed < 1.0, f"the web process listened again {resumed:.1f} s after Redis was back"
        wait_for(lambda: delivered(2), "an update after Redis came back")
        assert requests.get(web.url + "/healthz", timeout=30).json()["message_queue"] == {"ok": True}
    finally:
        if client.connected:
            client.disconnect()
        web.stop()
        queue.stop()
