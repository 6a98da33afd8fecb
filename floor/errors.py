"""The domain's own errors. floor.web turns each into a JSON error with its HTTP status.

Messages are English templates with named values, never f-strings:
``raise Conflict("seat {seat} at table {table} is taken", code="seat_taken", seat=3, table=5)``.
The template is the message catalog's msgid; the web layer says it in the reader's language
(floor/web/i18n.py) and ``message`` keeps the English text for logs and the CLI. The domain never
imports flask or babel: values that need the reader's formatting are marked with the small types below.
"""
from __future__ import annotations

from datetime import datetime, timezone


class Money(int):
    """Cents inside a message: shown in the house currency's format, never as a bare count of cents."""

    def __str__(self) -> str:
        sign = "-" if self < 0 else ""
        return f"{sign}{abs(int(self)) // 100}.{abs(int(self)) % 100:02d}"


class Term(str):
    """A code from the floor's vocabulary (a role, a status, a game, a bet spot) shown as words."""

    def __str__(self) -> str:
        return self.replace("_", " ")


def english(value) -> str:
    """A message value as the English text says it (times in UTC: the web layer shows house time)."""
    if isinstance(value, datetime):
        if value.tzinfo is not None:
            value = value.astimezone(timezone.utc)
        return f"{value:%H:%M} UTC"
    if isinstance(value, (list, tuple)):
        return ", ".join(english(v) for v in value)
    return str(value)


class Msg(str):
    """A sentence for a person: the English text (it is a str) that also keeps its template and values,
    so the web layer can say it in the reader's language (see the module docstring)."""

    template: str
    params: dict

    def __new__(cls, template: str, **params):
        text = template.format(**{k: english(v) for k, v in params.items()}) if params else template
        obj = super().__new__(cls, text)
        obj.template = template
        obj.params = params
        return obj

    def __str__(self) -> "Msg":
        return self     # str(msg) keeps the template (marshmallow and Jinja call str())

    def __repr__(self) -> str:
        return f"Msg({self.template!r}, **{self.params!r})"

    def __reduce__(self):
        return (_msg, (self.template, self.params))

    def to_json(self) -> dict:
        """For a sentence kept in a JSON column (an alert): template and typed values."""
        return {"template": self.template, "params": {k: _encode(v) for k, v in self.params.items()}}

    @classmethod
    def from_json(cls, data: dict) -> "Msg":
        return cls(data["template"], **{k: _decode(v) for k, v in (data.get("params") or {}).items()})


def _encode(v):
    if isinstance(v, Msg):
        return {"msg": v.to_json()}
    if isinstance(v, Money):
        return {"money": int(v)}
    if isinstance(v, Term):
        return {"term": str.__str__(v)}
    if isinstance(v, datetime):
        return {"time": v.isoformat()}
    if isinstance(v, (int, float, str)) or v is None:
        return v
    return str(v)


def _decode(v):
    if isinstance(v, dict):
        if "msg" in v:
            return Msg.from_json(v["msg"])
        if "money" in v:
            return Money(v["money"])
        if "term" in v:
            return Term(v["term"])
        if "time" in v:
            return datetime.fromisoformat(v["time"])
    return v


def _msg(template: str, params: dict) -> Msg:
    return Msg(template, **params)


def N_(text: str) -> str:
    """Marks a fixed English sentence for the catalogs where it is kept as plain text (e.g. in a column);
    the page that shows it translates it."""
    return text


class FloorError(Exception):
    """Base of every error the domain raises on purpose."""

    code = "error"
    status = 400

    def __init__(self, message: str, *, code: str | None = None, field: str | None = None, **params):
        self.msg = self.message = Msg(message, **params)
        self.template = message
        self.params = params
        super().__init__(str.__str__(self.msg))
        if code:
            self.code = code
        self.field = field

    def __str__(self) -> str:
        return str.__str__(self.message)


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
