"""The dealer's and the pit boss's moves on a round, device faults, and what the pages show."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from floor import alerts, audit, timers
from floor.actors import Actor
from floor.errors import BadInput, Conflict, InvalidState, Msg
from floor.games import roulette
from floor.games.base import GameInputError
from floor.models import Bet, Round, RoundCard, Settlement, Shoe, Table
from floor.models import AlertKind, AlertSeverity, RoundStatus, TableKind
from floor.rounds import core, history, twoperson
from floor.rounds.engines import baccarat as coup_engine
from floor.rounds.cards import accepted, build_flow, shown_flow, wait_for_device
from floor.rounds.core import Outcome, active_round, current_shoe, get_table, hold
from floor.settings import HouseSettings


def open_betting(session: Session, actor: Actor, table_id: int, at: datetime | None = None, *,
                 house: HouseSettings) -> Round:
    """The dealer opens betting; it closes by itself after ``betting_seconds``."""
    at = at or core.now_utc()
    return core.open_round(session, actor, get_table(session, table_id), at, house)


def close_betting(session: Session, actor: Actor, table_id: int, at: datetime | None = None, *,
                  round_id: int | None = None) -> Round | None:
    """"No more bets": roulette rounds lock (the wheel then spins), card rounds start dealing. A
    blackjack or Casino Hold'em round with no bet has nothing to deal and ends void."""
    at = at or core.now_utc()
    r = active_round(session, table_id)
    if r is None or r.status != RoundStatus.BETTING or (round_id is not None and r.id != round_id):
        if round_id is not None:
            return None   # the betting timer of a round already closed
        raise InvalidState("no round is taking bets", code="not_betting")
    timers.cancel_timer(session, f"round:{r.id}:betting")
    if r.kind == TableKind.ROULETTE:
        core.set_status(session, r, RoundStatus.LOCKED, at, actor, kind="no_more_bets")
        return r
    if r.kind in ("blackjack", "casino_holdem"):
        main = "bet" if r.kind == TableKind.BLACKJACK else "ante"
        has = session.execute(select(Bet.id).where(Bet.round_id == r.id, Bet.spot == main).limit(1)).first()
        if has is None:
            core.void(session, actor, r.id, Msg("no bets"), at)
            return r
    core.set_status(session, r, RoundStatus.DEALING, at, actor, kind="no_more_bets")
    if r.kind in ("blackjack", "casino_holdem"):
        core.publish(session, r, "round.decision")
    return r


def coup_start(session: Session, table_id: int, at: datetime | None = None, *, raw: bytes | None = None,
               device: str | None = None, house: HouseSettings | None = None) -> Outcome:
    """The shoe's ``S``: the dealer started the coup, so betting is closed if it was still open."""
    at = at or core.now_utc()
    r = active_round(session, table_id)
    if r is not None and r.status == RoundStatus.BETTING:
        close_betting(session, Actor.device(device or "shoe", table_id), table_id, at)
    if r is not None and r.status == RoundStatus.DEALING:
        wait_for_device(session, r, at, house, True)
    core.frame(session, device, table_id, raw, Msg("coup start"), at, r.id if r else None)
    return Outcome(r.id if r else None, r.status if r else None)


def device_fault(session: Session, table_id: int, reason: str, at: datetime | None = None, *,
                 raw: bytes | None = None, device: str | None = None) -> Outcome:
    """A fault the device reports, a fall to "closed", or the line lost mid-round: hold the round."""
    at = at or core.now_utc()
    actor = Actor.device(device or "device", table_id)
    r = active_round(session, table_id)
    if r is not None and r.status in ("betting", "locked", "dealing"):
        hold(session, actor, r, Msg("device: {reason}", reason=reason), at)
    elif r is None:
        table = get_table(session, table_id)
        alerts.raise_alert(session, actor, AlertKind.DEVICE_FAULT, Msg("Table {table}: {reason}", table=table.number, reason=reason),
                           severity=AlertSeverity.WARNING,
                           table_id=table_id)
    core.frame(session, device, table_id, raw, Msg("fault: {reason}", reason=reason), at, r.id if r else None)
    return Outcome(r.id if r else None, r.status if r else None)


