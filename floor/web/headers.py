"""Headers every answer carries, whatever made it (a page, the API, an error, a static file)."""
from __future__ import annotations

from flask import Flask, Response

# No page of the floor is meant to be shown inside another site's frame (a framed page can be
# overlaid to trick a tap: clickjacking), and no answer is to be sniffed into another type than it
# says (a player's name served as text must never run as a script).
SECURITY_HEADERS = {
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def _secure(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def init_app(app: Flask) -> None:
    app.after_request(_secure)
