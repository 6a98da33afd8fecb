"""Results of a round recomputed by the pure rules (floor.games): from the cards as recorded (the
replay), or with a card or number corrected by the pit boss (a correction).

A result has the same shape as the one the round was settled with, so ``floor.rounds.payouts``
pays it the same way: roulette ``{"number"}``, baccarat ``{"cards", "player", "banker", ...}``,
blackjack and Casino Hold'em the deal flow's ``result()``.
"""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from floor.errors import BadInput
from floor.games import baccarat
from floor.games.cards import Card, InvalidCard
from floor.models import Bet, Round, RoundCard, RoundEvent, RoundRuling, RulingApproval
from floor.models import TableKind
from floor.rounds.engines import baccarat as coup_engine
from floor.rounds.flows import BlackjackFlow, HoldemFlow
from floor.rounds.payouts import payouts
from floor.rounds.table_rules import table_rules
from floor.settings import HouseSettings

CARD_GAMES = ("baccarat", "blackjack", "casino_holdem")


def recorded_cards(session: Session, round_id: int) -> list[RoundCard]:
    """The cards accepted into the round, in the order they were dealt."""
    return list(session.execute(select(RoundCard).where(RoundCard.round_id == round_id, RoundCard.accepted.is_(True))
                                .order_by(RoundCard.step)).scalars())


def _card(code, field: str = "correction") -> Card:
    try:
        return Card.parse(code)
    except InvalidCard as exc:
        raise BadInput("{problem}", field=field, problem=exc) from None


def _baccarat_result(cards: list[Card], dealt: int | None) -> dict:
    coup = baccarat.play(cards)   # GameInputError (400) when the cards do not make a coup
    if dealt is not None and coup.cards_used != dealt:
        raise BadInput("with this correction the coup takes {cards_used} cards, {dealt} were dealt: give the whole coup in shoe order, or void the round", field="correction", cards_used=coup.cards_used, dealt=dealt)
    return coup_engine.result_of(cards)


def replay_flow(session: Session, r: Round, cards: list[Card], house: HouseSettings, targets: list | None = None):
    """The deal flow rebuilt from the round's bets and decisions with ``cards`` in step order, by the
    house's blackjack rules (``targets``, when given, gets where each card went)."""
    main = "bet" if r.kind == TableKind.BLACKJACK else "ante"
    seats: dict[int, int] = {}
    for seat, amount in session.execute(select(Bet.seat, Bet.amount).where(Bet.round_id == r.id, Bet.spot == main)
                                        .order_by(Bet.id)):
        seats[seat] = seats.get(seat, 0) + amount
    flow = BlackjackFlow(seats, table_rules(house).blackjack) if r.kind == TableKind.BLACKJACK else HoldemFlow(seats)
    steps = [c.step for c in recorded_cards(session, r.id)]
    items = [(step, "card", card) for step, card in zip(steps, cards)]
    items += [(e.step, "decision", e.data) for e in session.execute(
        select(RoundEvent).where(RoundEvent.round_id == r.id, RoundEvent.kind == "decision").order_by(RoundEvent.id)).scalars()]
    for _, what, item in sorted(items, key=lambda x: x[0] or 0):
        if what == "card":
            went = flow.apply_card(item)
            if targets is not None:
                targets.append(went)
        elif r.kind == TableKind.BLACKJACK:
            flow.apply_decision(item["seat"], item["action"], item.get("hand"), item.get("amount"))
        else:
            flow.apply_decision(item["seat"], item["action"])
    return flow


def _flow_result(session: Session, r: Round, cards: list[Card], house: HouseSettings) -> dict:
    try:
        flow = replay_flow(session, r, cards, house)
    except BadInput:
        raise
    except Exception as exc:   # NotExpected (a Conflict) and friends: the cards do not make this round
        raise BadInput("the cards do not make this round: {problem}", field="correction", problem=exc) from None
    if flow.expecting()[0] != "done":
        raise BadInput("with these cards the round is not complete: void it instead", field="correction")
    return flow.result()


def flow_targets(session: Session, r: Round, cards: list[Card], house: HouseSettings) -> list[str] | None:
    """Where each of ``cards`` goes when the round is dealt again with them (None: they do not fit)."""
    targets: list[str] = []
    try:
        replay_flow(session, r, cards, house, targets)
    except Exception:
        return None
    return targets


