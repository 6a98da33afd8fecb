"""Placing bets on a live round: remote players' bets from their balance (JSON API) and seat bets
the dealer enters for the chips on the table. Each stake is a ledger transfer into the table's
"in play" account, in the same transaction as the bet row.

Refusals (docs/rules.md): after "no more bets" (409 ``betting_closed`` / ``late``; ``late`` too once
the table's device line closed betting, whether or not the round has heard of it yet, see
``floor.rounds.line``), while betting is paused because the device process is behind its line (409
``betting_paused``), a closed table
(409 ``table_closed``), outside the table's minimum or maximum per spot (409 ``below_minimum`` /
``over_maximum``; Casino Hold'em cuts a bet over the maximum down to it, as its rules say), more than the
player's balance (409 ``insufficient_balance``). An idempotency key makes a retried bet count once.
"""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from floor import audit, ledger, notify
from floor.actors import Actor
from floor.errors import BadInput, Conflict, InvalidState, Money, NotFound
from floor.games import baccarat, roulette
from floor.games.base import GameInputError
from floor.models import Bet, Player, Round, Table
from floor.models import RoundStatus, TableKind
from floor.rounds import line
from floor.rounds.core import active_round, get_table
from floor.settings import HouseSettings

SPOTS = {
    "roulette": roulette.KINDS,
    "baccarat": baccarat.SPOTS,
    "blackjack": ("bet",),
    "casino_holdem": ("ante", "aa_bonus"),
}


def bet_record(b: Bet) -> dict:
    """The bet as its audit record and its live event carry it (the API shapes the model itself)."""
    return {"id": b.id, "round_id": b.round_id, "table_id": b.table_id, "player_id": b.player_id, "seat": b.seat,
            "hand": b.hand, "spot": b.spot, "numbers": b.numbers, "amount": b.amount, "requested": b.requested,
            "source": b.source, "idempotency_key": b.idempotency_key,
            "placed_at": b.placed_at.isoformat() if b.placed_at else None}


def _normalise(table: Table, spot: str, numbers, seat: int | None) -> tuple[str, list | None]:
    kinds = SPOTS.get(table.kind)
    if kinds is None:
        raise InvalidState("table {table} takes no bets ({kind})", code="wrong_game", table=table.number, kind=table.kind)
    if spot not in kinds:
        raise BadInput("no spot {spot!r} at {kind} (one of {spots})", field="spot", spot=spot, kind=table.kind,
                       spots=", ".join(kinds))
    if table.kind == TableKind.ROULETTE:
        try:
            return spot, list(roulette.bet(spot, numbers).numbers)
        except GameInputError as exc:   # a layout no chip can cover: the numbers are at fault
            exc.field = exc.field or "numbers"
            raise
    if numbers:
        raise BadInput("{kind} bets cover no numbers", field="numbers", kind=table.kind)
    if table.kind in ("blackjack", "casino_holdem"):
        if seat is None:
            raise BadInput("a {kind} bet is for a seat", field="seat", kind=table.kind)
        if not 1 <= seat <= table.seat_count:
            raise BadInput("table {table} has seats 1 to {seat_count}", field="seat", table=table.number, seat_count=table.seat_count)
    return spot, None


def _same(b: Bet, spot: str, numbers, amount: int, seat, round_id: int) -> bool:
    return (b.spot == spot and (b.numbers or None) == (numbers or None) and b.requested == amount
            and b.seat == seat and b.round_id == round_id)


