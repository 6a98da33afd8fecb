"""The player's pass on his phone: one page, no login, no app, in the phone's language.

It loads nothing from another site (its Content-Security-Policy says so to the browser), keeps no
copy in caches, and tells no other site where it came from."""
from __future__ import annotations

from flask import Blueprint, render_template
from flask_babel import gettext as _

from floor.errors import NotFound
from floor.poker import passes
from floor.web import i18n
from floor.web.api.passes import limited
from floor.web.api.poker_schemas import PassStateSchema
from floor.web.extensions import db, house
from floor.web.policy import public

bp = Blueprint("pass_page", __name__)

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "media-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


@bp.after_request
def _private(response):
    response.headers["Content-Security-Policy"] = CSP
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.errorhandler(429)
def _too_many(exc):
    """Too many asks from this phone (or this address): a plain page, as for an ended pass."""
    return render_template("pass_ended.html", code="rate_limited",
                           message=_("too many requests from this phone; wait a minute and open the page again")), 429


@bp.route("/p/<token>")
@public
@limited
def page(token: str):
    """His lists, live; a withdrawn or ended pass is a plain page saying so."""
    try:
        p = passes.holder(db.session, token)
    except (passes.PassEnded, NotFound) as exc:
        db.session.rollback()
        return render_template("pass_ended.html", code=exc.code, message=i18n.error_message(exc)), exc.status
    state = PassStateSchema().dump(passes.view(db.session, house(), p))
    return render_template("pass.html", state=state)
