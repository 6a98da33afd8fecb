"""Serve the app through gunicorn (threads worker): `make run` and production web workers.

In the embedded default the one worker also runs the scheduler and the device readers (and the
simulators on ptys); in production those are separate processes chosen by config.
"""
from __future__ import annotations

import logging
import os

from gunicorn.app.base import BaseApplication

from app import create_app  # the process entry point builds the app; nothing under app imports this
from config import load_config
from floor.runtime import background
from floor.runtime.lifetime import quick_handoffs

log = logging.getLogger("floor.serve")


class FloorServer(BaseApplication):
    def __init__(self, options: dict):
        self.options = options
        super().__init__()

    def load_config(self):
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        app = create_app()
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
        "worker_class": "gthread",
        "threads": server["threads"],
        "timeout": 0 if os.environ.get("FLOOR_DEBUG") else 60,
        "graceful_timeout": 10,
        "accesslog": "-",
        "loglevel": cfg["app"].get("log_level", "INFO").lower(),
    }
    quick_handoffs()
    print(f"Floorman on http://{server['host']}:{server['port']}/  (health: /healthz)", flush=True)
    FloorServer(options).run()


if __name__ == "__main__":
    main()