def place(session: Session, actor: Actor, table_id: int, *, spot: str, amount: int, player_id: int | None = None,
          seat: int | None = None, numbers=None, idempotency_key: str | None = None, source: str = "api",
          at: datetime | None = None, house: HouseSettings) -> tuple[Bet, bool]:
    """Place a bet on the table's open round. Returns (bet, created): a retry with the same
    idempotency key returns the first bet and False."""
    at = at or datetime.now(timezone.utc)
    amount = ledger.amount(amount, house)
    table = get_table(session, table_id)
    if player_id is not None:
        if session.get(Player, player_id) is None:
            raise NotFound("no player {player_id}", player_id=player_id)
        account = ledger.player_account(session, player_id)
    elif seat is not None:
        account = ledger.table_account(session, table_id, "chips")
    else:
        raise BadInput("a bet is for a player (his balance) or a seat (the chips on the table)", field="player_id")
    if idempotency_key is not None:
        idempotency_key = str(idempotency_key).strip()[:100] or None
    if idempotency_key:
        earlier = session.execute(select(Bet).where(Bet.account_id == account, Bet.idempotency_key == idempotency_key)
                                  ).scalar_one_or_none()
        if earlier is not None:
            return _replay(earlier, spot, numbers, amount, seat, table)
    if table.status != "open":
        raise Conflict("table {table} is {status}: no bets", code="table_closed", table=table.number, status=table.status)
    spot, numbers = _normalise(table, spot, numbers, seat)
    r = active_round(session, table_id)
    if r is None or r.status != RoundStatus.BETTING:
        if r is None:
            raise Conflict("no more bets at table {table}", code="betting_closed", table=table.number)
        raise Conflict("no more bets at table {table} (round {round} is {status})", code="betting_closed",
                       table=table.number, round=r.number, status=r.status)
    if r.closes_at is not None and at > r.closes_at:
        raise Conflict("no more bets at table {table}: betting closed at {closed_at}", code="late", table=table.number,
                       closed_at=r.closes_at)
    # the line's own time: its lock counts from when its bytes arrived, not when the round heard of it
    paused = line.pause_of(session, table_id)
    if paused is not None:
        raise Conflict("Betting paused at table {table}: the device process is {ms} ms behind the line of {device}",
                       code="betting_paused", table=table.number, ms=paused.behind_ms, device=paused.device)
    lock = line.first_lock(session, table_id, r.opened_at)
    if lock is not None:
        raise Conflict("no more bets at table {table}: the {device} closed betting at {closed_at}", code="late",
                       table=table.number, device=lock.device, closed_at=lock.arrived_at)
    requested = amount
    game = table.game
    same_spot = select(func.coalesce(func.sum(Bet.amount), 0)).where(
        Bet.round_id == r.id, Bet.account_id == account, Bet.spot == spot, Bet.seat.is_(seat) if seat is None else Bet.seat == seat)
    if table.kind == TableKind.ROULETTE:
        already = sum(b.amount for b in session.execute(
            select(Bet).where(Bet.round_id == r.id, Bet.account_id == account, Bet.spot == spot)).scalars()
            if (b.numbers or None) == numbers)
    else:
        already = int(session.execute(same_spot).scalar_one())
    if table.kind in ("blackjack", "casino_holdem"):
        _check_seat(session, r, table, seat, account, spot)
    if game.max_bet and already + amount > game.max_bet:
        if table.kind == TableKind.CASINO_HOLDEM:
            amount = game.max_bet - already     # the Casino Hold'em rules: a bet over the limit is cut down to the maximum
            if amount <= 0:
                raise Conflict("this spot already holds the table maximum ({max_bet})", code="over_maximum", max_bet=Money(game.max_bet))
        else:
            raise Conflict("the table maximum per spot is {max_bet} ({already} already on it)",
                           code="over_maximum", max_bet=Money(game.max_bet), already=Money(already))
    if game.min_bet and already + amount < game.min_bet:
        raise Conflict("the table minimum per spot is {min_bet}", code="below_minimum", min_bet=Money(game.min_bet))
    bet = Bet(round_id=r.id, table_id=table_id, account_id=account, player_id=player_id, seat=seat, hand=1, spot=spot,
              numbers=numbers, amount=amount, requested=requested, source=source, idempotency_key=idempotency_key,
              placed_at=at, placed_by=actor.name)
    try:
        with session.begin_nested():
            # added inside the savepoint (begin_nested flushes what is pending outside it): a lost
            # race on the idempotency key rolls back alone, and the first bet is answered
            session.add(bet)
            session.flush()
    except IntegrityError:
        # the same key raced in from another request: the first one counts
        earlier = session.execute(select(Bet).where(Bet.account_id == account, Bet.idempotency_key == idempotency_key)
                                  ).scalar_one_or_none()
        if earlier is None:
            raise
        return _replay(earlier, spot, numbers, requested, seat, table)
    in_play = ledger.table_account(session, table_id, "in_play")
    ledger.transfer(session, account, in_play, amount, "stake", at=at, round_id=r.id, bet_id=bet.id)
    audit.record(session, actor, "bet.place", f"round:{r.id}", after=bet_record(bet), at=at)
    # to the table's room only (its dealer and whoever follows the table), batched: a burst of bets is
    # a few emits a second, each with the bets since the last, not one emit per bet to every client
    notify.publish_batched(session, "bet.placed", {"round_id": r.id, "table_id": table_id}, "bets", bet_record(bet),
                           notify.table_room(table_id))
    return bet, True


