"""Background parts of a serving process: the scheduler, and (later) device readers and simulators."""
from __future__ import annotations

import atexit
import logging

from flask import Flask

log = logging.getLogger(__name__)


def start_background(app: Flask) -> None:
    cfg = app.config["FLOOR"]["app"]
    if cfg.get("run_scheduler"):
        from floor.web import scheduler
        scheduler.start(app)
        atexit.register(scheduler.shutdown)
        log.info("scheduler started")
