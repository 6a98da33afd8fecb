"""The one place the rounds' callers share a transaction boundary: a device event, a dealer's card or
decision is committed in its own transaction, then, when it gave the round its result, the round is
settled in a new one. The web view, the device bridge, the demo dealers and the tests call this
instead of writing the two commits themselves (the rest of the domain never commits)."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from floor.actors import Actor
from floor.errors import InvalidState
from floor.rounds import core
from floor.settings import HouseSettings


def commit_then_settle(session: Session, out: core.Outcome | None, *, house: HouseSettings,
                       actor: Actor = core.SYSTEM, at: datetime | None = None) -> bool:
    """Commit what the event did, then settle the round it gave a result (``out.settle``) in a new
    transaction and commit that. A round held or voided meanwhile is left to the pit boss (the
    settling transaction is rolled back). True when a settlement was committed."""
    session.commit()
    if out is None or not out.settle:
        return False
    try:
        settled = core.settle(session, out.settle, at=at, actor=actor, house=house)
    except InvalidState:
        session.rollback()
        return False
    session.commit()
    return settled is not None
