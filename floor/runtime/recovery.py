"""Recovery of settlements cut by a crash: every round left at "result" is settled, exactly once.

A round reaches "result" in one transaction and is settled in the next (floor.rounds.core), so a
process killed in between, or in the middle of the settlement (rolled back whole), leaves it there.
Every process that can settle runs this at its start, and the scheduler runs it periodically.
Several at once are safe: each settlement locks the round and inserts its one settlement row.
"""
from __future__ import annotations

import logging
from typing import Callable

from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from floor.actors import Actor
from floor.errors import InvalidState, Msg
from floor.models import Round
from floor.rounds import core
from floor.settings import HouseSettings

log = logging.getLogger(__name__)
RECOVERY = Actor.system("recovery")


def waiting(factory: Callable[[], Session]) -> list[int]:
    with factory() as s:
        return list(s.execute(select(Round.id).where(Round.status == "result").order_by(Round.id)).scalars())


def recover_rounds(factory: Callable[[], Session], house: HouseSettings) -> list[int]:
    """Settle every round at "result", each in its own transaction; returns the ids this call settled.
    A settlement that fails for a reason other than the database (a result it cannot pay) holds the
    round for the pit boss, so the table plays on; a database error leaves it for the next run."""
    try:
        ids = waiting(factory)
    except SQLAlchemyError:
        log.exception("recovery: cannot list the rounds waiting to be settled")
        return []
    done = []
    for rid in ids:
        with factory() as s:
            try:
                if core.settle(s, rid, actor=RECOVERY, house=house) is not None:
                    s.commit()
                    done.append(rid)
                    log.warning("recovery: settled round id %s, left at 'result' by a stopped process", rid)
                else:
                    s.rollback()
            except InvalidState:
                s.rollback()   # held, settled or voided meanwhile
            except SQLAlchemyError:
                s.rollback()
                log.exception("recovery: round id %s not settled; trying again later", rid)
            except Exception as exc:
                s.rollback()
                log.exception("recovery: round id %s cannot be settled; holding it for the pit boss", rid)
                _hold(factory, rid, Msg("settlement failed: {error}", error=f"{type(exc).__name__}: {exc}"))
    return done


def _hold(factory: Callable[[], Session], round_id: int, reason: str) -> None:
    with factory() as s:
        try:
            r = core.get_round(s, round_id, lock=True)
            if r.status == "result":
                core.hold(s, RECOVERY, r, reason, core.now_utc())
                s.commit()
        except Exception:
            s.rollback()
            log.exception("recovery: could not hold round id %s", round_id)
