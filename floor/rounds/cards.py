"""Cards from the shoe, the scanner or the dealer's terminal, and the decisions of the scanner games.

Baccarat: a shoe ``D`` card's target is checked against ``baccarat.next_target`` (a mismatch is a
misdeal: the round is held); a scanner or dealer card goes where ``next_target`` says. When the coup
is complete the host computes the result itself; with a smart shoe it waits for the shoe's ``G``
result and compares (a mismatch holds). The cut card makes the coup the last of the shoe; a new
shoe must then be confirmed by the dealer before betting opens.

Blackjack and Casino Hold'em: cards go where the deal flow says (floor.rounds.flows), decisions come
from the dealer terminal or the API, and a decision timer answers for a silent player (blackjack:
stand, no insurance; Casino Hold'em: fold).

A card with no dealing round, a card beyond the copies the shoe's decks hold, a result with no
"no more bets" before it: recorded, alerted, never settled.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from floor import audit, notify, timers
from floor.actors import Actor
from floor.errors import BadInput, Conflict, InvalidState, Msg, Term
from floor.games import baccarat
from floor.games.base import GameInputError
from floor.games.cards import Card
from floor.models import Bet, Round, RoundCard, RoundEvent, Shoe
from floor.rounds import bets as bets_svc
from floor.rounds import core
from floor.rounds.core import Outcome, active_round, current_shoe, get_table, hold, last_round, stray
from floor.rounds.flows import BlackjackFlow, HoldemFlow, NotExpected
from floor.settings import HouseSettings

SOURCES = ("shoe", "scanner", "dealer")


def _parse(card) -> Card:
    if isinstance(card, Card):
        return card
    try:
        return Card.parse(card)
    except Exception:
        raise BadInput("not a card: {card!r}", field="card", card=card) from None


def _record(session: Session, r: Round | None, table_id: int, card: Card, source: str, target: str | None,
            at: datetime, accepted: bool, reason: str | None = None, shoe_id: int | None = None) -> RoundCard:
    step = None
    if r is not None and accepted:
        r.steps += 1
        step = r.steps
    rc = RoundCard(round_id=r.id if r is not None else None, table_id=table_id, shoe_id=shoe_id, step=step, at=at,
                   card=str(card), source=source, target=target, accepted=accepted, reason=reason)
    session.add(rc)
    return rc


def accepted(session: Session, round_id: int) -> list[RoundCard]:
    return list(session.execute(select(RoundCard).where(RoundCard.round_id == round_id, RoundCard.accepted.is_(True))
                                .order_by(RoundCard.step)).scalars())


def _card_event(session: Session, r: Round, rc: RoundCard, flow_view: dict | None = None) -> None:
    notify.publish(session, "round.card", {"round_id": r.id, "table_id": r.table_id, "card": rc.card,
                                           "target": rc.target, "source": rc.source, "view": flow_view},
                   notify.table_room(r.table_id), "floor")


def card(session: Session, table_id: int, card, source: str, target: str | None = None, at: datetime | None = None,
         *, index: int | None = None, raw: bytes | None = None, device: str | None = None,
         house: HouseSettings, actor: Actor | None = None) -> Outcome:
    """A card read by the shoe (``target`` "player", "banker" or "burn", ``index`` 1-3), the scanner
    (no target: the deal decides) or typed at the dealer terminal."""
    at = at or core.now_utc()
    if source not in SOURCES:
        raise BadInput("a card comes from {sources}", field="source", sources=", ".join(SOURCES))
    c = _parse(card)
    actor = actor or Actor.device(device or source, table_id)
    table = get_table(session, table_id)
    r = active_round(session, table_id)
    summary = f"card {c} from {source}" + (f" to {target}{index or ''}" if target else "")
    if table.kind == "baccarat":
        out = _baccarat_card(session, actor, table, r, c, source, target, at, house)
    elif table.kind in ("blackjack", "casino_holdem"):
        out = _flow_card(session, actor, table, r, c, source, at, house)
    elif source == "dealer":   # typed at a terminal: the person is told, no device alert
        raise InvalidState("table {table} plays {kind}: its rounds take no cards", code="wrong_game",
                           table=table.number, kind=Term(table.kind))
    else:
        stray(session, actor, table_id, "card_no_round", Msg("Card {card} at table {table} ({kind}): no card game", card=str(c), table=table.number,
                  kind=Term(table.kind)),
              at, {"card": str(c)})
        out = Outcome(None, None)
    core.frame(session, device, table_id, raw, summary, at, out.round_id)
    return out


# --- baccarat ------------------------------------------------------------------------------------

def _shoe_copies(session: Session, shoe_id: int, card: Card) -> int:
    return session.execute(select(func.count(RoundCard.id)).where(
        RoundCard.shoe_id == shoe_id, RoundCard.card == str(card), RoundCard.accepted.is_(True))).scalar_one()


def _baccarat_card(session, actor, table, r, c, source, target, at, house) -> Outcome:
    shoe = current_shoe(session, table.id)
    shoe_id = shoe.id if shoe else None
    if source == "shoe" and _shoe_locked(session, table.id):
        _record(session, r, table.id, c, source, target, at, False, "the shoe reports itself locked", shoe_id)
        if r is not None:
            hold(session, actor, r, f"card {c} dealt while the shoe reports itself locked", at, {"card": str(c)})
        else:
            stray(session, actor, table.id, "card_no_round",
                  Msg("Table {table}: card {card} dealt while the shoe reports itself locked; not settled",
                      table=table.number, card=str(c)), at,
                  {"card": str(c)})
        return Outcome(r.id if r else None, r.status if r else None)
    if shoe is not None and _shoe_copies(session, shoe.id, c) >= shoe.decks:
        _record(session, r, table.id, c, source, target, at, False, f"more than {shoe.decks} copies in the shoe", shoe_id)
        stray(session, actor, table.id, "impossible_card",
              Msg("Table {table}: card {card} beyond the {decks} decks of the shoe; not settled", table=table.number,
                  card=str(c), decks=shoe.decks), at,
              {"card": str(c)}, r)
        if r is not None and r.status == "dealing":
            hold(session, actor, r, f"card {c} beyond the shoe's {shoe.decks} decks", at)
        return Outcome(r.id if r else None, r.status if r else None)
    if target == "burn":
        _record(session, None, table.id, c, source, "burn", at, True, None, shoe_id)
        return Outcome(r.id if r else None, r.status if r else None)
    if r is not None and r.status == "betting" and source == "shoe":
        r = None   # a card out of the shoe while bets are still open: no dealing round
    if r is None or r.status != "dealing":
        _record(session, None, table.id, c, source, target, at, False, "no round dealing", shoe_id)
        stray(session, actor, table.id, "card_no_round",
              Msg("Table {table}: card {card} with no round dealing; not settled", table=table.number, card=str(c)),
              at, {"card": str(c)})
        return Outcome(r.id if r else None, r.status if r else None)
    cards = [Card.parse(x.card) for x in accepted(session, r.id)]
    expected = baccarat.next_target(cards)
    if expected is None or (target is not None and target != expected):
        _record(session, r, table.id, c, source, target, at, False,
                f"misdeal: the tableau wants {expected or 'no card'}, the shoe dealt to {target}", shoe_id)
        hold(session, actor, r, f"misdeal: card {c} to {target}, the tableau wants {expected or 'no more cards'}", at)
        return Outcome(r.id, r.status)
    rc = _record(session, r, table.id, c, source, expected, at, True, None, shoe_id)
    cards.append(c)
    dev = dict(r.device or {})
    if source == "shoe":
        dev["shoe"] = True
    r.device = dev
    session.flush()
    _card_event(session, r, rc)
    if baccarat.next_target(cards) is not None:
        return Outcome(r.id, r.status)
    if dev.get("shoe"):
        shown = dev.get("shoe_result")
        if shown is not None:   # the shoe's G came first (it should not): compare now
            return _compare(session, actor, r, cards, shown, at)
        return Outcome(r.id, r.status).note("coup complete: waiting for the shoe's result")
    return _baccarat_result(session, actor, r, cards, at)


def _baccarat_result(session, actor, r: Round, cards: list[Card], at: datetime) -> Outcome:
    coup = baccarat.play(cards)
    return core.record_result(session, actor, r, {
        "cards": [str(c) for c in cards], "player": [str(c) for c in coup.player], "banker": [str(c) for c in coup.banker],
        "player_total": coup.player_total, "banker_total": coup.banker_total, "winner": coup.winner,
        "player_pair": coup.player_pair, "banker_pair": coup.banker_pair, "natural": coup.natural}, at)


def _compare(session, actor, r: Round, cards, shown: dict, at) -> Outcome:
    coup = baccarat.play(cards)
    mine = {"winner": coup.winner, "player_pair": coup.player_pair, "banker_pair": coup.banker_pair}
    if mine != shown:
        hold(session, actor, r, f"the shoe says {shown['winner']}, the cards say {coup.winner}", at,
             {"shoe": shown, "host": mine})
        return Outcome(r.id, r.status)
    return _baccarat_result(session, actor, r, cards, at)


def shoe_result(session: Session, table_id: int, winner: str, player_pair: bool, banker_pair: bool,
                at: datetime | None = None, *, raw: bytes | None = None, device: str | None = None) -> Outcome:
    """The shoe's own ``G`` result: compared with the host's; never settles by itself."""
    at = at or core.now_utc()
    actor = Actor.device(device or "shoe", table_id)
    table = get_table(session, table_id)
    r = active_round(session, table_id)
    shown = {"winner": winner, "player_pair": bool(player_pair), "banker_pair": bool(banker_pair)}
    out = Outcome(r.id if r else None, r.status if r else None)
    if r is None or r.status not in ("dealing", "result"):
        last = last_round(session, table_id)
        repeat = (r is None and last is not None and last.result is not None and last.status in ("settled", "result")
                  and {k: last.result.get(k) for k in shown} == shown
                  and (last.result_at is None or (at - last.result_at).total_seconds() < 30))
        if not repeat:
            stray(session, actor, table_id, "result_without_no_more_bets",
                  Msg("Shoe at table {table}: result {outcome} with no coup dealing; not settled", table=table.number,
                      outcome=Term(winner)), at, shown, r)
            if r is not None and r.status == "betting":
                hold(session, actor, r, "the shoe gave a result before no more bets", at, shown)
        core.frame(session, device, table_id, raw, f"G {winner}", at, (r or last).id if (r or last) else None)
        return out
    if r.status == "result":   # the same G again
        core.frame(session, device, table_id, raw, f"G {winner} (repeat)", at, r.id)
        return out
    if winner not in ("player", "banker", "tie"):
        hold(session, actor, r, f"the shoe reports {winner}", at, shown)
        core.frame(session, device, table_id, raw, f"G {winner}", at, r.id)
        return Outcome(r.id, r.status)
    cards = [Card.parse(x.card) for x in accepted(session, r.id)]
    if len(cards) < 4 or baccarat.next_target(cards) is not None:
        hold(session, actor, r, "the shoe gave a result before the coup was complete", at, shown)
        out = Outcome(r.id, r.status)
    else:
        out = _compare(session, actor, r, cards, shown, at)
    core.frame(session, device, table_id, raw, f"G {winner}", at, r.id)
    return out


def shoe_lock(session: Session, table_id: int, locked: bool, at: datetime | None = None, *,
              raw: bytes | None = None, device: str | None = None) -> Outcome:
    """The shoe's ``L``: while it reports itself locked, no card from it is dealt."""
    at = at or core.now_utc()
    r = active_round(session, table_id, lock=False)
    core.event(session, r, table_id, "shoe_lock", at, Actor.device(device or "shoe", table_id), {"locked": locked})
    core.frame(session, device, table_id, raw, "shoe locked" if locked else "shoe unlocked", at, r.id if r else None)
    return Outcome(r.id if r else None, r.status if r else None)


