"""Bounds on what a request may carry, before any of it reaches the database: ids in paths fit a
PostgreSQL INTEGER, bodies are small (MAX_CONTENT_LENGTH; 413 above), JSON is not nested deeper than
the parser can follow (errors.py answers 400)."""
from __future__ import annotations

from flask import Flask
from werkzeug.routing import IntegerConverter

INT_MAX = 2**31 - 1
MAX_BODY_BYTES = 64 * 1024


class BoundedInt(IntegerConverter):
    """``<int:x>`` that only matches 0 .. 2^31-1 in ASCII digits: a larger number is a 404, never a
    database error, and another script's digits (a fullwidth ５) are not a number of ours (Python's
    ``\\d`` and ``int()`` would read them as 5)."""

    regex = r"[0-9]+"

    def __init__(self, map, *args, **kwargs):
        kwargs.setdefault("max", INT_MAX)
        super().__init__(map, *args, **kwargs)


def init_app(app: Flask) -> None:
    app.url_map.converters["int"] = BoundedInt
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
