"""Bounds on what a request may carry, before any of it reaches the database: ids in paths fit a
PostgreSQL INTEGER, bodies are small (MAX_CONTENT_LENGTH; 413 above), JSON is not nested deeper than
the parser can follow (errors.py answers 400)."""
from __future__ import annotations

from flask import Flask
from werkzeug.routing import IntegerConverter

INT_MAX = 2**31 - 1
MAX_BODY_BYTES = 64 * 1024


class BoundedInt(IntegerConverter):
    """``<int:x>`` that only matches 0 .. 2^31-1 digits: a larger number is a 404, never a database error."""

    def __init__(self, map, *args, **kwargs):
        kwargs.setdefault("max", INT_MAX)
        super().__init__(map, *args, **kwargs)


def init_app(app: Flask) -> None:
    app.url_map.converters["int"] = BoundedInt
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
