"""The /live Socket.IO namespace: rooms per table and per role; every event declares its roles.

A client joins only the rooms its role may read, as REST would answer it:
- ``floor``: what the floor's staff read (players by name at any table, visits, lists, conduct):
  floor managers, pit bosses, admins, and the cage (it reads the day's rated visits);
- ``board``: what the public TV board shows (results, tables' and lists' changes, tournament
  clocks), so every client may hear it;
- ``table:<id>``: one table's terminal: a dealer's own table only (joined at connect, and
  ``join_table`` refuses another), any table for the floor's staff;
- ``role:<role>``: what is for one role (cash requests, alerts, device health);
- ``devices``: every device's line as it happens (bytes, decoded events, refusals, what was written to
  it, health) for the live device page: admins and technicians, on asking (``join_devices``), and the
  device process sends it only while somebody is in it (floor/web/device_watch.py);
- ``pass:<id>``: a player's pass on his phone (no login: the link's token in the auth payload), and
  nothing else: sent its own state when his lists change (``pass.changed``, his entries only, as
  his pass's state route answers it; floor/poker/pass_feed.py). No staff event, no other player's
  name, reaches it.
A technician reads devices and nothing of money or players: no ``floor``, no ``board``.
An event is published to the rooms whose readers may read all of it (floor/notify.py)."""
from __future__ import annotations

from flask import current_app, request
from flask_socketio import ConnectionRefusedError, join_room, leave_room

from floor import tables as tables_svc
from floor.errors import BadInput, FloorError, NotAllowed, Unavailable
from floor.poker import pass_feed, passes
from floor.web.errors import error_body
from floor.web.extensions import db
from floor.web.policy import STAFF, check, current_identity, socket_connect, socket_disconnect, socket_event

NAMESPACE = "/live"


@socket_connect(STAFF, NAMESPACE)
def connect(auth=None):
    if isinstance(auth, dict) and "pass" in auth:
        return _connect_pass(auth["pass"])
    # A token may come in the Socket.IO auth payload (integrations) instead of the cookie.
    if isinstance(auth, dict) and auth.get("token") and "Authorization" not in request.headers:
        request.environ["HTTP_AUTHORIZATION"] = f"Bearer {auth['token']}"
    try:
        ident = check(STAFF)
    except FloorError as exc:
        db.session.rollback()
        raise ConnectionRefusedError(error_body(exc))
    for room in rooms_of(ident.role):
        join_room(room)
    if ident.role == "dealer" and ident.table_number is not None:
        table = tables_svc.table_by_number(db.session, ident.table_number)
        join_room(f"table:{table.id}")
    db.session.remove()
    return True


FLOOR_READERS = frozenset({"floor_manager", "pit_boss", "admin", "cashier"})


DEVICE_WATCHERS = ("admin", "technician")
DEVICES_ROOM = "devices"


def rooms_of(role: str, pass_id: int | None = None) -> list[str]:
    """The rooms a client of this role joins when it connects (a dealer adds his table's). A player's
    pass (role "pass") joins its own room only."""
    if role == "pass":
        return [pass_feed.room(pass_id)]
    if role == "technician":
        return [f"role:{role}"]
    return [f"role:{role}", "board"] + (["floor"] if role in FLOOR_READERS else [])


def _watchers():
    return current_app.extensions["floor_device_watchers"]


@socket_event("join_devices", DEVICE_WATCHERS, NAMESPACE)
def join_devices(data=None):
    """The live device page opens (and says so again every few seconds while open)."""
    try:
        _watchers().add(request.sid)
    except Exception:   # the message queue is away: the device process could not be told
        return error_body(Unavailable("the message queue cannot be reached: the device process cannot send "
                                      "the lines now", code="message_queue_down"))
    finally:
        db.session.remove()
    join_room(DEVICES_ROOM)
    return {"ok": True, "room": DEVICES_ROOM}


@socket_event("leave_devices", DEVICE_WATCHERS, NAMESPACE)
def leave_devices(data=None):
    leave_room(DEVICES_ROOM)
    try:
        _watchers().remove(request.sid)
    except Exception:   # the message queue is away: the note runs out by itself
        pass
    finally:
        db.session.remove()
    return {"ok": True}


@socket_disconnect(NAMESPACE)
def disconnect(reason=None):
    try:
        _watchers().remove(request.sid)
    except Exception:   # the watchers' record is away: the note runs out by itself
        pass


def _connect_pass(token) -> bool:
    try:
        p = passes.holder(db.session, token if isinstance(token, str) else "")
        rooms = rooms_of("pass", p.id)
    except FloorError as exc:
        raise ConnectionRefusedError(error_body(exc))
    finally:
        db.session.rollback()
        db.session.remove()
    for room in rooms:
        join_room(room)
    return True


def _table_id(data) -> int:
    if not isinstance(data, dict) or not isinstance(data.get("table_id"), int) or isinstance(data.get("table_id"), bool):
        raise BadInput("table_id must be an integer", field="table_id")
    return data["table_id"]


@socket_event("join_table", ["floor_manager", "pit_boss", "admin", "dealer"], NAMESPACE)
def join_table(data=None):
    try:
        table_id = _table_id(data)
        table = tables_svc.get_table(db.session, table_id)
        ident = current_identity()
        if ident.role == "dealer" and ident.table_number != table.number:
            raise NotAllowed("this terminal is bound to table {table_number}", code="wrong_table", table_number=ident.table_number)
        join_room(f"table:{table.id}")
        return {"ok": True, "room": f"table:{table.id}"}
    except FloorError as exc:
        return error_body(exc)
    finally:
        db.session.remove()


@socket_event("leave_table", ["floor_manager", "pit_boss", "admin", "dealer"], NAMESPACE)
def leave_table(data=None):
    try:
        leave_room(f"table:{_table_id(data)}")
        return {"ok": True}
    except FloorError as exc:
        return error_body(exc)
