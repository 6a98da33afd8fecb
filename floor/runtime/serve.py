"""Serve the app through gunicorn (threads worker): `make run` and production web workers.

In the embedded default the one worker also runs the scheduler and the device readers (and the
simulators on ptys); in production those are separate processes chosen by config.
"""
from __future__ import annotations

import logging
import os
import threading
import time

from gunicorn.app.base import BaseApplication
from gunicorn.workers.base import Worker
from gunicorn.workers.gthread import ThreadWorker

from app import create_app  # the process entry point builds the app; nothing under app imports this
from config import load_config
from floor.runtime import background
from floor.runtime.lifetime import quick_handoffs

log = logging.getLogger("floor.serve")


class FloorWorker(ThreadWorker):
    """gunicorn's threads worker that lets its Socket.IO clients go when told to stop. A client's
    connection (a websocket, or a long poll renewed every few seconds) never ends by itself, so the
    graceful stop would hold the process, and the tablets on it, for its whole graceful timeout; told
    they are disconnected, the pages reconnect at once (to another web process behind the proxy, or to
    this one restarted)."""

    def init_process(self):
        # The thread that lets the clients go waits from the start, woken by a byte on a pipe: a signal
        # handler runs between two steps of the main thread, which may hold any lock then (starting a
        # thread, handing a request to the pool), so the handlers take none themselves.
        self._told_r, self._told_w = os.pipe()
        os.set_blocking(self._told_w, False)
        threading.Thread(target=self._let_clients_go, name="let-clients-go", daemon=True).start()
        super().init_process()

    def handle_exit(self, sig, frame):   # SIGTERM: the graceful stop
        super().handle_exit(sig, frame)
        self._tell_clients_to_go()

    def handle_quit(self, sig, frame):   # SIGINT, SIGQUIT: the quick stop
        self._tell_clients_to_go()
        # The base worker's quick exit, not the threads worker's: that one shuts the thread pool down
        # from the handler, taking the pool's lock, and hangs for good when the signal lands while the
        # main thread holds it, handing a request to the pool. The pool's threads are joined at exit.
        Worker.handle_quit(self, sig, frame)

    def _tell_clients_to_go(self) -> None:
        try:
            os.write(self._told_w, b"!")
        except BlockingIOError:   # told so many times that the pipe is full: the thread knows
            pass

    def _let_clients_go(self) -> None:
        os.read(self._told_r, 1)
        # It keeps going until the process ends, for a client that reconnects on a connection the
        # worker still holds open.
        socketio = getattr(getattr(self, "wsgi", None), "extensions", {}).get("socketio")
        if socketio is not None:
            _disconnect_all(socketio)


def _disconnect_all(socketio) -> None:
    eio = socketio.server.eio
    while True:
        if eio.sockets:
            log.info("stopping: disconnecting %d Socket.IO client(s)", len(eio.sockets))
            eio.disconnect()
        time.sleep(0.2)


def closes_when_it_says(wsgi_app):
    """gunicorn drops an application's ``Connection`` header and writes its own; an answer that says
    ``Connection: close`` (a 413, whose body was never read) must close the connection, so the
    response is told to (gunicorn's ``start_response`` is a method of its response)."""
    def app(environ, start_response):
        def start(status, headers, exc_info=None):
            if any(k.lower() == "connection" and v.lower() == "close" for k, v in headers):
                force_close = getattr(getattr(start_response, "__self__", None), "force_close", None)
                if force_close is not None:
                    force_close()
            return start_response(status, headers, exc_info)
        return wsgi_app(environ, start)
    return app


class FloorServer(BaseApplication):
    def __init__(self, options: dict):
        self.options = options
        super().__init__()

    def load_config(self):
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        app = create_app()
        app.wsgi_app = closes_when_it_says(app.wsgi_app)
        background.start_background(app)
        return app


def main() -> None:
    cfg = load_config()
    server = cfg["server"]
    # One worker with threads: Flask-SocketIO's threading mode keeps each client's state in its
    # worker; more workers belong behind the Redis message queue with sticky sessions.
    options = {
        "bind": f"{server['host']}:{server['port']}",
        "workers": 1,
        "worker_class": FloorWorker,
        "threads": server["threads"],
        "timeout": 0 if os.environ.get("FLOOR_DEBUG") else 60,
        "graceful_timeout": server["graceful_timeout"],
        "accesslog": "-",
        "loglevel": cfg["app"].get("log_level", "INFO").lower(),
    }
    quick_handoffs()
    print(f"Floorman on http://{server['host']}:{server['port']}/  (health: /healthz)", flush=True)
    FloorServer(options).run()


if __name__ == "__main__":
    main()
