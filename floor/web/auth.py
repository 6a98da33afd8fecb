"""Login and logout: staff passwords, and dealer PINs at a table terminal bound to that table."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone

from flask import Blueprint, current_app, g, redirect, render_template, request, session, url_for
from flask_babel import gettext as _

from floor import audit, dealers
from floor import staff as staff_svc
from floor import tables as tables_svc
from floor.actors import Actor
from floor.errors import FloorError
from floor.models import Staff
from floor.web import i18n
from floor.web.extensions import db, limiter
from floor.web.policy import STAFF, allow, current_identity, public

bp = Blueprint("auth", __name__)

HOME = {"floor_manager": "pages.floor", "admin": "pages.floor", "pit_boss": "pages.pit",
        "cashier": "pages.pit", "display": "pages.board",
        "technician": "device_live.page"}


def _rate():
    return current_app.config["FLOOR"]["security"]["login_rate_limit"]


def _lock_settings() -> dict:
    sec = current_app.config["FLOOR"]["security"]
    return {"failures_to_lock": sec["lockout_failures"], "lock_minutes": sec["lockout_minutes"]}


def _terminal() -> str:
    # A tablet may name itself (e.g. "tablet-pit-2"); otherwise its address identifies it.
    named = (request.form.get("terminal") or "").strip()[:60]
    return named or f"web:{request.remote_addr}"


def _client() -> str:
    # Failed logins are counted per client address, never per name a form gives itself.
    return request.remote_addr or "unknown"


def _start_session(staff, terminal: str, table_number: int | None = None) -> None:
    session.clear()
    session.permanent = True
    session.update(staff_id=staff.id, role=staff.role, terminal=terminal, table_number=table_number)


def home_for(ident) -> str:
    if ident.role == "dealer" and ident.table_number is not None:
        return url_for("pages.dealer", table_number=ident.table_number)
    return url_for(HOME.get(ident.role, "pages.floor"))


def _safe_next(target: str | None) -> str | None:
    if target and target.startswith("/") and not target.startswith("//") and "login" not in target:
        return target
    return None


@bp.route("/")
@public
def index():
    ident = current_identity()
    return redirect(home_for(ident) if ident else url_for("auth.login"))


@bp.route("/login", methods=["GET", "POST"])
@public
@limiter.limit(_rate, methods=["POST"])
def login():
    error = None
    status = 200
    if request.method == "POST":
        username = (request.form.get("username") or "").strip()
        password = request.form.get("password") or ""
        try:
            staff = staff_svc.authenticate(db.session, username, password, terminal=_terminal(),
                                           client=_client(), **_lock_settings())
        except FloorError as exc:
            db.session.commit()   # keep the failure count and its audit record
            error, status = i18n.error_message(exc), exc.status
        else:
            if staff.role == "dealer":
                db.session.rollback()
                error, status = _("dealers log in with their PIN at the table terminal"), 403
            else:
                db.session.commit()
                _start_session(staff, _terminal())
                return redirect(_safe_next(request.args.get("next")) or home_for(current_identity_fresh()))
    return render_template("login.html", error=error), status


def current_identity_fresh():
    g.pop("floor_identity", None)
    return current_identity()


@bp.route("/dealer/<int:table_number>/login", methods=["GET", "POST"])
@public
@limiter.limit(_rate, methods=["POST"])
def dealer_login(table_number: int):
    table = tables_svc.table_by_number(db.session, table_number)
    error = None
    status = 200
    if request.method == "POST":
        username = (request.form.get("username") or "").strip()
        pin = request.form.get("pin") or ""
        terminal = f"table-{table.number}-terminal"
        try:
            staff = staff_svc.authenticate_dealer(db.session, username, pin, terminal=terminal, client=_client(),
                                                  **_lock_settings())
        except FloorError as exc:
            db.session.commit()
            error, status = i18n.error_message(exc), exc.status
        else:
            if staff.role == "dealer" and table.status == "open" and table.kind in dealers.LIVE_GAMES:
                # the dealer who logs in takes the table: the one he relieves goes on his break
                dealers.take_table(db.session, Actor(staff.name, "dealer", terminal, staff.id, table.id), staff.id,
                                   table.id, datetime.now(timezone.utc), how="login")
            db.session.commit()
            _start_session(staff, terminal, table.number)
            return redirect(url_for("pages.dealer", table_number=table.number))
    return render_template("dealer_login.html", table=table, error=error,
                           username=(request.form.get("username") or "").strip() if error else ""), status


@bp.route("/logout", methods=["POST"])
@allow(*STAFF)
def logout():
    table_number = session.get("table_number")
    session.clear()
    if table_number:
        return redirect(url_for("auth.dealer_login", table_number=table_number))
    return redirect(url_for("auth.login"))


@bp.route("/language", methods=["POST"])
@public
def set_language():
    """The top bar's language menu: a logged-in person's own choice (kept with his account, so it
    follows him to any terminal); before login, this terminal's language."""
    lang = i18n.LANGUAGES.get(request.form.get("lang") or "") and request.form["lang"]
    back = _safe_next(request.form.get("next")) or "/"
    if back.endswith("?"):
        back = back[:-1]
    response = redirect(back)
    if not lang:
        return response
    ident = current_identity()
    if ident is not None and ident.via == "session":
        staff = db.session.get(Staff, ident.staff.id)
        before = staff.language
        staff.language = lang
        audit.record(db.session, ident.actor(), "staff.language", f"staff:{staff.id}",
                     before={"language": before}, after={"language": lang})
        db.session.commit()
        g.floor_identity = replace(ident, staff=replace(ident.staff, language=lang))
    else:
        response.set_cookie(i18n.COOKIE, lang, max_age=400 * 24 * 3600, samesite="Lax", httponly=True)
    return response
