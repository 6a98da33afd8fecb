"""The domain's own errors. floor.web turns each into a JSON error with its HTTP status."""
from __future__ import annotations


class FloorError(Exception):
    """Base of every error the domain raises on purpose."""

    code = "error"
    status = 400

    def __init__(self, message: str, *, code: str | None = None, field: str | None = None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        self.field = field


class BadInput(FloorError):
    code = "bad_input"
    status = 400


class NotAuthenticated(FloorError):
    code = "not_authenticated"
    status = 401


class NotAllowed(FloorError):
    code = "not_allowed"
    status = 403


class NotFound(FloorError):
    code = "not_found"
    status = 404


class Conflict(FloorError):
    code = "conflict"
    status = 409


class InvalidState(FloorError):
    code = "invalid_state"
    status = 409


class RateLimited(FloorError):
    code = "rate_limited"
    status = 429


class Unavailable(FloorError):
    """A part the request needs is not there right now (the device process, the message queue)."""

    code = "unavailable"
    status = 503
