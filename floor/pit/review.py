"""What the pit boss reviews besides rounds: every warning and ban (who gave it, why, lifted by whom),
and the poker hands a showdown ruling refers to (the dealer terminal's hand numbers)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from sqlalchemy import or_, select
from sqlalchemy.orm import Session, aliased

from floor.errors import BadInput
from floor.models import Ban, Player, PlayerWarning, PokerHand, PokerRuling, Staff, Table
from floor.pit import showdown as disputes
from floor.poker import conduct


def conduct_review(session: Session, days: int = 7, now: datetime | None = None) -> dict:
    """Every warning given and every ban decided in the last ``days`` days, plus every ban still
    in force whenever it started; lifted ones included, with who lifted them and why."""
    if not 1 <= days <= 366:
        raise BadInput("look back 1 to 366 days", field="days")
    now = now or datetime.now(timezone.utc)
    since = now - timedelta(days=days)
    giver, lifter = aliased(Staff), aliased(Staff)
    warnings = []
    for w, player, given_by, lifted_by, table_number in session.execute(
            select(PlayerWarning, Player.name, giver.name, lifter.name, Table.number)
            .join(Player, Player.id == PlayerWarning.player_id)
            .outerjoin(giver, giver.id == PlayerWarning.given_by).outerjoin(lifter, lifter.id == PlayerWarning.lifted_by)
            .outerjoin(Table, Table.id == PlayerWarning.table_id)
            .where(PlayerWarning.at >= since).order_by(PlayerWarning.id.desc())).all():
        warnings.append({**conduct.warning_json(w, player, given_by), "lifted_by": lifted_by,
                         "terminal": w.terminal, "table_number": table_number})
    bans = []
    for b, player, decided_by, lifted_by in session.execute(
            select(Ban, Player.name, giver.name, lifter.name).join(Player, Player.id == Ban.player_id)
            .outerjoin(giver, giver.id == Ban.decided_by).outerjoin(lifter, lifter.id == Ban.lifted_by)
            .where(or_(Ban.starts_at >= since,
                       Ban.lifted_at.is_(None) & or_(Ban.expires_at.is_(None), Ban.expires_at > now)))
            .order_by(Ban.id.desc())).all():
        state = ("lifted" if b.lifted_at is not None else
                 "expired" if b.expires_at is not None and b.expires_at <= now else "in_force")
        bans.append({**conduct.ban_json(b), "player": player, "decided_by_name": decided_by,
                     "lifted_by_name": lifted_by, "state": state})
    return {"since": since.isoformat(), "days": days, "warnings": warnings, "bans": bans}


def _left_of_button(seats: list[int], button: int | None) -> list[int]:
    if button is None:
        return sorted(seats)
    after = sorted(s for s in seats if s > button)
    return after + sorted(s for s in seats if s <= button)


@dataclass(frozen=True)
class HandSeat:
    seat: int
    player_id: int | None
    player: str | None
    role: str | None       # button | small | big | third
    posted: int            # cents posted (blinds, straddle)


@dataclass(frozen=True)
class LaidOutHand:
    """A dealer terminal's hand, its dealt seats in order from the left of the button."""

    hand: PokerHand
    seats: list[HandSeat]


@dataclass(frozen=True)
class LinkedRuling:
    """A poker ruling and the dealer terminal's hand it names, when there is one."""

    ruling: PokerRuling
    hand: LaidOutHand | None


def laid_out(session: Session, h: PokerHand) -> LaidOutHand:
    names = dict(session.execute(select(Player.id, Player.name).where(
        Player.id.in_([s.player_id for s in h.seats]))).all())
    posted: dict[int, int] = {}
    for p in h.postings:
        posted[p.seat_number] = posted.get(p.seat_number, 0) + p.amount
    dealt = {s.seat_number: s for s in h.seats if s.status == "dealt"}
    order = _left_of_button(list(dealt), h.button_seat)
    return LaidOutHand(h, [HandSeat(n, dealt[n].player_id, names.get(dealt[n].player_id), dealt[n].role,
                                    posted.get(n, 0)) for n in order])


def poker_hands(session: Session, table_id: int, limit: int = 15) -> list[LaidOutHand]:
    """The table's last hands, newest first, seats in order from the left of the button (the order
    the showdown tool wants)."""
    rows = session.execute(select(PokerHand).where(PokerHand.table_id == table_id)
                           .order_by(PokerHand.number.desc()).limit(limit)).scalars()
    return [laid_out(session, h) for h in rows]


def ruling_hand(session: Session, ruling: PokerRuling) -> LaidOutHand | None:
    """The dealer terminal's hand a poker ruling names ("12" or "#12"), when there is one."""
    ref = (ruling.hand_ref or "").strip().lstrip("#")
    if not ref.isdigit():
        return None
    h = session.execute(select(PokerHand).where(PokerHand.table_id == ruling.table_id,
                                                PokerHand.number == int(ref))).scalar_one_or_none()
    return laid_out(session, h) if h is not None else None


def poker_rulings(session: Session, limit: int = 20) -> list[LinkedRuling]:
    return [LinkedRuling(x, ruling_hand(session, x)) for x in disputes.rulings(session, limit=limit)]
