"""One place that turns errors into answers: JSON for the API and sockets, a page or a redirect for pages."""
from __future__ import annotations

import logging

from flask import Flask, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import DataError, IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.exceptions import HTTPException

from floor.errors import FloorError
from floor.web import i18n
from floor.web.extensions import db

log = logging.getLogger(__name__)


def error_body(exc: FloorError) -> dict:
    # The message in the reader's language (floor/web/i18n.py); "error" stays the stable code.
    body = {"error": exc.code, "message": i18n.error_message(exc)}
    if exc.field:
        body["field"] = exc.field
    return body


def wants_json() -> bool:
    if request.path.startswith("/api/") or request.path == "/healthz" or request.is_json:
        return True
    best = request.accept_mimetypes.best_match(["application/json", "text/html"])
    return best == "application/json" and request.accept_mimetypes[best] > request.accept_mimetypes["text/html"]


def _rollback() -> None:
    try:
        db.session.rollback()
    except Exception:  # the connection may be gone; the answer must still go out
        log.exception("rollback failed")


def _json(status: int, code: str, message: str, field: str | None = None, extra: dict | None = None):
    body = {"error": code, "message": message}
    if field:
        body["field"] = field
    if extra:
        body.update(extra)
    return jsonify(body), status


def _first_field(messages) -> tuple[str | None, str]:
    """webargs/marshmallow messages -> the first offending field name and a sentence."""
    if isinstance(messages, dict):
        for location, fields in messages.items():
            if isinstance(fields, dict):
                for name, errs in fields.items():
                    if isinstance(errs, dict):  # nested field
                        sub, msg = _first_field({location: errs})
                        return f"{name}.{sub}" if sub else name, msg
                    msg = errs[0] if isinstance(errs, list) and errs else str(errs)
                    return (None if name == "_schema" else name), msg
            elif isinstance(fields, list):
                return location, fields[0] if fields else "invalid"
    return None, "invalid input"


def register(app: Flask) -> None:
    @app.errorhandler(FloorError)
    def floor_error(exc: FloorError):
        _rollback()
        if wants_json():
            return jsonify(error_body(exc)), exc.status
        if exc.status == 401:
            return redirect(url_for("auth.login", next=request.full_path))
        return render_template("error.html", status=exc.status, code=exc.code, message=i18n.error_message(exc)), exc.status

    @app.errorhandler(CSRFError)
    def csrf_error(exc: CSRFError):
        _rollback()
        msg = _("the form's security token is missing or expired; reload the page and try again")
        if wants_json():
            return _json(400, "csrf_failed", msg)
        return render_template("error.html", status=400, code="csrf_failed", message=msg), 400

    @app.errorhandler(StaleDataError)
    def stale(exc):
        _rollback()
        return _json(409, "conflict", _("someone else changed this at the same time; look again and retry"))

    @app.errorhandler(IntegrityError)
    def integrity(exc):
        # The database refused a second winner (unique seat, idempotency key...): a conflict, not a crash.
        _rollback()
        log.info("integrity conflict: %s", exc.orig)
        return _json(409, "conflict", _("this conflicts with a change made at the same time; look again and retry"))

    @app.errorhandler(DataError)
    def data_error(exc):
        # The database refused a value (a number out of range, a NUL in a text): the request's fault.
        # The schemas bound every value first; this is the backstop.
        _rollback()
        log.warning("value refused by the database: %s", exc.orig)
        return _json(400, "bad_input", _("a value is out of the range this field holds"))

    @app.errorhandler(RecursionError)
    def too_deep(exc):
        _rollback()
        return _json(400, "bad_json", _("the body is nested too deeply"), "json")

    @app.errorhandler(OperationalError)
    def operational(exc):
        _rollback()
        log.exception("database unavailable")
        return _json(503, "database_unavailable", _("the database cannot be reached; try again shortly"))

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        _rollback()
        code = (exc.name or "error").lower().replace(" ", "_")
        if exc.code in (400, 422):
            data = getattr(exc, "data", None) or {}
            messages = data.get("messages")
            if messages is not None:
                field, msg = _first_field(messages)
                if field == "json" and "Invalid JSON" in str(messages):
                    return _json(400, "bad_json", _("the body is not valid JSON"), "json")
                msg = _(msg)   # marshmallow's own sentences are in the catalogs (floor/web/i18n.py)
                return _json(400, "bad_input", f"{field}: {msg}" if field else msg, field,
                             {"details": messages})
            return _json(400, "bad_input", exc.description or "bad request")
        if exc.code == 413:
            # The body was not read: the connection cannot carry another request, so say it closes
            # (announcing keep-alive and then dropping it breaks the client's next request).
            resp, status = _json(413, code, _("the body is larger than this server accepts"))
            resp.headers["Connection"] = "close"
            return resp, status
        if exc.code == 429:
            return _json(429, "rate_limited", _("too many attempts; wait a minute and try again"))
        if wants_json():
            return _json(exc.code or 500, code, exc.description or code)
        return render_template("error.html", status=exc.code, code=code, message=exc.description), exc.code

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        _rollback()
        log.exception("unhandled error on %s %s", request.method, request.path)
        return _json(500, "internal_error", _("something went wrong on our side; it has been logged"))