def _shoe_locked(session: Session, table_id: int) -> bool:
    last = session.execute(select(RoundEvent.data).where(RoundEvent.table_id == table_id, RoundEvent.kind == "shoe_lock")
                           .order_by(RoundEvent.id.desc()).limit(1)).scalar_one_or_none()
    return bool(last and last.get("locked"))


def cut_card(session: Session, table_id: int, at: datetime | None = None, *, raw: bytes | None = None,
             device: str | None = None) -> Outcome:
    """The cut card came out: the coup dealing now (or the next one) is the last of the shoe."""
    at = at or core.now_utc()
    actor = Actor.device(device or "shoe", table_id)
    r = active_round(session, table_id)
    shoe = current_shoe(session, table_id)
    if shoe is not None and shoe.status == "active":
        shoe.status = "last_coup"
        shoe.cut_at = at
        shoe.last_coup = r.coup if r is not None and r.shoe_id == shoe.id else None
        core.event(session, r, table_id, "cut_card", at, actor, {"shoe": shoe.number, "last_coup": shoe.last_coup})
        notify.publish(session, "shoe.changed", {"table_id": table_id, "shoe": shoe.number, "status": "last_coup"},
                       notify.table_room(table_id), "floor", "board")
    core.frame(session, device, table_id, raw, "cut card", at, r.id if r else None)
    return Outcome(r.id if r else None, r.status if r else None)


