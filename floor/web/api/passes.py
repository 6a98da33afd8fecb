"""A player's pass, read and answered from his phone: no login, the link's token is the key.

Every route answers for that player's open entries only: another player's entry is a 404 like one
that never was, and nothing here names anyone else. Rate-limited per pass, and per client address
for links that open nothing (guessing a token is 2^192 tries)."""
from __future__ import annotations

from flask import current_app, request
from flask_smorest import Blueprint

from floor.poker import passes
from floor.web.api.poker_schemas import PassStateSchema
from floor.web.extensions import db, house, limiter
from floor.web.policy import public

blp = Blueprint("api_pass", __name__, url_prefix="/api/pass",
                description="A player's pass: his own lists, his call, his answers (the link's token, no login)")


def pass_rate() -> str:
    return current_app.config["FLOOR"]["security"]["pass_rate_limit"]


def miss_rate() -> str:
    return current_app.config["FLOOR"]["security"]["pass_miss_rate_limit"]


def per_pass() -> str:
    return "pass:" + passes.token_hash((request.view_args or {}).get("token", ""))[:32]


def missed(response) -> bool:
    """A link that opens no pass counts against the client's address (someone guessing)."""
    return response.status_code == 404


def limited(fn):
    """Both limits of a pass route: its own pass's, and its address's misses."""
    return limiter.limit(miss_rate, deduct_when=missed)(limiter.limit(pass_rate, key_func=per_pass)(fn))


@blp.route("/<token>")
@public
@limited
@blp.response(200, PassStateSchema)
def state(token: str):
    """His lists: his place, his estimated wait (as the board shows it), the game and limit, his call."""
    p = passes.holder(db.session, token)
    return passes.view(db.session, house(), p)


@blp.route("/<token>/entries/<int:entry_id>/on-my-way", methods=["POST"])
@public
@limited
@blp.response(200, PassStateSchema)
def on_my_way(token: str, entry_id: int):
    """He answers his call: the floor's tablet shows "on my way" beside it."""
    p = passes.holder(db.session, token)
    passes.on_my_way(db.session, p, entry_id)
    db.session.commit()
    return passes.view(db.session, house(), passes.holder(db.session, token))


@blp.route("/<token>/entries/<int:entry_id>/take-off", methods=["POST"])
@public
@limited
@blp.response(200, PassStateSchema)
def take_off(token: str, entry_id: int):
    """He takes himself off this list (his other lists stay). When it was his last, the pass ends:
    the answer is 410 with the reason."""
    p = passes.holder(db.session, token)
    passes.take_off(db.session, p, entry_id)
    db.session.commit()
    return passes.view(db.session, house(), passes.holder(db.session, token))
