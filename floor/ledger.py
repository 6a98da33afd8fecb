"""Double-entry money movements: every bet, payout, commission and refund is a
transfer between two accounts; the balances always sum to zero; a player's balance never goes
below zero.

How "never below zero" holds under concurrency: a debit of a player account is one
``UPDATE accounts SET balance = balance - :d WHERE id = :id AND balance >= :d`` — the row lock the
UPDATE takes (PostgreSQL) or the write lock of BEGIN IMMEDIATE (SQLite) makes two debits queue,
and the second sees the first's result; no row means not enough money. A CHECK on the column
(``kind <> 'player' OR balance >= 0``) is the database's own backstop.

Settling a round posts thousands of transfers at once: ``post`` writes them with one executemany
insert and one balance update per account touched (net), never ORM row by row.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Iterable

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from floor import audit, notify
from floor.actors import Actor
from floor.errors import BadInput, Conflict, InvalidState, Money, NotAllowed, NotFound
from floor.models import Account, CashRequest, CashRequestKind, Player, Transfer, TransferKind
from floor.settings import HouseSettings

ACCOUNTS = Account.__table__
TRANSFERS = Transfer.__table__


class InsufficientBalance(Conflict):
    code = "insufficient_balance"


# --- accounts ------------------------------------------------------------------------------------

def _get_or_create(session: Session, key: str, kind: str, player_id: int | None = None,
                   table_id: int | None = None) -> int:
    found = session.execute(select(ACCOUNTS.c.id).where(ACCOUNTS.c.key == key)).scalar()
    if found is not None:
        return found
    try:
        with session.begin_nested():
            acc = Account(key=key, kind=kind, player_id=player_id, table_id=table_id, balance=0)
            session.add(acc)
            session.flush()
            return acc.id
    except IntegrityError:   # another transaction created it first
        return session.execute(select(ACCOUNTS.c.id).where(ACCOUNTS.c.key == key)).scalar_one()


def player_account(session: Session, player_id: int) -> int:
    return _get_or_create(session, f"player:{player_id}", "player", player_id=player_id)


def named_account(session: Session, key: str, kind: str) -> int:
    """An account of the house's own that is not a table's (e.g. a tournament's prize pool)."""
    if kind not in ("prize_pool", "bounties", "fees", "overlay"):
        raise ValueError(f"no named account of kind {kind!r}")
    return _get_or_create(session, key, kind)


def cage_account(session: Session) -> int:
    return _get_or_create(session, "cage", "cage")


def table_account(session: Session, table_id: int, kind: str) -> int:
    if kind not in ("tray", "in_play", "commission", "chips"):
        raise ValueError(f"no table account of kind {kind!r}")
    return _get_or_create(session, f"{kind}:{table_id}", kind, table_id=table_id)


@dataclass(frozen=True)
class TableAccounts:
    tray: int
    in_play: int
    commission: int
    chips: int


def table_accounts(session: Session, table_id: int) -> TableAccounts:
    return TableAccounts(*(table_account(session, table_id, k) for k in ("tray", "in_play", "commission", "chips")))


def balance(session: Session, account_id: int) -> int:
    value = session.execute(select(ACCOUNTS.c.balance).where(ACCOUNTS.c.id == account_id)).scalar()
    if value is None:
        raise NotFound("no account {account_id}", account_id=account_id)
    return value


def player_balance(session: Session, player_id: int) -> int:
    value = session.execute(select(ACCOUNTS.c.balance).where(ACCOUNTS.c.key == f"player:{player_id}")).scalar()
    return value or 0


# --- posting -------------------------------------------------------------------------------------

def row(frm: int, to: int, amount: int, kind: TransferKind | str, *, at: datetime, round_id: int | None = None,
        bet_id: int | None = None, memo: str | None = None) -> dict:
    """One transfer as a plain dict, ready for ``post`` (an unknown ``kind`` is a ValueError)."""
    return {"from_account_id": frm, "to_account_id": to, "amount": amount, "kind": TransferKind(kind), "at": at,
            "round_id": round_id, "bet_id": bet_id, "memo": memo}


_DEBIT_GUARDED = (update(ACCOUNTS).where(ACCOUNTS.c.id == bindparam("aid"), ACCOUNTS.c.balance >= bindparam("need"))
                  .values(balance=ACCOUNTS.c.balance - bindparam("need")))
_MOVE = update(ACCOUNTS).where(ACCOUNTS.c.id == bindparam("aid")).values(balance=ACCOUNTS.c.balance + bindparam("d"))


def post(session: Session, rows: list[dict], *, guard_players: bool = True) -> int:
    """Write transfers and move the balances they touch, in the caller's transaction.

    Balances move by their net change, once per account. A player account whose net change is
    negative is debited with the guarded UPDATE: not enough money raises InsufficientBalance
    (and the caller's transaction must roll back)."""
    if not rows:
        return 0
    net: dict[int, int] = defaultdict(int)
    for r in rows:
        amount = r["amount"]
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise BadInput("a transfer moves a positive whole number of cents, not {amount!r}", amount=amount)
        net[r["from_account_id"]] -= amount
        net[r["to_account_id"]] += amount
    session.flush()
    debits = {a: -d for a, d in net.items() if d < 0}
    guarded: set[int] = set()
    if guard_players and debits:
        guarded = set(session.execute(
            select(ACCOUNTS.c.id).where(ACCOUNTS.c.id.in_(list(debits)), ACCOUNTS.c.kind == "player")).scalars())
    for aid in sorted(guarded):   # a fixed order: two debits of the same accounts cannot deadlock
        done = session.execute(_DEBIT_GUARDED, {"aid": aid, "need": debits[aid]}).rowcount
        if done != 1:
            have = balance(session, aid)
            raise InsufficientBalance("the balance is {have}, {needed} needed", have=Money(have), needed=Money(debits[aid]))
    moves = [{"aid": a, "d": d} for a, d in sorted(net.items()) if d and a not in guarded]
    if moves:
        session.execute(_MOVE, moves)
    session.execute(insert(TRANSFERS), rows)
    return len(rows)


def transfer(session: Session, frm: int, to: int, amount: int, kind: TransferKind | str, *, at: datetime | None = None,
             round_id: int | None = None, bet_id: int | None = None, memo: str | None = None) -> None:
    post(session, [row(frm, to, amount, kind, at=at or datetime.now(timezone.utc), round_id=round_id,
                       bet_id=bet_id, memo=memo)])


# --- checks --------------------------------------------------------------------------------------

@dataclass
class LedgerCheck:
    ok: bool
    total: int                      # sum of all balances: always 0
    mismatched: list[int]           # accounts whose balance differs from their transfers
    negative_players: list[int]


def check(session: Session) -> LedgerCheck:
    """The books balance: balances sum to zero and each equals what its transfers say.

    One statement, so one snapshot: on PostgreSQL each statement of a READ COMMITTED transaction
    sees its own, and a transfer committed between two reads would look like a broken book."""
    ins = (select(TRANSFERS.c.to_account_id.label("aid"), func.sum(TRANSFERS.c.amount).label("amount"))
           .group_by(TRANSFERS.c.to_account_id).subquery())
    outs = (select(TRANSFERS.c.from_account_id.label("aid"), func.sum(TRANSFERS.c.amount).label("amount"))
            .group_by(TRANSFERS.c.from_account_id).subquery())
    rows = session.execute(
        select(ACCOUNTS.c.id, ACCOUNTS.c.kind, ACCOUNTS.c.balance,
               func.coalesce(ins.c.amount, 0), func.coalesce(outs.c.amount, 0))
        .select_from(ACCOUNTS.outerjoin(ins, ins.c.aid == ACCOUNTS.c.id).outerjoin(outs, outs.c.aid == ACCOUNTS.c.id))
    ).all()
    total = sum(int(bal) for _, _, bal, _, _ in rows)
    mismatched = [aid for aid, _, bal, got, gave in rows if bal != got - gave]
    negative = [aid for aid, kind, bal, _, _ in rows if kind == "player" and bal < 0]
    return LedgerCheck(total == 0 and not mismatched and not negative, total, mismatched, negative)


# --- the cashier ---------------------------------------------------------------------------------

def _player(session: Session, player_id: int) -> Player:
    p = session.get(Player, player_id)
    if p is None:
        raise NotFound("no player {player_id}", player_id=player_id)
    return p


def amount(value, house: HouseSettings, field: str = "amount") -> int:
    """Any sum of money a person gives (a credit, a bet, a contribution...): a whole number of cents
    from 1 to the house's maximum. A bool or a float is refused, never rounded."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= house.max_amount_cents:
        raise BadInput("an amount is a whole number of cents from 1 to {maximum}", field=field,
                       maximum=house.max_amount_cents)
    return value


@dataclass
class AccountMove:
    """A transfer as the player's account sees it: positive in, negative out."""

    id: int
    at: datetime | None
    kind: TransferKind
    amount: int
    round_id: int | None
    bet_id: int | None
    memo: str | None


@dataclass
class Statement:
    """A player's balance and his latest transfers; ``pending``: a cash move waiting for a second pit boss."""

    player_id: int
    balance: int
    transfers: list[AccountMove]
    pending: CashRequest | None = None


def statement(session: Session, player_id: int, limit: int = 20) -> Statement:
    aid = session.execute(select(ACCOUNTS.c.id).where(ACCOUNTS.c.key == f"player:{player_id}")).scalar()
    moves = []
    if aid is not None:
        for t in session.execute(select(TRANSFERS).where((TRANSFERS.c.from_account_id == aid) | (TRANSFERS.c.to_account_id == aid))
                                 .order_by(TRANSFERS.c.id.desc()).limit(limit)).mappings():
            sign = 1 if t["to_account_id"] == aid else -1
            moves.append(AccountMove(id=t["id"], at=t["at"], kind=TransferKind(t["kind"]), amount=sign * t["amount"],
                                     round_id=t["round_id"], bet_id=t["bet_id"], memo=t["memo"]))
    return Statement(player_id=player_id, balance=player_balance(session, player_id), transfers=moves)


def _move(session: Session, actor: Actor, player_id: int, cents: int, memo: str | None, kind: CashRequestKind,
          at: datetime, extra: dict | None = None) -> None:
    pid, cage = player_account(session, player_id), cage_account(session)
    before = balance(session, pid)
    if kind == CashRequestKind.CREDIT:
        transfer(session, cage, pid, cents, TransferKind.DEPOSIT, at=at, memo=memo)
    else:
        transfer(session, pid, cage, cents, TransferKind.WITHDRAWAL, at=at, memo=memo)
    after = balance(session, pid)
    audit.record(session, actor, f"cashier.{kind}", f"player:{player_id}",
                 before={"balance": before}, after={"balance": after, "amount": cents, "memo": memo, **(extra or {})})
    notify.publish(session, "balance.changed", {"player_id": player_id, "balance": after},
                   "role:cashier", "role:pit_boss")


def _cash(session: Session, actor: Actor, player_id: int, cents: int, memo: str | None, kind: CashRequestKind,
          at: datetime | None, house: HouseSettings) -> Statement:
    cents = amount(cents, house)
    _player(session, player_id)
    at = at or datetime.now(timezone.utc)
    if cents > house.cashier_two_person_cents:
        # The two-person rule: nothing moves until a second, different pit boss approves.
        req = CashRequest(player_id=player_id, kind=kind, amount=cents, memo=memo, requested_by=actor.staff_id,
                          requested_by_name=actor.name, requested_at=at)
        session.add(req)
        session.flush()
        audit.record(session, actor, "cashier.request", f"player:{player_id}",
                     after={"request": req.id, "kind": kind, "amount": cents, "memo": memo})
        notify.publish(session, "cash_request.changed", req, "role:cashier", "role:pit_boss")
        out = statement(session, player_id)
        out.pending = req
        return out
    _move(session, actor, player_id, cents, memo, kind, at)
    return statement(session, player_id)


def credit(session: Session, actor: Actor, player_id: int, cents: int, memo: str | None = None,
           at: datetime | None = None, *, house: HouseSettings) -> Statement:
    """Cash in at the cage: the player's balance goes up by ``cents``. Above the house's
    ``cashier_two_person_cents`` it waits for a second pit boss (``pending`` in the answer)."""
    return _cash(session, actor, player_id, cents, memo, CashRequestKind.CREDIT, at, house)


def debit(session: Session, actor: Actor, player_id: int, cents: int, memo: str | None = None,
          at: datetime | None = None, *, house: HouseSettings) -> Statement:
    """Cash out: refused (409 insufficient_balance) when the balance is smaller than ``cents``;
    above the two-person threshold it waits like a credit."""
    return _cash(session, actor, player_id, cents, memo, CashRequestKind.DEBIT, at, house)


# --- cash moves waiting for a second pit boss ------------------------------------------------------

def cash_requests(session: Session, only_pending: bool = True, limit: int = 50) -> list[CashRequest]:
    q = select(CashRequest).order_by(CashRequest.id.desc()).limit(limit)
    if only_pending:
        q = q.where(CashRequest.decision.is_(None))
    return list(session.execute(q).scalars())


def _decide(session: Session, actor: Actor, request_id: int, decision: str, reason: str | None,
            at: datetime) -> CashRequest:
    req = session.get(CashRequest, request_id)
    if req is None:
        raise NotFound("no cash request {request_id}", request_id=request_id)
    # Decided once: of two answers at the same moment, the conditional update lets one through.
    done = session.execute(update(CashRequest).where(CashRequest.id == request_id, CashRequest.decision.is_(None))
                           .values(decision=decision, decided_by=actor.staff_id, decided_by_name=actor.name,
                                   decided_at=at, reason=(reason or "").strip()[:200] or None)).rowcount
    if done != 1:
        session.refresh(req)
        raise InvalidState("this cash request was already {decision}", code="already_decided", decision=req.decision)
    session.refresh(req)
    return req


def approve_cash(session: Session, actor: Actor, request_id: int, reason: str | None = None,
                 at: datetime | None = None) -> CashRequest:
    """A second pit boss approves a waiting credit or debit: the money moves now. Never the one who asked."""
    at = at or datetime.now(timezone.utc)
    req = session.get(CashRequest, request_id)
    if req is None:
        raise NotFound("no cash request {request_id}", request_id=request_id)
    if actor.staff_id is None or actor.staff_id == req.requested_by:
        raise NotAllowed("the two-person rule: a second, different pit boss must approve this", code="own_request")
    req = _decide(session, actor, request_id, "approved", reason, at)
    _move(session, actor, req.player_id, req.amount, req.memo, CashRequestKind(req.kind), at,
          {"request": req.id, "requested_by": req.requested_by_name})
    notify.publish(session, "cash_request.changed", req, "role:cashier", "role:pit_boss")
    return req


def reject_cash(session: Session, actor: Actor, request_id: int, reason: str, at: datetime | None = None) -> CashRequest:
    """A pit boss turns a waiting request down, or the one who asked withdraws it: nothing moves."""
    at = at or datetime.now(timezone.utc)
    if not (reason or "").strip():
        raise BadInput("say why", field="reason")
    req = session.get(CashRequest, request_id)
    if req is None:
        raise NotFound("no cash request {request_id}", request_id=request_id)
    decision = "withdrawn" if actor.staff_id is not None and actor.staff_id == req.requested_by else "rejected"
    req = _decide(session, actor, request_id, decision, reason, at)
    audit.record(session, actor, f"cashier.request.{decision}", f"player:{req.player_id}",
                 after={"request": req.id, "reason": req.reason})
    notify.publish(session, "cash_request.changed", req, "role:cashier", "role:pit_boss")
    return req


def deposits_minus_withdrawals(session: Session, player_id: int) -> int:
    aid = session.execute(select(ACCOUNTS.c.id).where(ACCOUNTS.c.key == f"player:{player_id}")).scalar()
    if aid is None:
        return 0
    dep = session.execute(select(func.coalesce(func.sum(TRANSFERS.c.amount), 0))
                          .where(TRANSFERS.c.to_account_id == aid, TRANSFERS.c.kind == TransferKind.DEPOSIT)).scalar_one()
    wd = session.execute(select(func.coalesce(func.sum(TRANSFERS.c.amount), 0))
                         .where(TRANSFERS.c.from_account_id == aid, TRANSFERS.c.kind == TransferKind.WITHDRAWAL)).scalar_one()
    return int(dep) - int(wd)


__all__ = ["post", "row", "transfer", "check", "credit", "debit", "balance", "player_balance", "player_account",
           "cage_account", "named_account", "table_account", "table_accounts", "TableAccounts", "InsufficientBalance",
           "statement", "Statement", "AccountMove", "LedgerCheck", "Iterable", "amount", "approve_cash", "reject_cash", "cash_requests"]