def refused_frame(session: Session, table_id: int, reason: str, at: datetime | None = None, *,
                  raw: bytes | None = None, device: str | None = None) -> Outcome:
    """A frame the line refused that the floor must hear of (a reused SEQ): alerted and filed on the
    round's timeline; it changes nothing in the round."""
    at = at or core.now_utc()
    actor = Actor.device(device or "device", table_id)
    r = active_round(session, table_id, lock=False)
    table = get_table(session, table_id)
    alerts.raise_alert(session, actor, AlertKind.DEVICE_FRAME_REFUSED, Msg("Table {table}: {reason}", table=table.number,
                                                                    reason=reason),
                       severity=AlertSeverity.WARNING, table_id=table_id, data={"reason": reason})
    core.frame(session, device, table_id, raw, Msg("refused: {reason}", reason=reason), at, r.id if r else None)
    return Outcome(r.id if r else None, r.status if r else None)


def held_result(session: Session, r: Round, result: dict | None, house: HouseSettings) -> dict:
    """The result a held round settles with: the one the pit boss gives (roulette ``{"number": n}``,
    baccarat ``{"cards": [...]}`` in shoe order) or, without one, the cards as recorded."""
    result = dict(result or {})
    if r.kind == TableKind.ROULETTE:
        number = result.get("number")
        if number is None:
            dev = r.device or {}
            number = dev.get("bare") if dev.get("bare") is not None and dev.get("bare") == dev.get("five") else None
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= 36:
            raise BadInput("give the winning number (0-36)", field="number")
        return {"number": number, "spin": r.spin, "by_hand": True}
    if r.kind == TableKind.BACCARAT:
        cards = result.get("cards") or [c.card for c in accepted(session, r.id)]
        try:
            return {**coup_engine.result_of(cards), "by_hand": True}
        except GameInputError as exc:   # 400 naming the cards when they do not make a coup
            exc.field = exc.field or "cards"
            raise
    if result:
        raise BadInput("blackjack and Casino Hold'em rounds settle from the cards as recorded", field="result")
    try:
        flow = build_flow(session, r, house)
    except Exception as exc:
        raise Conflict("the recorded cards do not make a round ({exc}); void it", code="incomplete", exc=exc) from None
    if flow.expecting()[0] != "done":
        raise Conflict("the round is not complete; void it", code="incomplete")
    return {**flow.result(), "by_hand": True}


def held_moves(session: Session, r: Round, result: dict, house: HouseSettings) -> int:
    """What settling the held round with ``result`` moves (the two-person rule compares it)."""
    bets = history.bet_rows(session, r.id)
    return twoperson.settling_moves(bets, history.pays(r.kind, result, bets, house))


def settle_held(session: Session, actor: Actor, round_id: int, result: dict | None = None,
                at: datetime | None = None, *, house: HouseSettings, ruling_id: int | None = None) -> Settlement | None:
    """The pit boss settles a held round, from a result he gives or from the cards as recorded.
    Above the two-person threshold only with ``ruling_id``, a ruling a second pit boss approved.
    The round goes from "held" to "settled" without counting as the table's live round again, so
    the table may play on meanwhile."""
    at = at or core.now_utc()
    r = core.get_round(session, round_id, lock=True)
    if r.status != RoundStatus.HELD:
        raise InvalidState("round {round} is {status}; only a held round is settled by hand", code="not_held", round=r.id, status=r.status)
    twoperson.nothing_waiting(session, r, ruling_id)
    fixed = held_result(session, r, result, house)
    twoperson.require(session, r, held_moves(session, r, fixed, house), house, ruling_id)
    r.result = fixed
    r.result_at = at
    core.event(session, r, r.table_id, "result", at, actor, {"by_hand": True, "result": core.public_result(r)})
    return core.settle(session, r.id, at=at, actor=actor, house=house, from_held=True)


def void_round(session: Session, actor: Actor, round_id: int, reason: str, at: datetime | None = None, *,
               house: HouseSettings, ruling_id: int | None = None) -> Settlement:
    """Void a round not settled yet: every stake comes back. Above the two-person threshold only
    with an approved ruling (``ruling_id``)."""
    if not isinstance(reason, Msg):     # the floor's own sentence (a ruling's) is kept whole
        reason = (reason or "").strip()
    if not reason.strip():
        raise BadInput("say why the round is voided", field="reason")
    r = core.get_round(session, round_id, lock=True)
    staked = sum(b["amount"] for b in history.bet_rows(session, r.id))
    twoperson.require(session, r, staked, house, ruling_id)
    return core.void(session, actor, round_id, reason, at)


# --- what pages show -----------------------------------------------------------------------------

@dataclass
class ShownCard:
    """A card of the round as a page may show it (the hole card is "??" until turned over)."""

    card: str
    target: str | None
    source: str
    accepted: bool
    reason: str | None
    at: datetime


@dataclass
class BetLine:
    id: int
    account_id: int
    spot: str
    numbers: list[int] | None
    amount: int
    seat: int | None
    hand: int | None
    player_id: int | None
    requested: int | None
    source: str
    paid: int | None = None   # once settled or voided: what the ledger handed back (stake excluded)


