"""The command channel to the devices: a person's command (confirm a new shoe, reset a wheel...)
goes from whichever process served the request to the process that owns the serial ports, and
comes back acknowledged, or with the reason it failed, for the person who gave it.

In the process that owns the ports (the embedded default) the command runs in-process. Elsewhere
it crosses through Redis, the message queue the floor already has: the request is published on
``<channel>.device-commands`` (PUBLISH says how many device processes heard it: none is an error
at once), the device process writes it to the port and pushes its reply to a list only this
request waits on. A request carries its deadline; a device process that gets it late drops it, so
a command the person was told had failed is never sent afterwards.
"""
from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from typing import Any, Callable

import redis
from flask import Flask

from devices.commands import execute
from floor.errors import BadInput, Conflict, Unavailable
from floor.runtime.subscriber import Subscriber

log = logging.getLogger(__name__)
TIMEOUT_S = 2.0          # a command is written in milliseconds; past this the device process is stuck
REPLY_TTL_S = 30


def request_channel(channel: str) -> str:
    return f"{channel}.device-commands"


class DeviceCommands:
    """What the web views use (``app.extensions["floor_commands"]``)."""

    def __init__(self, app: Flask, timeout: float = TIMEOUT_S) -> None:
        cfg = app.config["FLOOR"]["app"]
        self.app = app
        self.url = cfg.get("message_queue") or None
        self.channel = cfg["message_queue_channel"]
        self.timeout = timeout
        self._redis: redis.Redis | None = None
        self._lock = threading.Lock()

    def send(self, command: str, *, device: str | None = None, table: int | str | None = None,
             kind: str | None = None, code: int | None = None, by: str = "") -> list[str]:
        """Send and wait for the acknowledgement; returns the devices written to. Raises a FloorError
        the person sees: 400 a command the device does not have, 409 no such device or not
        connected, 503 no device process, no answer in time, or no message queue."""
        req: dict[str, Any] = {"command": command, "device": device, "table": None if table is None else str(table),
                               "kind": kind, "code": code, "by": by}
        runtime = self.app.extensions.get("floor_devices")
        if runtime is not None and getattr(runtime, "manager", None) is not None:
            reply = execute(runtime.manager.readers, req)
        elif self.url:
            reply = self._remote(req)
        else:
            raise Unavailable("no device process runs for this floor: the command was not sent",
                              code="no_device_process")
        if reply.get("ok"):
            return list(reply.get("sent") or [])
        # The reply's text is the device process's English: the person gets a fixed sentence per error
        # code, naming the device from the request, with that text at most as the reason.
        error, reason = reply.get("error"), reply.get("message") or "no reason given"
        if error == "bad_command":
            raise BadInput("the device refused the command {command}: {reason}", code="bad_command",
                           field="command", command=command, reason=reason)
        if error == "not_connected":
            if device:
                raise Conflict("device {device} is not connected (unplugged, or its port is away): the command "
                               "was not sent", code="device_not_connected", device=device)
            raise Conflict("the {kind} of table {table} is not connected (unplugged, or its port is away): the "
                           "command was not sent", code="device_not_connected", kind=kind, table=table)
        if error == "no_device":
            if device:
                raise Conflict("this floor's device process has no device {device}", code="no_device", device=device)
            raise Conflict("this floor's device process has no {kind} at table {table}", code="no_device",
                           kind=kind, table=table)
        raise Unavailable("the device process could not send the command {command}: {reason}",
                          code=error or "device_error", command=command, reason=reason)

    def _client(self) -> redis.Redis:
        with self._lock:
            if self._redis is None:
                self._redis = redis.Redis.from_url(self.url, socket_connect_timeout=1,
                                                   socket_timeout=self.timeout + 2)
            return self._redis

    def _remote(self, req: dict[str, Any]) -> dict[str, Any]:
        rid = uuid.uuid4().hex
        reply_key = f"{self.channel}.device-reply.{rid}"
        req.update(id=rid, reply_to=reply_key, expires=time.time() + self.timeout)
        try:
            client = self._client()
            heard = client.publish(request_channel(self.channel), json.dumps(req))
            if not heard:
                raise Unavailable("no device process is running for this floor: the command was not sent",
                                  code="no_device_process")
            got = client.blpop([reply_key], timeout=self.timeout)
        except redis.RedisError as exc:
            raise Unavailable(f"the message queue cannot be reached ({type(exc).__name__}): the command "
                              "was not sent", code="message_queue_down") from None
        if got is None:
            raise Unavailable(f"the device process did not answer within {self.timeout:.0f} s: the command "
                              "may not have been sent", code="device_process_timeout")
        return json.loads(got[1])


class CommandListener(Subscriber):
    """In the process that owns the ports: runs the commands other processes send, and replies."""

    name = "device-commands"

    def __init__(self, url: str, channel: str, readers: Callable[[], dict]) -> None:
        super().__init__(url, request_channel(channel))
        self.readers = readers

    def handle(self, client: redis.Redis, raw: bytes | str) -> None:
        try:
            req = json.loads(raw)
            reply_to = req["reply_to"]
        except (ValueError, KeyError, TypeError):
            log.warning("device commands: ignored a malformed request %r", raw[:200])
            return
        if time.time() > float(req.get("expires") or 0):
            log.warning("device commands: dropped %s for %s, arrived after its deadline",
                        req.get("command"), req.get("device") or f"table {req.get('table')}")
            return
        try:
            reply = execute(self.readers(), req)
        except Exception as exc:  # a bug here must still answer the person waiting
            log.exception("device commands: %r failed", req)
            reply = {"ok": False, "error": "device_error", "message": f"the device process failed: {exc!r}"}
        log.info("device command %s for %s by %s: %s", req.get("command"),
                 req.get("device") or f"table {req.get('table')} {req.get('kind')}", req.get("by") or "?",
                 "sent to " + ", ".join(reply["sent"]) if reply.get("ok") else reply.get("message"))
        pipe = client.pipeline()
        pipe.rpush(reply_to, json.dumps(reply))
        pipe.expire(reply_to, REPLY_TTL_S)
        pipe.execute()
