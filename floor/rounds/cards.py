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
from floor.games.base import GameInputError
from floor.games.cards import Card
from floor.models import Round, RoundCard, RoundEvent, Shoe
from floor.models import RoundStatus, TableKind
from floor.rounds import bets as bets_svc
from floor.rounds import core
from floor.rounds.core import Outcome, active_round, current_shoe, get_table, hold, last_round, stray
from floor.rounds.engines import baccarat as coup_engine
from floor.rounds.flows import NotExpected
from floor.rounds.history import recorded_cards as accepted
from floor.rounds.history import replay_flow
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


def _card_event(session: Session, r: Round, rc: RoundCard, shown: dict | None = None) -> None:
    notify.publish(session, "round.card", {"round_id": r.id, "table_id": r.table_id, "card": rc.card,
                                           "target": rc.target, "source": rc.source, "view": shown},
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
    if source != "dealer":      # only the device's own reading says it is back, never a card keyed by hand
        device_back(session, table_id, at, actor)
    r = active_round(session, table_id)
    if source == "dealer" and r is not None:
        core.note_keyer(r, actor)   # at a table on entry by hand, none who typed a card confirms the result
    summary = (Msg("card {card} from {source} to {target}", card=str(c), source=source, target=f"{target}{index or ''}")
               if target else Msg("card {card} from {source}", card=str(c), source=source))
    if table.kind == TableKind.BACCARAT:
        out = _baccarat_card(session, actor, table, r, c, source, target, at, index)
        if r is not None and r.status == RoundStatus.DEALING and source != "dealer":
            wait_for_device(session, r, at, house, True)
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


# --- a device that goes away mid-deal --------------------------------------------------------------

def wait_for_device(session: Session, r: Round, at: datetime, house: HouseSettings | None,
                    from_device: bool | None = None) -> None:
    """The deal waits for the device's next card: if nothing comes within the house's
    ``device_wait_seconds`` the round is held (``rounds.device_silent``). Only a deal a device
    takes part in (``from_device``; None: whether a device read one of its cards) waits so: a
    dealer typing the cards at his terminal is no device going away."""
    wait = (house or HouseSettings()).device_wait_seconds
    if from_device is None:
        from_device = any(x.source != "dealer" for x in accepted(session, r.id))
    if wait <= 0 or not from_device:
        return
    r.device = {**(r.device or {}), "device_step": r.steps}
    timers.set_timer(session, f"round:{r.id}:device", "rounds.device_silent", at + timedelta(seconds=wait),
                     r.id, r.steps)


def device_silent(session: Session, round_id: int, step: int, at: datetime, house: HouseSettings) -> bool:
    """The device said nothing for ``device_wait_seconds`` mid-deal (unplugged, its process killed):
    the round is held for the pit boss, with an alert. True when it was."""
    r = core.get_round(session, round_id, lock=True)
    if r.status != RoundStatus.DEALING or r.steps != step or (r.device or {}).get("device_step") != step:
        return False   # a card came meanwhile, or the round moved on
    r.device = {**(r.device or {}), "away": True}
    hold(session, Actor.system("device wait"), r,
         Msg("no card from the table's device for {seconds} s mid-deal; the deal goes on if the rest arrives",
             seconds=house.device_wait_seconds), at, {"device_away": True, "step": step})
    return True


def device_back(session: Session, table_id: int, at: datetime, actor: Actor) -> Round | None:
    """The device of a round held because it went away speaks again: the round goes on where it
    stopped, once (a round the pit boss settled or voided meanwhile stays as he left it)."""
    r = session.execute(select(Round).where(Round.table_id == table_id, Round.status == RoundStatus.HELD)
                        .order_by(Round.id.desc()).limit(1).with_for_update()
                        .execution_options(populate_existing=True)).scalar_one_or_none()
    if r is None or not (r.device or {}).get("away") or active_round(session, table_id, lock=False) is not None:
        return None
    r.device = {**r.device, "away": False}
    r.held_reason = None
    core.set_status(session, r, RoundStatus.DEALING, at, actor, kind="device_back")
    return r


# --- baccarat ------------------------------------------------------------------------------------

def _coup_state(session: Session, table_id: int, r: Round | None) -> coup_engine.CoupState:
    """The baccarat engine's view of the table: the round dealing, its cards, the shoe."""
    shoe = current_shoe(session, table_id)
    counts = {} if shoe is None else dict(session.execute(
        select(RoundCard.card, func.count(RoundCard.id)).where(RoundCard.shoe_id == shoe.id, RoundCard.accepted.is_(True))
        .group_by(RoundCard.card)).all())
    last = None
    if r is None:
        lr = last_round(session, table_id)
        if lr is not None:
            last = {"result": lr.result, "status": lr.status, "at": lr.result_at}
    return coup_engine.CoupState(
        status=r.status if r is not None else None,
        cards=tuple(Card.parse(x.card) for x in accepted(session, r.id)) if r is not None else (),
        from_shoe=bool((r.device or {}).get("shoe")) if r is not None else False,
        decks=shoe.decks if shoe is not None else None, counts=counts, locked=_shoe_locked(session, table_id),
        last=last, table=get_table(session, table_id).number)


def _apply_coup(session: Session, actor: Actor, table, r: Round | None, outcomes: list, at: datetime,
                source: str | None = None) -> Outcome:
    """The baccarat engine's outcomes as rows."""
    shoe = current_shoe(session, table.id)
    shoe_id = shoe.id if shoe else None
    out = Outcome(r.id if r else None, r.status if r else None)
    for o in outcomes:
        if isinstance(o, coup_engine.Accept) and o.target == "burn":
            _record(session, None, table.id, o.card, source, "burn", at, True, None, shoe_id)
        elif isinstance(o, coup_engine.Accept):
            rc = _record(session, r, table.id, o.card, source, o.target, at, True, None, shoe_id)
            if source == "shoe":
                r.device = {**(r.device or {}), "shoe": True}
            session.flush()
            _card_event(session, r, rc)
        elif isinstance(o, coup_engine.Repeat):
            out.note(f"card {o.card} again for the same place: a repeat")
        elif isinstance(o, coup_engine.Refuse):
            _record(session, r if o.in_round else None, table.id, o.card, source, o.target, at, False, o.reason,
                    shoe_id)
        elif isinstance(o, coup_engine.Hold):
            hold(session, actor, r, o.reason, at, o.data)
        elif isinstance(o, coup_engine.Stray):
            stray(session, actor, table.id, o.kind, o.message, at, o.data,
                  r if o.in_round else None)
        elif isinstance(o, coup_engine.Waiting):
            out.note(o.note)
        elif isinstance(o, coup_engine.Result):
            out.settle = core.record_result(session, actor, r, o.result, at).settle
    if r is not None:
        out.status = r.status
    return out


def _baccarat_card(session, actor, table, r, c, source, target, at, index=None) -> Outcome:
    _, outcomes = coup_engine.step(_coup_state(session, table.id, r), coup_engine.Dealt(c, source, target, index), at)
    return _apply_coup(session, actor, table, r, outcomes, at, source)


def shoe_result(session: Session, table_id: int, winner: str, player_pair: bool, banker_pair: bool,
                at: datetime | None = None, *, raw: bytes | None = None, device: str | None = None) -> Outcome:
    """The shoe's own ``G`` result: compared with the host's; never settles by itself."""
    at = at or core.now_utc()
    actor = Actor.device(device or "shoe", table_id)
    table = get_table(session, table_id)
    device_back(session, table_id, at, actor)
    r = active_round(session, table_id)
    repeat = r is not None and r.status == RoundStatus.RESULT
    _, outcomes = coup_engine.step(_coup_state(session, table_id, r),
                                   coup_engine.ShoeSays(winner, bool(player_pair), bool(banker_pair)), at)
    out = _apply_coup(session, actor, table, r, outcomes, at)
    filed = r or last_round(session, table_id)
    said = Msg("G {winner} (repeat)", winner=Term(winner)) if repeat else Msg("G {winner}", winner=Term(winner))
    core.frame(session, device, table_id, raw, said, at, filed.id if filed else None)
    return out


def shoe_lock(session: Session, table_id: int, locked: bool, at: datetime | None = None, *,
              raw: bytes | None = None, device: str | None = None) -> Outcome:
    """The shoe's ``L``: while it reports itself locked, no card from it is dealt."""
    at = at or core.now_utc()
    r = active_round(session, table_id, lock=False)
    shoe = current_shoe(session, table_id)
    core.event(session, r, table_id, "shoe_lock", at, Actor.device(device or "shoe", table_id),
               {"locked": locked, "shoe": shoe.id if shoe is not None else None})
    core.frame(session, device, table_id, raw, Msg("shoe locked") if locked else Msg("shoe unlocked"), at, r.id if r else None)
    return Outcome(r.id if r else None, r.status if r else None)


def _shoe_locked(session: Session, table_id: int) -> bool:
    """Whether the current shoe last said it is locked: a new shoe starts unlocked, whatever the
    shoe before it said last."""
    shoe = current_shoe(session, table_id)
    last = session.execute(select(RoundEvent.data).where(RoundEvent.table_id == table_id, RoundEvent.kind == "shoe_lock")
                           .order_by(RoundEvent.id.desc()).limit(1)).scalar_one_or_none()
    return bool(last and last.get("locked") and shoe is not None and last.get("shoe") == shoe.id)


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
    core.frame(session, device, table_id, raw, Msg("cut card"), at, r.id if r else None)
    return Outcome(r.id if r else None, r.status if r else None)


def new_shoe(session: Session, actor: Actor, table_id: int, at: datetime | None = None, *,
             house: HouseSettings) -> Shoe:
    """The dealer confirms a new shoe (after the cut card, or to start the day)."""
    at = at or core.now_utc()
    table = get_table(session, table_id)
    if table.kind != TableKind.BACCARAT:
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

def build_flow(session: Session, r: Round, house: HouseSettings):
    """Rebuild the deal flow from the round's rows: main bets, accepted cards and decisions by step."""
    return replay_flow(session, r, [Card.parse(c.card) for c in accepted(session, r.id)], house)


def shown_flow(session: Session, r: Round, house: HouseSettings) -> dict | None:
    """The deal of a blackjack or Casino Hold'em round as a player may see it (see the flows' ``view``)."""
    if r.kind not in ("blackjack", "casino_holdem") or r.status not in ("dealing", "result", "settled", "held"):
        return None
    try:
        flow = build_flow(session, r, house)
    except Exception:   # a held round may hold cards that do not fit: show nothing rather than fail
        return None
    return flow.view() if r.kind == TableKind.CASINO_HOLDEM else flow.view(hide_hole=r.status == RoundStatus.DEALING)


def _flow_card(session, actor, table, r, c, source, at, house) -> Outcome:
    if r is None or r.status != RoundStatus.DEALING:
        _record(session, None, table.id, c, source, None, at, False, Msg("no round dealing"))
        stray(session, actor, table.id, "card_no_round",
              Msg("Table {table}: card {card} with no round dealing; not settled", table=table.number, card=str(c)),
              at, {"card": str(c)})
        return Outcome(r.id if r else None, r.status if r else None)
    decks = house.blackjack_decks if table.kind == TableKind.BLACKJACK else 1
    copies = sum(1 for x in accepted(session, r.id) if x.card == str(c))
    flow = build_flow(session, r, house)
    reason = None
    if copies >= decks:
        reason = Msg("card {card} beyond the {decks} deck(s) in play", card=str(c), decks=decks)
    else:
        try:
            target = flow.apply_card(c)
        except NotExpected as exc:
            reason = exc.message
    if reason is not None:
        _record(session, r, table.id, c, source, None, at, False, reason)
        hold(session, actor, r, Msg("a card that does not fit the deal: {reason}", reason=reason), at, {"card": str(c)})
        return Outcome(r.id, r.status)
    rc = _record(session, r, table.id, c, source, target, at, True)
    session.flush()
    _card_event(session, r, rc, flow.view() if r.kind == TableKind.CASINO_HOLDEM else flow.view())
    return _after_flow(session, actor, r, flow, at, house)


def _after_flow(session: Session, actor: Actor, r: Round, flow, at: datetime, house: HouseSettings) -> Outcome:
    exp = flow.expecting()
    if exp[0] == "done":
        timers.cancel_timer(session, f"round:{r.id}:device")
        return core.record_result(session, actor, r, flow.result(), at)
    if exp[0] == "card" and r.status == RoundStatus.DEALING:
        wait_for_device(session, r, at, house)
    elif exp[0] in ("decision", "insurance"):
        timers.cancel_timer(session, f"round:{r.id}:device")   # the player's turn: his timer runs
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
    if r is None or r.status != RoundStatus.DEALING or table.kind not in ("blackjack", "casino_holdem"):
        raise InvalidState("no decision is expected at table {table}", code="not_expected", table=table.number)
    owner = bets_svc.seat_owner(session, r, seat)
    if owner is None:
        raise Conflict("seat {seat} has no bet this round", code="no_bet", seat=seat)
    if player_id is not None and owner.player_id != player_id:
        raise Conflict("seat {seat} is not player {player_id}'s this round", code="not_your_seat", seat=seat, player_id=player_id)
    flow = build_flow(session, r, house)
    try:
        extra = (flow.apply_decision(seat, action, hand, amount) if r.kind == TableKind.BLACKJACK
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
    if r.status != RoundStatus.DEALING or r.steps != step:
        return None
    actor = Actor.system("decision timer")
    flow = build_flow(session, r, house)
    if r.kind == TableKind.BLACKJACK:
        d = flow.default_decision()
        return decide(session, actor, r.table_id, d[0], d[1], at, house=house) if d else None
    out = None
    for seat, action in flow.default_decisions():
        out = decide(session, actor, r.table_id, seat, action, at, house=house)
    return out