@dataclass
class Keyed:
    """A result keyed by hand at the terminal, waiting for its second person."""

    result: dict          # in the game's own terms, like a round's result
    at: str | None
    keyed_by: list[str]
    keyed_by_ids: list[int]


@dataclass
class EntryByHand:
    """A table on entry by hand: its device (wheel, shoe, scanner) not used, since when, why, who."""

    device: str
    reason: str
    at: str | None
    by: str


@dataclass
class RoundDetail:
    """One round with what the dealer terminal and the pit boss see of it."""

    round: Round
    table: Table
    result: dict | None
    cards: list[ShownCard]
    bets: list[BetLine]
    staked: int
    settlement: Settlement | None
    flow: dict | None = None            # blackjack / Casino Hold'em: the deal as a player may see it
    decision_until: str | None = None   # while dealing: when the decision timer answers for the player
    keyed: Keyed | None = None          # entry by hand: the result keyed, waiting for its second person


@dataclass
class TableState:
    """What the dealer terminal shows: the table, its live round (or its last one) and the shoe."""

    table: Table
    round: RoundDetail | None
    shoe: Shoe | None
    entry_by_hand: EntryByHand | None = None   # the table plays on by hand (its device not used)


def held_rounds(session: Session, house: HouseSettings) -> list[RoundDetail]:
    rows = session.execute(select(Round).where(Round.status == RoundStatus.HELD).order_by(Round.id)).scalars().all()
    return [round_detail(session, r, house) for r in rows]


def round_detail(session: Session, r: Round, house: HouseSettings) -> RoundDetail:
    cards = [ShownCard(c.card, c.target, c.source, c.accepted, c.reason, c.at)
             for c in session.execute(select(RoundCard).where(RoundCard.round_id == r.id)
                                      .order_by(RoundCard.id)).scalars()]
    rows = session.execute(select(*core.BET_COLUMNS, Bet.requested, Bet.source).where(Bet.round_id == r.id)
                           .order_by(Bet.id)).mappings().all()
    bet_lines = [BetLine(**b) for b in rows]
    settlement = session.execute(select(Settlement).where(Settlement.round_id == r.id)).scalar_one_or_none()
    if settlement is not None:
        paid = core.paid_by_bet(session, r.id)
        for b in bet_lines:
            b.paid = paid.get(b.id, 0)
    view = shown_flow(session, r, house)
    if r.status == RoundStatus.DEALING and r.kind == TableKind.BLACKJACK and r.result is None:
        # never show the hole card before the dealer turns it over
        dealer_cards = [c for c in cards if c.target == "dealer" and c.accepted]
        if len(dealer_cards) >= 2 and view and view["dealer"][1:2] == ["??"]:
            dealer_cards[1].card = "??"
    if r.kind == TableKind.CASINO_HOLDEM and r.status == RoundStatus.DEALING:
        for c in cards:
            if c.target == "dealer":
                c.card = "??"
    dev = r.device or {}
    return RoundDetail(round=r, table=get_table(session, r.table_id), result=core.public_result(r), cards=cards,
                       bets=bet_lines, staked=sum(b.amount for b in bet_lines), settlement=settlement, flow=view,
                       decision_until=(dev.get("decision_until") or None) if r.status == RoundStatus.DEALING else None,
                       keyed=_keyed(dev.get("keyed")))


def _keyed(keyed: dict | None) -> "Keyed | None":
    if not keyed:
        return None
    res = {k: v for k, v in (keyed.get("result") or {}).items() if k != "flow"}
    return Keyed(result=res, at=keyed.get("at"), keyed_by=[k.get("name") for k in keyed.get("by") or []],
                 keyed_by_ids=[k.get("id") for k in keyed.get("by") or []])


def table_state(session: Session, table_id: int, house: HouseSettings) -> TableState:
    """What the dealer terminal shows: the live round (or the last one) and the shoe."""
    table = get_table(session, table_id)
    r = active_round(session, table_id, lock=False) or core.last_round(session, table_id)
    return TableState(table=table, round=round_detail(session, r, house) if r is not None else None,
                      shoe=current_shoe(session, table_id) if table.kind == TableKind.BACCARAT else None,
                      entry_by_hand=_entry(core.entry_by_hand(session, table_id)))


def _entry(mode: dict | None) -> EntryByHand | None:
    if mode is None:
        return None
    return EntryByHand(device=mode.get("device") or "device", reason=mode.get("reason") or "", at=mode.get("at"),
                       by=mode.get("by") or "")


