"""Poker disputes: the pit boss enters a hand as it lay (hole cards, board, what each seat put in)
and the house rules (floor.games.poker) say who wins each pot; the ruling is recorded."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from floor import audit, notify
from floor.actors import Actor
from floor.errors import BadInput
from floor.games import poker
from floor.games.base import GameInputError
from floor.games.cards import InvalidCard, parse_cards
from floor.models import PokerRuling, Table


@dataclass(frozen=True)
class SeatHand:
    seat: int              # the seat number at the table
    hole: str              # e.g. "AS KD" (or four cards for Omaha)
    put_in: int            # cents (chips) this seat put into the pot over the whole hand
    folded: bool = False


def evaluate(variant: str, seats: list[SeatHand], boards: list[str], rake: int | None,
             rules: poker.RakeSettings) -> dict:
    """Who wins what. ``seats`` are in order starting left of the button; ``boards`` holds one board,
    or two when the hand was run twice. ``rake`` is the amount the dealer took, or None for the
    house's rake rule (``rules``, the configured ``RakeSettings``) applied to the pot."""
    if not seats:
        raise BadInput("enter at least two seats", field="seats")
    numbers = [s.seat for s in seats]
    if len(set(numbers)) != len(numbers):
        raise BadInput("a seat is entered twice", field="seats")
    if not boards or len(boards) > 2:
        raise BadInput("one board, or two when run twice", field="boards")
    try:
        parsed_boards = [parse_cards(b) for b in boards]
        holes = [parse_cards(s.hole) if not s.folded or s.hole.strip() else [] for s in seats]
        folded = [i for i, s in enumerate(seats) if s.folded]
        contributions = [s.put_in for s in seats]
        if rake is None:
            rake = rules.amount(sum(p.amount for p in poker.pots(contributions, folded) if p.rakeable))
        won = poker.showdown(variant, parsed_boards if len(parsed_boards) > 1 else parsed_boards[0],
                             holes, contributions, folded=folded, rake=rake)
        pot_list = poker.pots(contributions, folded)
        hands = {}
        for i, s in enumerate(seats):
            if s.folded or not holes[i]:
                continue
            hands[s.seat] = [poker.hand_rank(variant, holes[i], b).category for b in parsed_boards]
    except (GameInputError, InvalidCard) as exc:
        raise BadInput("{problem}", field="hand", problem=exc) from None
    return {
        "variant": variant,
        "won": {str(seats[i].seat): amount for i, amount in won.items()},
        "pots": [{"amount": p.amount, "eligible": [seats[i].seat for i in p.eligible]} for p in pot_list],
        "hands": {str(k): v for k, v in hands.items()},
        "rake": rake,
        "total_in": sum(s.put_in for s in seats),
    }


def record_ruling(session: Session, actor: Actor, table: Table, hand_ref: str, variant: str,
                  seats: list[SeatHand], boards: list[str], rake: int | None, reason: str,
                  rules: poker.RakeSettings) -> PokerRuling:
    if table.kind != "poker":
        raise BadInput("table {table} is not a poker table", field="table", table=table.number)
    if not (reason or "").strip():
        raise BadInput("a ruling needs a reason", field="reason")
    result = evaluate(variant, seats, boards, rake, rules)
    inputs = {"seats": [s.__dict__ for s in seats], "boards": boards, "rake": result["rake"]}
    ruling = PokerRuling(table_id=table.id, hand_ref=hand_ref.strip() or "?", variant=variant, inputs=inputs,
                         result=result, reason=reason.strip(), decided_by=actor.staff_id)
    session.add(ruling)
    session.flush()
    audit.record(session, actor, "poker.ruling", f"table:{table.id}",
                 after={"ruling": ruling.id, "hand": ruling.hand_ref, "won": result["won"], "reason": ruling.reason})
    notify.publish(session, "poker.ruling", {"table_id": table.id, "ruling_id": ruling.id, "hand": ruling.hand_ref,
                                             "won": result["won"]}, notify.table_room(table.id), "role:pit_boss")
    return ruling


def rulings(session: Session, table_id: int | None = None, limit: int = 50) -> list[PokerRuling]:
    q = select(PokerRuling).order_by(PokerRuling.id.desc()).limit(limit)
    if table_id is not None:
        q = q.where(PokerRuling.table_id == table_id)
    return list(session.execute(q).scalars())