def new_shoe(session: Session, actor: Actor, table_id: int, at: datetime | None = None, *,
             house: HouseSettings) -> Shoe:
    """The dealer confirms a new shoe (after the cut card, or to start the day)."""
    at = at or core.now_utc()
    table = get_table(session, table_id)
    if table.kind != "baccarat":
        raise InvalidState("table {table} deals no shoe", code="wrong_game", table=table.number)
    r = active_round(session, table_id)
    if r is not None:
        raise InvalidState("round {round} is {status}: finish it before changing the shoe", code="round_running", round=r.number, status=r.status)
    old = current_shoe(session, table_id)
    if old is not None and old.status != "finished":
        old.status, old.finished_at = "finished", at
    shoe = Shoe(table_id=table_id, number=(old.number + 1) if old else 1, decks=house.baccarat_decks, status="active",
                confirmed_at=at, confirmed_by=actor.name)
    session.add(shoe)
    session.flush()
    audit.record(session, actor, "shoe.confirm", f"table:{table_id}", after={"shoe": shoe.number, "decks": shoe.decks}, at=at)
    notify.publish(session, "shoe.changed", {"table_id": table_id, "shoe": shoe.number, "status": "active"},
                   notify.table_room(table_id), "floor", "board")
    return shoe


# --- blackjack and Casino Hold'em ------------------------------------------------------------------

