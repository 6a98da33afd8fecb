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
from floor.errors import BadInput, Conflict, Money, NotFound
from floor.models import Account, Player, Transfer

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

def row(frm: int, to: int, amount: int, kind: str, *, at: datetime, round_id: int | None = None,
        bet_id: int | None = None, memo: str | None = None) -> dict:
    """One transfer as a plain dict, ready for ``post``."""
    return {"from_account_id": frm, "to_account_id": to, "amount": amount, "kind": kind, "at": at,
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


def transfer(session: Session, frm: int, to: int, amount: int, kind: str, *, at: datetime | None = None,
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


def _amount(amount) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise BadInput("the amount is a positive whole number of cents", field="amount")
    return amount


def account_json(session: Session, player_id: int, limit: int = 20) -> dict:
    aid = session.execute(select(ACCOUNTS.c.id).where(ACCOUNTS.c.key == f"player:{player_id}")).scalar()
    moves = []
    if aid is not None:
        for t in session.execute(select(TRANSFERS).where((TRANSFERS.c.from_account_id == aid) | (TRANSFERS.c.to_account_id == aid))
                                 .order_by(TRANSFERS.c.id.desc()).limit(limit)).mappings():
            sign = 1 if t["to_account_id"] == aid else -1
            moves.append({"id": t["id"], "at": t["at"].isoformat() if t["at"] else None, "kind": t["kind"],
                          "amount": sign * t["amount"], "round_id": t["round_id"], "bet_id": t["bet_id"],
                          "memo": t["memo"]})
    return {"player_id": player_id, "balance": player_balance(session, player_id), "transfers": moves}


def _cash(session: Session, actor: Actor, player_id: int, amount: int, memo: str | None, credit: bool,
          at: datetime | None) -> dict:
    _player(session, player_id)
    amount = _amount(amount)
    pid, cage = player_account(session, player_id), cage_account(session)
    before = balance(session, pid)
    at = at or datetime.now(timezone.utc)
    if credit:
        transfer(session, cage, pid, amount, "deposit", at=at, memo=memo)
    else:
        transfer(session, pid, cage, amount, "withdrawal", at=at, memo=memo)
    after = balance(session, pid)
    audit.record(session, actor, "cashier.credit" if credit else "cashier.debit", f"player:{player_id}",
                 before={"balance": before}, after={"balance": after, "amount": amount, "memo": memo})
    notify.publish(session, "balance.changed", {"player_id": player_id, "balance": after},
                   "role:cashier", "role:pit_boss")
    return account_json(session, player_id)


def credit(session: Session, actor: Actor, player_id: int, amount: int, memo: str | None = None,
           at: datetime | None = None) -> dict:
    """Cash in at the cage: the player's balance goes up by ``amount`` cents."""
    return _cash(session, actor, player_id, amount, memo, True, at)


def debit(session: Session, actor: Actor, player_id: int, amount: int, memo: str | None = None,
          at: datetime | None = None) -> dict:
    """Cash out: refused (409 insufficient_balance) when the balance is smaller than ``amount``."""
    return _cash(session, actor, player_id, amount, memo, False, at)


def deposits_minus_withdrawals(session: Session, player_id: int) -> int:
    aid = session.execute(select(ACCOUNTS.c.id).where(ACCOUNTS.c.key == f"player:{player_id}")).scalar()
    if aid is None:
        return 0
    dep = session.execute(select(func.coalesce(func.sum(TRANSFERS.c.amount), 0))
                          .where(TRANSFERS.c.to_account_id == aid, TRANSFERS.c.kind == "deposit")).scalar_one()
    wd = session.execute(select(func.coalesce(func.sum(TRANSFERS.c.amount), 0))
                         .where(TRANSFERS.c.from_account_id == aid, TRANSFERS.c.kind == "withdrawal")).scalar_one()
    return int(dep) - int(wd)


__all__ = ["post", "row", "transfer", "check", "credit", "debit", "balance", "player_balance", "player_account",
           "cage_account", "table_account", "table_accounts", "TableAccounts", "InsufficientBalance",
           "account_json", "LedgerCheck", "Iterable"]
