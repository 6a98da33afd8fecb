"""The two-person rule for a round's money, decided here (not by the caller) by what would move.

Settling a held round by hand moves its stakes and what the result returns: both count. Voiding a
round not yet settled moves its stakes back. Above ``house.dispute_two_person_cents`` the move needs
a ruling that a second, different pit boss approved (a ``ruling_approvals`` row): one person alone,
whatever route he takes, moves nothing.
"""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from floor.errors import Conflict, Money
from floor.models import Round, RoundRuling, RulingApproval
from floor.settings import HouseSettings


def settling_moves(bets: list[dict], targets: list[tuple[int, int]]) -> int:
    """Stakes and returns (commission included) together: what settling with this result moves."""
    return sum(b["amount"] for b in bets) + sum(back + comm for back, comm in targets)


def approved(session: Session, round_id: int, ruling_id: int | None) -> bool:
    """Is there an approved ruling on this round whose approver is not the one who made it?"""
    if ruling_id is None:
        return False
    ruling = session.get(RoundRuling, ruling_id)
    if ruling is None or ruling.round_id != round_id:
        return False
    answer = session.execute(select(RulingApproval).where(RulingApproval.ruling_id == ruling_id)).scalar_one_or_none()
    return (answer is not None and answer.decision == "approved" and answer.decided_by is not None
            and answer.decided_by != ruling.decided_by)


def pending_for_round(session: Session, round_id: int) -> RoundRuling | None:
    """The ruling on this round that waits for a second pit boss, if any."""
    return session.execute(
        select(RoundRuling).where(RoundRuling.round_id == round_id, RoundRuling.needs_approval.is_(True),
                                  ~select(RulingApproval.id).where(RulingApproval.ruling_id == RoundRuling.id).exists())
        .order_by(RoundRuling.id).limit(1)).scalar_one_or_none()


def nothing_waiting(session: Session, r: Round, ruling_id: int | None) -> None:
    """A move by hand while a ruling on the round waits for its second pit boss: 409 ruling_pending."""
    if ruling_id is None:
        waiting = pending_for_round(session, r.id)
        if waiting is not None:
            raise Conflict("ruling {waiting} on this round waits for a second pit boss", code="ruling_pending",
                           waiting=waiting.id)


def require(session: Session, r: Round, moves: int, house: HouseSettings, ruling_id: int | None) -> None:
    """Refuse a move by hand while a ruling on the round waits (409 ruling_pending), and a move above
    the threshold that no second pit boss approved (409 two_person_rule)."""
    nothing_waiting(session, r, ruling_id)
    if moves <= house.dispute_two_person_cents or approved(session, r.id, ruling_id):
        return
    raise Conflict("round {round} would move {amount}, above the two-person threshold of {threshold}: rule on it "
                   "from the pit so that a second pit boss approves", code="two_person_rule", round=r.number,
                   amount=Money(moves), threshold=Money(house.dispute_two_person_cents))