def build_flow(session: Session, r: Round):
    """Rebuild the deal flow from the round's rows: main bets, accepted cards and decisions by step."""
    main = "bet" if r.kind == "blackjack" else "ante"
    seats: dict[int, int] = {}
    for seat, amount in session.execute(select(Bet.seat, Bet.amount).where(Bet.round_id == r.id, Bet.spot == main)
                                        .order_by(Bet.id)):
        seats[seat] = seats.get(seat, 0) + amount
    flow = BlackjackFlow(seats) if r.kind == "blackjack" else HoldemFlow(seats)
    items = [(c.step, "card", c) for c in accepted(session, r.id)]
    items += [(e.step, "decision", e) for e in session.execute(
        select(RoundEvent).where(RoundEvent.round_id == r.id, RoundEvent.kind == "decision").order_by(RoundEvent.id)).scalars()]
    for _, what, row in sorted(items, key=lambda x: x[0]):
        if what == "card":
            flow.apply_card(Card.parse(row.card))
        elif r.kind == "blackjack":
            d = row.data
            flow.apply_decision(d["seat"], d["action"], d.get("hand"), d.get("amount"))
        else:
            flow.apply_decision(row.data["seat"], row.data["action"])
    return flow


def flow_view(session: Session, r: Round) -> dict | None:
    if r.kind not in ("blackjack", "casino_holdem") or r.status not in ("dealing", "result", "settled", "held"):
        return None
    try:
        flow = build_flow(session, r)
    except Exception:   # a held round may hold cards that do not fit: show nothing rather than fail
        return None
    return flow.view() if r.kind == "casino_holdem" else flow.view(hide_hole=r.status == "dealing")


