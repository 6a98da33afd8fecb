"""Who may use what. Every page, JSON route and socket event declares its roles here.

A route without a declared policy is refused (and fails the permission test): closed by default.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from flask import current_app, g, request, session

from floor import staff as staff_svc
from floor.actors import Actor
from floor.errors import NotAllowed, NotAuthenticated
from floor.models import ROLES, Staff
from floor.web.errors import error_body
from floor.web.extensions import db

PUBLIC = frozenset({"public"})
STAFF = frozenset(ROLES)
# Endpoints that Flask and its extensions register themselves.
BUILTIN = {"static": PUBLIC, "vendor": PUBLIC, "favicon": PUBLIC, "api-docs.openapi_json": PUBLIC}

# (namespace, event) -> roles, and the handlers themselves, filled by socket_event(); each app's
# Socket.IO server gets them in register_socket_handlers (a server is made anew per app).
SOCKET_POLICIES: dict[tuple[str, str], frozenset[str]] = {}
SOCKET_HANDLERS: dict[tuple[str, str], object] = {}


def allow(*roles: str, table_arg: str | None = None):
    """Declare the roles of a view. ``table_arg`` names the URL argument holding a table number:
    a dealer terminal bound to one table may only use that table's routes."""
    unknown = set(roles) - set(ROLES)
    if unknown:
        raise ValueError(f"unknown roles {unknown}")

    def deco(fn):
        fn._floor_roles = frozenset(roles)
        fn._floor_table_arg = table_arg
        return fn
    return deco


def public(fn):
    fn._floor_roles = PUBLIC
    fn._floor_table_arg = None
    return fn


def policy_of(endpoint: str) -> frozenset[str] | None:
    if endpoint in BUILTIN:
        return BUILTIN[endpoint]
    view = current_app.view_functions.get(endpoint)
    return getattr(view, "_floor_roles", None)


@dataclass(frozen=True)
class StaffSeen:
    """The caller's account as it was read at the request's start: a request commits before its answer
    is drawn, and reading a committed (expired) ORM row would query it again (the name in the top bar,
    the language of the answer, the actor of each action)."""
    id: int
    name: str
    role: str
    language: str | None

    @classmethod
    def of(cls, staff: Staff) -> "StaffSeen":
        return cls(staff.id, staff.name, staff.role, staff.language)


@dataclass(frozen=True)
class Identity:
    staff: StaffSeen
    terminal: str
    table_number: int | None   # dealer terminals are bound to one table
    via: str                    # "session" | "token"

    @property
    def role(self) -> str:
        return self.staff.role

    def actor(self) -> Actor:
        return Actor(self.staff.name, self.staff.role, self.terminal, self.staff.id)


def current_identity() -> Identity | None:
    """The caller, from a bearer token or the session cookie (loaded once per request)."""
    if "floor_identity" in g:
        return g.floor_identity
    ident = None
    auth = request.headers.get("Authorization", "")
    if auth.startswith("Bearer "):
        holder = staff_svc.holder_of_token(db.session, auth[len("Bearer "):].strip())
        if holder is None:
            raise NotAuthenticated("unknown, revoked or expired token", code="bad_token")
        ident = Identity(StaffSeen.of(holder.staff), f"api:{request.remote_addr}", holder.table_number, "token")
    elif session.get("staff_id"):
        staff = db.session.get(Staff, session["staff_id"])
        if (staff is not None and staff.active and not staff_svc.is_locked(staff)
                and staff.role == session.get("role")):
            ident = Identity(StaffSeen.of(staff), session.get("terminal") or f"web:{request.remote_addr}",
                             session.get("table_number"), "session")
        else:
            session.clear()
    g.floor_identity = ident
    return ident


def check(roles: frozenset[str], table_number: int | None = None) -> Identity | None:
    if roles == PUBLIC:
        return current_identity() if ("Authorization" in request.headers or session.get("staff_id")) else None
    ident = current_identity()
    if ident is None:
        raise NotAuthenticated("log in first")
    if ident.role not in roles:
        raise NotAllowed("a {role} may not do this", code="wrong_role", role=ident.role)
    if (table_number is not None and ident.role == "dealer" and ident.table_number is not None
            and ident.table_number != table_number):
        raise NotAllowed("this terminal is bound to table {table_number}", code="wrong_table", table_number=ident.table_number)
    return ident


def enforce_request_policy() -> None:
    """before_request: refuse anything whose view declares no policy or excludes the caller."""
    endpoint = request.endpoint
    if endpoint is None:
        return  # Flask answers 404/405 itself
    roles = policy_of(endpoint)
    if roles is None:
        raise NotAllowed("route {endpoint} declares no access policy", code="no_policy", endpoint=endpoint)
    view = current_app.view_functions.get(endpoint)
    table_arg = getattr(view, "_floor_table_arg", None)
    table_number = (request.view_args or {}).get(table_arg) if table_arg else None
    check(roles, table_number)


def actor() -> Actor:
    ident = current_identity()
    if ident is None:
        raise NotAuthenticated("log in first")
    return ident.actor()


def socket_event(event: str, roles, namespace: str = "/live"):
    """Declare a Socket.IO handler with its roles; refusals come back as an error ack."""
    roles = frozenset(roles)
    SOCKET_POLICIES[(namespace, event)] = roles

    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args):
            try:
                check(roles)
                return fn(*args)
            except (NotAuthenticated, NotAllowed) as exc:
                return error_body(exc)
        SOCKET_HANDLERS[(namespace, event)] = wrapper
        return wrapper
    return deco


def socket_connect(roles, namespace: str = "/live"):
    """Declare the connect handler of a namespace (it refuses the connection itself)."""
    def deco(fn):
        SOCKET_POLICIES[(namespace, "connect")] = frozenset(roles)
        SOCKET_HANDLERS[(namespace, "connect")] = fn
        return fn
    return deco


def socket_disconnect(namespace: str = "/live"):
    """Declare the disconnect handler of a namespace (no policy: it only tidies up after a client)."""
    def deco(fn):
        SOCKET_HANDLERS[(namespace, "disconnect")] = fn
        return fn
    return deco


def register_socket_handlers(socketio) -> None:
    for (namespace, event), handler in SOCKET_HANDLERS.items():
        socketio.on_event(event, handler, namespace=namespace)


__all__ = ["allow", "public", "check", "actor", "socket_event", "SOCKET_POLICIES", "STAFF", "PUBLIC",
           "current_identity", "Identity", "ROLES"]


def current_identity_safe() -> Identity | None:
    """For templates: the caller or None, never an error."""
    try:
        return current_identity()
    except NotAuthenticated:
        return None