def _replay(earlier: Bet, spot, numbers, amount, seat, table: Table) -> tuple[Bet, bool]:
    if table.kind == TableKind.ROULETTE:
        try:
            numbers = list(roulette.bet(spot, numbers).numbers)
        except Exception:
            pass
    else:
        numbers = None
    if not _same(earlier, spot, numbers, amount, seat, earlier.round_id):
        raise Conflict("this idempotency key was used for a different bet", code="idempotency_mismatch")
    return earlier, False


def _check_seat(session: Session, r: Round, table: Table, seat: int, account: int, spot: str) -> None:
    """One box per seat: the account that placed the seat's main bet owns it (and its decisions)."""
    main = "bet" if table.kind == TableKind.BLACKJACK else "ante"
    owner = session.execute(select(Bet.account_id).where(Bet.round_id == r.id, Bet.seat == seat, Bet.spot == main)
                            .limit(1)).scalar()
    if owner is not None and owner != account:
        raise Conflict("seat {seat} is taken this round", code="seat_taken", seat=seat)
    if spot != main and owner is None:
        raise Conflict("place the {main} on seat {seat} first", code="main_bet_first", main=main, seat=seat)


def place_extra(session: Session, actor: Actor, r: Round, seat: int, spot: str, amount: int, hand: int,
                at: datetime) -> Bet:
    """A bet a decision adds (double, split, insurance, call), funded like the seat's main bet."""
    main = "bet" if r.kind == TableKind.BLACKJACK else "ante"
    owner = session.execute(select(Bet).where(Bet.round_id == r.id, Bet.seat == seat, Bet.spot == main)
                            .order_by(Bet.id).limit(1)).scalar_one_or_none()
    if owner is None:
        raise Conflict("seat {seat} has no bet this round", code="no_bet", seat=seat)
    bet = Bet(round_id=r.id, table_id=r.table_id, account_id=owner.account_id, player_id=owner.player_id, seat=seat,
              hand=hand, spot=spot, amount=amount, requested=amount, source="decision", placed_at=at,
              placed_by=actor.name)
    session.add(bet)
    session.flush()
    in_play = ledger.table_account(session, r.table_id, "in_play")
    ledger.transfer(session, owner.account_id, in_play, amount, "stake", at=at, round_id=r.id, bet_id=bet.id)
    return bet


def round_bets(session: Session, round_id: int) -> list[Bet]:
    return list(session.execute(select(Bet).where(Bet.round_id == round_id).order_by(Bet.id)).scalars())


def seat_owner(session: Session, r: Round, seat: int) -> Bet | None:
    main = "bet" if r.kind == TableKind.BLACKJACK else "ante"
    return session.execute(select(Bet).where(Bet.round_id == r.id, Bet.seat == seat, Bet.spot == main)
                           .order_by(Bet.id).limit(1)).scalar_one_or_none()