def _flow_card(session, actor, table, r, c, source, at, house) -> Outcome:
    if r is None or r.status != "dealing":
        _record(session, None, table.id, c, source, None, at, False, "no round dealing")
        stray(session, actor, table.id, "card_no_round",
              Msg("Table {table}: card {card} with no round dealing; not settled", table=table.number, card=str(c)),
              at, {"card": str(c)})
        return Outcome(r.id if r else None, r.status if r else None)
    decks = house.blackjack_decks if table.kind == "blackjack" else 1
    copies = sum(1 for x in accepted(session, r.id) if x.card == str(c))
    flow = build_flow(session, r)
    reason = None
    if copies >= decks:
        reason = f"card {c} beyond the {decks} deck(s) in play"
    else:
        try:
            target = flow.apply_card(c)
        except NotExpected as exc:
            reason = exc.message
    if reason is not None:
        _record(session, r, table.id, c, source, None, at, False, reason)
        hold(session, actor, r, f"a card that does not fit the deal: {reason}", at, {"card": str(c)})
        return Outcome(r.id, r.status)
    rc = _record(session, r, table.id, c, source, target, at, True)
    session.flush()
    _card_event(session, r, rc, flow.view() if r.kind == "casino_holdem" else flow.view())
    return _after_flow(session, actor, r, flow, at, house)


def _after_flow(session: Session, actor: Actor, r: Round, flow, at: datetime, house: HouseSettings) -> Outcome:
    exp = flow.expecting()
    if exp[0] == "done":
        return core.record_result(session, actor, r, flow.result(), at)
    if exp[0] in ("decision", "insurance"):
        run_at = at + timedelta(seconds=house.decision_seconds)
        dev = dict(r.device or {})
        if dev.get("decision_step") != r.steps:
            dev.update(decision_step=r.steps, decision_until=run_at.isoformat())
            r.device = dev
            timers.set_timer(session, f"round:{r.id}:decision", "rounds.decision_timeout", run_at, r.id, r.steps)
        core.publish(session, r, "round.decision")
    return Outcome(r.id, r.status)


def decide(session: Session, actor: Actor, table_id: int, seat: int, action: str, at: datetime | None = None, *,
           hand: int | None = None, amount: int | None = None, player_id: int | None = None,
           house: HouseSettings) -> Outcome:
    """A player's decision (hit, stand, double, split, insurance, no_insurance; call, fold), from the
    dealer terminal or the API. ``player_id``, when given, must own the seat this round."""
    at = at or core.now_utc()
    table = get_table(session, table_id)
    r = active_round(session, table_id)
    if r is None or r.status != "dealing" or table.kind not in ("blackjack", "casino_holdem"):
        raise InvalidState("no decision is expected at table {table}", code="not_expected", table=table.number)
    owner = bets_svc.seat_owner(session, r, seat)
    if owner is None:
        raise Conflict("seat {seat} has no bet this round", code="no_bet", seat=seat)
    if player_id is not None and owner.player_id != player_id:
        raise Conflict("seat {seat} is not player {player_id}'s this round", code="not_your_seat", seat=seat, player_id=player_id)
    flow = build_flow(session, r)
    try:
        extra = (flow.apply_decision(seat, action, hand, amount) if r.kind == "blackjack"
                 else flow.apply_decision(seat, action))
    except GameInputError:
        raise
    if extra:
        bets_svc.place_extra(session, actor, r, seat, extra["spot"], extra["amount"], extra["hand"], at)
    r.steps += 1
    data = {"seat": seat, "action": action, "hand": hand, "amount": extra.get("amount") if extra else None}
    core.event(session, r, table_id, "decision", at, actor, data, step=r.steps)
    audit.record(session, actor, "round.decision", f"round:{r.id}", after=data, at=at)
    session.flush()
    return _after_flow(session, actor, r, flow, at, house)


def decision_timeout(session: Session, round_id: int, step: int, at: datetime | None = None, *,
                     house: HouseSettings) -> Outcome | None:
    """The decision timer: nobody answered since ``step``, so the default applies (stand, no
    insurance, fold)."""
    at = at or core.now_utc()
    r = core.get_round(session, round_id, lock=True)
    if r.status != "dealing" or r.steps != step:
        return None
    actor = Actor.system("decision timer")
    flow = build_flow(session, r)
    if r.kind == "blackjack":
        d = flow.default_decision()
        return decide(session, actor, r.table_id, d[0], d[1], at, house=house) if d else None
    out = None
    for seat, action in flow.default_decisions():
        out = decide(session, actor, r.table_id, seat, action, at, house=house)
    return out