@dataclass
class NumberSeen:
    number: int
    colour: str   # red | black | green
    count: int    # spins it came up on, among the last ones counted


@dataclass
class RouletteHistory:
    last: list[NumberSeen]   # newest first
    hot: list[NumberSeen]
    cold: list[NumberSeen]
    spins: int


@dataclass
class Bead:
    coup: int
    winner: str   # player | banker | tie
    player_pair: bool
    banker_pair: bool
    total: int


@dataclass
class RoadCell:
    winner: str | None   # None: ties before the shoe's first decision
    ties: int = 0


@dataclass
class BaccaratRoads:
    shoe: Shoe | None
    beads: list[Bead]
    big_road: list[list[RoadCell]]
    counts: dict[str, int]   # player, banker, tie


@dataclass
class BoardGame:
    """A table on the TV board with its history (one of the two, by its game)."""

    table: Table
    roulette: RouletteHistory | None = None
    baccarat: BaccaratRoads | None = None


def roulette_history(session: Session, table_id: int, limit: int = 20, stats_over: int = 200) -> RouletteHistory:
    rows = session.execute(select(Round.id, Round.result).where(Round.table_id == table_id, Round.kind == TableKind.ROULETTE,
                                                                Round.status == RoundStatus.SETTLED)
                           .order_by(Round.number.desc()).limit(stats_over)).all()
    fixed = history.corrected_results(session, [rid for rid, _ in rows])   # as the pit boss corrected them
    rows = [fixed.get(rid, res) for rid, res in rows]
    numbers = [r["number"] for r in rows if r and "number" in r]
    counts = Counter(numbers)
    ranked = sorted(range(37), key=lambda n: (-counts[n], n))
    cold = sorted(range(37), key=lambda n: (counts[n], n))
    seen = lambda n: NumberSeen(n, "green" if n == 0 else ("red" if n in roulette.RED else "black"), counts[n])  # noqa: E731
    return RouletteHistory(last=[seen(n) for n in numbers[:limit]], hot=[seen(n) for n in ranked[:5]],
                           cold=[seen(n) for n in cold[:5]], spins=len(numbers))


def baccarat_roads(session: Session, table_id: int) -> BaccaratRoads:
    """Bead plate and big road of the current shoe."""
    shoe = current_shoe(session, table_id)
    if shoe is None:
        return BaccaratRoads(shoe=None, beads=[], big_road=[], counts={"player": 0, "banker": 0, "tie": 0})
    rows = session.execute(select(Round.coup, Round.result, Round.id).where(Round.shoe_id == shoe.id, Round.status == RoundStatus.SETTLED)
                           .order_by(Round.coup)).all()
    fixed = history.corrected_results(session, [x[2] for x in rows])   # as the pit boss corrected them
    rows = [(c, fixed.get(rid, res)) for c, res, rid in rows]
    beads = [Bead(coup=c, winner=res["winner"], player_pair=res.get("player_pair", False),
                  banker_pair=res.get("banker_pair", False),
                  total=max(res.get("player_total", 0), res.get("banker_total", 0)))
             for c, res in rows if res and "winner" in res]
    # big road: a new column each time the winner changes (ties mark the last cell), 6 rows then tail right
    columns: list[list[RoadCell]] = []
    last = None
    for b in beads:
        if b.winner == "tie":
            if columns:
                columns[-1][-1].ties += 1
            else:
                columns.append([RoadCell(None, 1)])
            continue
        if last is not None and b.winner == last and columns:
            columns[-1].append(RoadCell(b.winner))
        elif columns and columns[-1][0].winner is None:
            columns[-1][0].winner = b.winner
        else:
            columns.append([RoadCell(b.winner)])
        last = b.winner
    counts = Counter(b.winner for b in beads)
    return BaccaratRoads(shoe=shoe, beads=beads, big_road=columns,
                         counts={"player": counts["player"], "banker": counts["banker"], "tie": counts["tie"]})


def board_games(session: Session) -> list[BoardGame]:
    """Every open roulette and baccarat table with its history, for the TV board."""
    out = []
    for t in session.execute(select(Table).where(Table.kind.in_(("roulette", "baccarat")), Table.status == "open")
                             .order_by(Table.number)).scalars():
        out.append(BoardGame(t, roulette=roulette_history(session, t.id)) if t.kind == TableKind.ROULETTE
                   else BoardGame(t, baccarat=baccarat_roads(session, t.id)))
    return out


__all__ = ["open_betting", "close_betting", "coup_start", "device_fault", "settle_held", "void_round",
           "held_rounds", "round_detail", "table_state", "roulette_history", "baccarat_roads", "board_games",
           "audit"]
