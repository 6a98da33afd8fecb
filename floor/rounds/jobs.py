"""Timer jobs of the rounds (run by the scheduler with their own session; the runner commits)."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy.orm import Session

from floor.actors import Actor
from floor.errors import InvalidState
from floor.jobs import job
from floor.rounds import cards, core, table, wheel
from floor.settings import HouseSettings


@job("rounds.close_betting")
def close_betting_job(session: Session, settings: HouseSettings, round_id: int, now: datetime | None = None) -> None:
    r = core.get_round(session, round_id)
    table.close_betting(session, Actor.system("betting timer"), r.table_id, now or datetime.now(timezone.utc),
                        round_id=round_id)


@job("rounds.decision_timeout")
def decision_timeout_job(session: Session, settings: HouseSettings, round_id: int, step: int,
                         now: datetime | None = None) -> None:
    """Nobody decided in time: the default applies. When that ends the round (every Casino Hold'em seat
    folds), it is settled in the same transaction: a crash leaves the timer pending and nothing done."""
    out = cards.decision_timeout(session, round_id, step, now, house=settings)
    if out is not None and out.settle:
        core.settle(session, out.settle, at=now, house=settings)


@job("rounds.no_ball")
def no_ball_job(session: Session, settings: HouseSettings, round_id: int, spin: int | None,
                now: datetime | None = None) -> None:
    wheel.no_ball_due(session, round_id, spin, now or datetime.now(timezone.utc))


@job("rounds.settle")
def settle_job(session: Session, settings: HouseSettings, round_id: int, now: datetime | None = None) -> None:
    """Settle a round that got its result (a no-op when already settled, or held meanwhile)."""
    try:
        core.settle(session, round_id, at=now, house=settings)
    except InvalidState:
        pass


@job("rounds.device_silent")
def device_silent_job(session: Session, settings: HouseSettings, round_id: int, step: int,
                      now: datetime | None = None) -> None:
    """The table's device said nothing mid-deal for the house's wait: the round is held."""
    cards.device_silent(session, round_id, step, now or datetime.now(timezone.utc), settings)