def replayed(session: Session, r: Round, house: HouseSettings) -> dict | None:
    """The result the rules give for the cards (or wheel readings) as recorded; None when there is
    nothing to replay (no cards yet, an incomplete round)."""
    if r.kind == TableKind.ROULETTE:
        dev = r.device or {}
        bare, five = dev.get("bare"), dev.get("five")
        if bare is None and five is None:
            return None
        return {"number": bare if bare is not None else five, "readings": {"bare": bare, "five": five}}
    cards = [Card.parse(c.card) for c in recorded_cards(session, r.id)]
    if not cards:
        return None
    try:
        if r.kind == TableKind.BACCARAT:
            return _baccarat_result(cards, None)
        return _flow_result(session, r, cards, house)
    except BadInput:
        return None


def corrected(session: Session, r: Round, correction: dict, house: HouseSettings) -> dict:
    """The round's result with the pit boss's correction: ``{"number": n}`` (roulette),
    ``{"cards": [...]}`` (baccarat: the whole coup in shoe order) or ``{"replace": {step: card}}``
    (any card game: the card dealt at ``step`` was really ``card``)."""
    if not isinstance(correction, dict) or not correction:
        raise BadInput("say what was mis-read: the number, or the card and what it really was", field="correction")
    if r.kind == TableKind.ROULETTE:
        number = correction.get("number")
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= 36:
            raise BadInput("give the winning number (0-36)", field="number")
        return {"number": number, "spin": r.spin}
    if r.kind not in CARD_GAMES:
        raise BadInput("a {kind} round has no result to correct", field="correction", kind=r.kind)
    recorded = recorded_cards(session, r.id)
    if correction.get("cards"):
        if r.kind != TableKind.BACCARAT:
            raise BadInput("for this game name the card to replace (its place in the deal)", field="cards")
        return _baccarat_result([_card(c, "cards") for c in correction["cards"]], None)
    replace = correction.get("replace")
    if not isinstance(replace, dict) or not replace:
        raise BadInput("name the mis-read card and what it really was", field="replace")
    steps = {c.step: i for i, c in enumerate(recorded)}
    cards = [Card.parse(c.card) for c in recorded]
    changed = False
    for step, code in replace.items():
        try:
            step = int(step)
        except (TypeError, ValueError):
            raise BadInput("no card at place {step!r}", field="replace", step=step) from None
        if step not in steps:
            raise BadInput("no card was dealt at place {step}", field="replace", step=step)
        new = _card(code, "replace")
        changed = changed or new != cards[steps[step]]
        cards[steps[step]] = new
    if not changed:
        raise BadInput("the correction changes no card", field="replace")
    if r.kind == TableKind.BACCARAT:
        return _baccarat_result(cards, len(cards))
    return _flow_result(session, r, cards, house)


def bet_rows(session: Session, round_id: int) -> list[dict]:
    cols = (Bet.id, Bet.account_id, Bet.spot, Bet.numbers, Bet.amount, Bet.seat, Bet.hand, Bet.player_id)
    return [dict(b) for b in session.execute(select(*cols).where(Bet.round_id == round_id).order_by(Bet.id)).mappings()]


def pays(kind: str, result: dict, bets: list[dict], house: HouseSettings) -> list[tuple[int, int]]:
    """(returned, commission) per bet, by the rules (floor.rounds.payouts over floor.games)."""
    return payouts(kind, result, bets, house)


def same_result(kind: str, a: dict | None, b: dict | None) -> bool:
    """Do two results settle the same way (what decides the bets, not bookkeeping like "by_hand")?"""
    if a is None or b is None:
        return False
    if kind == "roulette":
        return a.get("number") == b.get("number")
    if kind == "baccarat":
        keys = ("cards", "winner", "player_total", "banker_total", "player_pair", "banker_pair")
    else:
        keys = ("seats", "dealer", "board")
    return all(a.get(k) == b.get(k) for k in keys)


def corrected_results(session: Session, round_ids: list[int]) -> dict[int, dict]:
    """The result of the last applied correction of each of these rounds (those corrected only)."""
    if not round_ids:
        return {}
    approved = select(RulingApproval.id).where(RulingApproval.ruling_id == RoundRuling.id,
                                               RulingApproval.decision == "approved").exists()
    rows = session.execute(select(RoundRuling.round_id, RoundRuling.result).where(
        RoundRuling.round_id.in_(round_ids), RoundRuling.kind == "correct", RoundRuling.result.is_not(None),
        (RoundRuling.needs_approval.is_(False)) | approved).order_by(RoundRuling.id)).all()
    return {rid: res for rid, res in rows}
