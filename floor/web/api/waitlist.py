"""Waiting lists: add in person, move with a reason, remove, call (response timer), seat."""
from __future__ import annotations

from flask import current_app, url_for
from flask_babel import gettext as _
from flask_smorest import Blueprint

from floor import tables as tables_svc
from floor.poker import passes
from floor.poker import waitlist as wl
from floor.web import qr
from floor.web.api.poker_schemas import (
    AddEntryArgs,
    CallArgs,
    CallSchema,
    EntrySchema,
    ListSchema,
    MoveEntryArgs,
    PassIssuedSchema,
    PassRevokedSchema,
    ProposalSchema,
    ReasonArgs,
    SeatedSchema,
    SeatEntryArgs,
)
from floor.web.api.seating import assignment_json
from floor.web.extensions import db, house
from floor.web.policy import actor, allow

blp = Blueprint("api_waitlists", __name__, url_prefix="/api/waitlists",
                description="Waiting lists: one per game and limit")
MANAGE = ("floor_manager", "admin")
READ = ("floor_manager", "admin", "pit_boss")


def _entry(e) -> wl.Listed:
    return wl.listed(db.session, e)


@blp.route("")
@allow(*READ)
@blp.response(200, ListSchema(many=True))
def lists():
    """Every poker game's list, in order, with calls and estimated waits."""
    return wl.lists(db.session, house())


@blp.route("/proposals")
@allow(*READ)
@blp.response(200, ProposalSchema(many=True))
def proposals():
    """Who gets each free seat: table-change requests first, then the first eligible listed player."""
    return [p.as_dict() for p in wl.proposals(db.session, house())]


@blp.route("/<int:game_id>/entries", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(AddEntryArgs)
@blp.response(201, EntrySchema)
def add(args, game_id: int):
    """Put a player who presents himself at the floor at the end of a game's list."""
    e = wl.add(db.session, actor(), game_id, args["player_id"], note=args["note"])
    db.session.commit()
    return _entry(e)


@blp.route("/entries/<int:entry_id>/move", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(MoveEntryArgs)
@blp.response(200, EntrySchema)
def move(args, entry_id: int):
    """Put an entry at another place on its list (1 = first); the reason is audited."""
    e = wl.move(db.session, actor(), entry_id, args["to_place"], args["reason"])
    db.session.commit()
    return _entry(e)


@blp.route("/entries/<int:entry_id>/remove", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(ReasonArgs)
@blp.response(200, EntrySchema)
def remove(args, entry_id: int):
    """Take a player off a list (his open call, if any, is cancelled)."""
    e = wl.remove(db.session, actor(), entry_id, args["reason"] or "removed")
    db.session.commit()
    return _entry(e)


@blp.route("/entries/<int:entry_id>/call", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(CallArgs)
@blp.response(201, CallSchema)
def call(args, entry_id: int):
    """Call a player for a seat: the seat is held and his response timer starts. Calling someone other
    than the proposed player needs a reason."""
    table = tables_svc.table_by_number(db.session, args["table_number"])
    c = wl.call(db.session, actor(), house(), entry_id, table, args["seat_number"], reason=args["reason"])
    db.session.commit()
    return c


@blp.route("/calls/<int:call_id>/cancel", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(ReasonArgs)
@blp.response(200, EntrySchema)
def cancel_call(args, call_id: int):
    """Take a call back: he keeps his place, the seat is free again."""
    e = wl.cancel_call(db.session, actor(), call_id, reason=args["reason"])
    db.session.commit()
    return _entry(e)


@blp.route("/entries/<int:entry_id>/seat", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(SeatEntryArgs)
@blp.response(201, SeatedSchema)
def seat(args, entry_id: int):
    """Seat a listed player (at his call's seat by default) with a buy-in within the table's limits;
    he leaves that game's list; his other lists are kept unless drop_other_lists."""
    table = tables_svc.table_by_number(db.session, args["table_number"]) if args["table_number"] else None
    done = wl.seat(db.session, actor(), house(), entry_id, args["buy_in"], table, args["seat_number"],
                   drop_other_lists=args["drop_other_lists"], reason=args["reason"])
    db.session.commit()
    return {"assignment": assignment_json(done.assignment), "entry": _entry(done.entry),
            "other_entries": [_entry(x) for x in done.other_entries], "dropped": [_entry(x) for x in done.dropped]}


@blp.route("/players/<int:player_id>/pass", methods=["POST"])
@allow(*MANAGE)
@blp.response(201, PassIssuedSchema)
def issue_pass(player_id: int):
    """A pass for a listed player: the link to his own lists on his phone, and its QR code. The pass
    he had before stops working. It ends with the gaming day, or when he is on no list any more."""
    issued = passes.issue(db.session, actor(), house(), player_id)
    db.session.commit()
    link = url_for("pass_page.page", token=issued.token, _external=True)
    return {"pass_": issued.pass_, "link": link, "qr_svg": str(qr.svg(link, _("The player's pass")))}


@blp.route("/players/<int:player_id>/pass/revoke", methods=["POST"])
@allow(*MANAGE)
@blp.response(200, PassRevokedSchema)
def revoke_pass(player_id: int):
    """Withdraw the player's pass: its page says so from now on."""
    ended = passes.revoke(db.session, actor(), player_id)
    db.session.commit()
    return {"revoked": [p.id for p in ended]}


__all__ = ["blp", "current_app"]
