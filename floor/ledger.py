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

The one check (``authorize``): nothing is posted without a ``Grant``, and only ``authorize`` makes
one. Whatever feature asks (the cage, a tournament desk, a bust, a deal, a cancellation, a round),
it says what kind of money it moves (a ``Purpose``), for which player and how much; the check refuses
an amount outside 1..``max_amount_cents``, a role that may not move that kind of money, and above the
house's threshold a move without the approval of a second, different person of the right role.
Thresholds count what one person moved alone per player and gaming day, and per person and gaming
day, so twenty small amounts meet the approval one large amount would. ``post`` then refuses rows
its grant does not cover (another kind of transfer, more out of the house than granted, another
player), so a new path that skips the check fails at once, and tests/floor/test_ledger_choke_point.py
fails on any call site that posts without a grant.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timezone
from enum import StrEnum
from typing import Callable, Iterable

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from floor import audit, notify
from floor.actors import Actor
from floor.errors import BadInput, Conflict, InvalidState, Money, NotAllowed, NotFound, Term
from floor.gaming_day import gaming_day
from floor.models import Account, CashRequest, CashRequestKind, MoneyMove, Player, Staff, Transfer, TransferKind
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


# --- the one check -------------------------------------------------------------------------------

class Purpose(StrEnum):
    """What kind of money a posting moves: each has its rule (``RULES``)."""

    CASH_IN = "cash_in"            # cash at the cage onto a player's balance
    DESK_CASH = "desk_cash"        # cash taken at a tournament desk: counts as cash at the cage
    CASH_OUT = "cash_out"          # a balance paid out as cash at the cage
    STAKE = "stake"                # a player's own money into play: a bet, a buy-in from his balance
    ROUND = "round"                # a round settled or refunded by its game's rules
    CORRECTION = "correction"      # a ruling's compensating transfers (rounds/twoperson.py: its second pit boss)
    REFUND = "refund"              # what an entry paid, back where it came from
    PRIZE = "prize"                # places and bounties by the tournament's rules, out of its own accounts
    OVERLAY = "overlay"            # house money added to reach a guarantee
    DEAL = "deal"                  # a final-table deal's payouts
    CANCELLATION = "cancellation"  # a cancelled tournament's shares
    TABLE_CHIPS = "table_chips"    # chips from a table's tray to its players' stacks for a buy-in
    TABLE_SLIP = "table_slip"      # a fill or credit slip received: chips between the cage and a table's tray


HOUSE_KINDS = frozenset({"cage", "tray", "in_play", "commission", "chips", "prize_pool", "bounties", "fees",
                         "overlay"})
_TABLE_KINDS = frozenset({"cage", "tray", "in_play", "commission", "chips"})   # the cage's and the tables' own
_STAFF_AND_MACHINES = frozenset({"floor_manager", "dealer", "pit_boss", "admin", "cashier", "system", "device"})
_TOURNAMENT_IN = frozenset({TransferKind.BUY_IN, TransferKind.FEE, TransferKind.BOUNTY_STAKE, TransferKind.REBUY,
                            TransferKind.ADD_ON})


def _cashier_threshold(house: HouseSettings) -> int:
    return house.cashier_two_person_cents


def _always(house: HouseSettings) -> int:
    return 0


@dataclass(frozen=True)
class Rule:
    """Who may move a kind of money, which transfers it is made of, and when a second person approves.

    ``counted_as``: the day counts it joins (per player and per person); ``threshold``: above it (the
    counts included) the move needs a second, different person whose role is in ``approvers``;
    ``bounded``: each amount is from 1 to ``max_amount_cents`` (a round's amounts are its game's, a
    stake's the player's own, bounded by his balance)."""

    roles: frozenset[str]
    transfers: frozenset[TransferKind]
    counted_as: str | None = None
    threshold: Callable[[HouseSettings], int] | None = None
    approvers: frozenset[str] = frozenset()
    bounded: bool = True
    pays_out: bool = True      # False: nothing of it may leave the house to a player or as cash


RULES: dict[Purpose, Rule] = {
    Purpose.CASH_IN: Rule(frozenset({"cashier", "pit_boss"}), frozenset({TransferKind.DEPOSIT}), "cash_in",
                          _cashier_threshold, frozenset({"pit_boss"})),
    Purpose.DESK_CASH: Rule(frozenset({"floor_manager", "cashier", "pit_boss", "admin", "system"}), _TOURNAMENT_IN, "cash_in",
                            _cashier_threshold, frozenset({"pit_boss"})),
    Purpose.CASH_OUT: Rule(frozenset({"cashier", "pit_boss"}), frozenset({TransferKind.WITHDRAWAL}), "cash_out",
                           _cashier_threshold, frozenset({"pit_boss"})),
    Purpose.STAKE: Rule(_STAFF_AND_MACHINES, frozenset({TransferKind.STAKE}) | _TOURNAMENT_IN, bounded=False,
                        pays_out=False),
    Purpose.ROUND: Rule(frozenset({"system", "device", "dealer", "pit_boss", "admin"}),
                        frozenset({TransferKind.RETURN, TransferKind.WIN, TransferKind.LOSE, TransferKind.COMMISSION,
                                   TransferKind.REFUND}), bounded=False),
    Purpose.CORRECTION: Rule(frozenset({"system", "pit_boss", "admin"}), frozenset({TransferKind.CORRECTION}),
                             bounded=False),
    Purpose.REFUND: Rule(frozenset({"floor_manager", "cashier", "pit_boss", "admin", "system"}),
                         frozenset({TransferKind.REFUND})),
    Purpose.PRIZE: Rule(frozenset({"floor_manager", "pit_boss", "admin", "dealer", "system"}),
                        frozenset({TransferKind.PRIZE, TransferKind.BOUNTY})),
    Purpose.OVERLAY: Rule(frozenset({"floor_manager", "pit_boss", "admin", "dealer", "system"}),
                          frozenset({TransferKind.OVERLAY}), None, _cashier_threshold, frozenset({"pit_boss"})),
    Purpose.DEAL: Rule(frozenset({"floor_manager", "admin"}), frozenset({TransferKind.PRIZE, TransferKind.BOUNTY}),
                       None, _always, frozenset({"floor_manager", "pit_boss"})),
    Purpose.CANCELLATION: Rule(frozenset({"floor_manager", "pit_boss", "admin"}),
                               frozenset({TransferKind.REFUND, TransferKind.PRIZE, TransferKind.BOUNTY,
                                          TransferKind.CANCELLATION, TransferKind.CANCELLATION_KEPT}),
                               None, _always, frozenset({"floor_manager", "pit_boss"})),
    # The house's own chips moving between its accounts: the slips carry their own second signature
    # (floor/accounting); nothing of it reaches a player's balance or leaves as cash.
    Purpose.TABLE_CHIPS: Rule(_STAFF_AND_MACHINES, frozenset({TransferKind.CHIPS_SOLD}), pays_out=False),
    # A fill or credit above the house's threshold (the day's slips received by the same person
    # counted too) needs the floor manager or pit boss who approved the slip (floor/accounting).
    Purpose.TABLE_SLIP: Rule(frozenset({"dealer", "floor_manager", "pit_boss"}),
                             frozenset({TransferKind.FILL, TransferKind.TABLE_CREDIT}), "table_slip",
                             lambda house: house.slip_two_person_cents, frozenset({"floor_manager", "pit_boss"})),
}

_SEAL = object()   # only authorize() makes a Grant that post() takes


@dataclass
class Grant:
    """What ``authorize`` let through: one posting of this purpose, moving at most ``limit`` cents out
    of the house to a player or out as cash (None: a round's, by its game), to ``player_id`` if set."""

    purpose: Purpose
    limit: int | None
    player_id: int | None
    actor: Actor
    seal: object = field(repr=False, default=None)
    used: bool = False


def _over(session: Session, rule: Rule, actor: Actor, house: HouseSettings, cents: int, player_id: int | None,
          at: datetime) -> tuple[bool, int, int]:
    """(over the threshold?, the player's day count, the person's day count) with ``cents`` added."""
    limit = rule.threshold(house)
    if rule.counted_as is None:
        return cents > limit, cents, cents
    day = gaming_day(at, house.timezone, house.gaming_day_rollover)
    # The player's account and the person's row, locked: two moves for the same player or by the same
    # person queue up, and the second counts the first (SQLite: its write lock does the same).
    if player_id is not None:
        session.execute(select(ACCOUNTS.c.id).where(ACCOUNTS.c.id == player_account(session, player_id))
                        .with_for_update())
    if actor.staff_id is not None:
        session.execute(select(Staff.id).where(Staff.id == actor.staff_id).with_for_update())
    alone = (MoneyMove.gaming_day == day, MoneyMove.counted_as == rule.counted_as, MoneyMove.approved_by.is_(None))
    player_day = cents + (int(session.execute(select(func.coalesce(func.sum(MoneyMove.amount), 0)).where(
        MoneyMove.player_id == player_id, *alone)).scalar_one()) if player_id is not None else 0)
    actor_day = cents + (int(session.execute(select(func.coalesce(func.sum(MoneyMove.amount), 0)).where(
        MoneyMove.staff_id == actor.staff_id, *alone)).scalar_one()) if actor.staff_id is not None else 0)
    return player_day > limit or actor_day > house.actor_day_two_person_cents, player_day, actor_day


def second_person(purpose: Purpose | str, approval: Actor, *asked_by: int | None) -> None:
    """May ``approval`` be the second person for this kind of money? Never one of those who asked for
    it (403 own_request), always of a role its rule names (403 approver_role)."""
    purpose = Purpose(purpose)
    if approval.staff_id is None or approval.staff_id in asked_by:
        raise NotAllowed("the two-person rule: a second, different person must approve this", code="own_request")
    if approval.role not in RULES[purpose].approvers:
        raise NotAllowed("a {role} may not approve {purpose} money", code="approver_role",
                         role=Term(approval.role), purpose=Term(purpose))


def needs_second_person(session: Session, actor: Actor, purpose: Purpose | str, cents: int, *,
                        house: HouseSettings, player_id: int | None = None, at: datetime | None = None) -> bool:
    """Would this move, by this person alone, go above its threshold (the day's counts included)?"""
    rule = RULES[Purpose(purpose)]
    if rule.threshold is None:
        return False
    return _over(session, rule, actor, house, cents, player_id, at or datetime.now(timezone.utc))[0]


def authorize(session: Session, actor: Actor, purpose: Purpose | str, cents: int | None, *,
              house: HouseSettings | None = None, player_id: int | None = None, approval: Actor | None = None,
              requested_by: int | None = None, at: datetime | None = None) -> Grant:
    """The one check every posting passes (see the module docstring); returns the grant ``post`` takes.

    ``approval``: the second person who approved this move (never the actor, never ``requested_by``,
    the one who asked for it); ``cents``: what leaves the house to the player or as cash (None for a
    round, whose amounts are its game's). Refuses with 400 (amount), 403 ``money_role`` (who),
    403 ``own_request`` / ``approver_role`` (the second person) or 409 ``two_person_rule``."""
    purpose = Purpose(purpose)
    rule = RULES[purpose]
    at = at or datetime.now(timezone.utc)
    if rule.bounded:
        if house is None:
            raise ValueError(f"{purpose} money needs the house settings")
        cents = amount(cents, house)
    if actor.role not in rule.roles:
        raise NotAllowed("a {role} may not move {purpose} money", code="money_role", role=Term(actor.role),
                         purpose=Term(purpose))
    if approval is not None:
        second_person(purpose, approval, actor.staff_id, requested_by)
    elif rule.threshold is not None:
        over, player_day, actor_day = _over(session, rule, actor, house, cents, player_id, at)
        if over:
            raise Conflict("{amount} of {purpose} money needs a second person: above the threshold of {threshold}, "
                           "counted per player and gaming day ({player_day}) and per person ({actor_day})",
                           code="two_person_rule", amount=Money(cents), purpose=Term(purpose),
                           threshold=Money(rule.threshold(house)), player_day=Money(player_day),
                           actor_day=Money(actor_day))
    if rule.counted_as is not None:
        session.add(MoneyMove(at=at, gaming_day=gaming_day(at, house.timezone, house.gaming_day_rollover),
                              purpose=purpose, counted_as=rule.counted_as, player_id=player_id,
                              staff_id=actor.staff_id, actor_name=actor.name, amount=cents,
                              approved_by=approval.staff_id if approval else None,
                              approved_by_name=approval.name if approval else None))
    return Grant(purpose, cents if rule.bounded else 0 if not rule.pays_out else None, player_id, actor, _SEAL)


def _covered(session: Session, rows: list[dict], grant: Grant) -> None:
    """A posting moves only what its grant covers: a programming error otherwise (never a person's)."""
    if not isinstance(grant, Grant) or grant.seal is not _SEAL:
        raise TypeError("ledger.post needs the Grant that ledger.authorize gave")
    if grant.used:
        raise TypeError("a Grant covers one posting")
    rule = RULES[grant.purpose]
    wrong = {str(r["kind"]) for r in rows} - set(rule.transfers)
    if wrong:
        raise TypeError(f"{grant.purpose} money is not moved by transfers of kind {sorted(wrong)}")
    ids = {r["from_account_id"] for r in rows} | {r["to_account_id"] for r in rows}
    kinds = {aid: (kind, pid) for aid, kind, pid in session.execute(
        select(ACCOUNTS.c.id, ACCOUNTS.c.kind, ACCOUNTS.c.player_id).where(ACCOUNTS.c.id.in_(ids)))}
    out = 0
    for r in rows:
        (src, _), (dst, dst_player) = kinds[r["from_account_id"]], kinds[r["to_account_id"]]
        to_player = src in HOUSE_KINDS and dst == "player"
        if to_player and grant.player_id is not None and dst_player != grant.player_id:
            raise TypeError(f"a grant for player {grant.player_id} pays player {dst_player}")
        if to_player or (dst == "cage" and src not in _TABLE_KINDS):
            out += r["amount"]
    if grant.limit is not None and out > grant.limit:
        raise TypeError(f"the posting moves {out} cents out of the house, its grant covers {grant.limit}")
    grant.used = True


# --- posting -------------------------------------------------------------------------------------

def row(frm: int, to: int, amount: int, kind: TransferKind | str, *, at: datetime, round_id: int | None = None,
        bet_id: int | None = None, memo: str | None = None) -> dict:
    """One transfer as a plain dict, ready for ``post`` (an unknown ``kind`` is a ValueError)."""
    return {"from_account_id": frm, "to_account_id": to, "amount": amount, "kind": TransferKind(kind), "at": at,
            "round_id": round_id, "bet_id": bet_id, "memo": memo}


_DEBIT_GUARDED = (update(ACCOUNTS).where(ACCOUNTS.c.id == bindparam("aid"), ACCOUNTS.c.balance >= bindparam("need"))
                  .values(balance=ACCOUNTS.c.balance - bindparam("need")))
_MOVE = update(ACCOUNTS).where(ACCOUNTS.c.id == bindparam("aid")).values(balance=ACCOUNTS.c.balance + bindparam("d"))


def post(session: Session, rows: list[dict], *, grant: Grant, guard_players: bool = True) -> int:
    """Write transfers and move the balances they touch, in the caller's transaction, as far as
    ``grant`` (from ``authorize``) covers them.

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
    _covered(session, rows, grant)
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


def transfer(session: Session, frm: int, to: int, amount: int, kind: TransferKind | str, *, grant: Grant,
             at: datetime | None = None, round_id: int | None = None, bet_id: int | None = None,
             memo: str | None = None) -> None:
    post(session, [row(frm, to, amount, kind, at=at or datetime.now(timezone.utc), round_id=round_id,
                       bet_id=bet_id, memo=memo)], grant=grant)


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
          at: datetime, grant: Grant, extra: dict | None = None) -> None:
    pid, cage = player_account(session, player_id), cage_account(session)
    before = balance(session, pid)
    if kind == CashRequestKind.CREDIT:
        transfer(session, cage, pid, cents, TransferKind.DEPOSIT, at=at, memo=memo, grant=grant)
    else:
        transfer(session, pid, cage, cents, TransferKind.WITHDRAWAL, at=at, memo=memo, grant=grant)
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
    purpose = _CASH[kind]
    if RULES[purpose].roles.isdisjoint({actor.role}):
        raise NotAllowed("a {role} may not move {purpose} money", code="money_role", role=Term(actor.role),
                         purpose=Term(purpose))
    if needs_second_person(session, actor, purpose, cents, house=house, player_id=player_id, at=at):
        # The two-person rule, counted per player and gaming day and per person (so twenty small
        # amounts wait like one large one): nothing moves until a second, different pit boss approves.
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
    grant = authorize(session, actor, purpose, cents, house=house, player_id=player_id, at=at)
    _move(session, actor, player_id, cents, memo, kind, at, grant)
    return statement(session, player_id)


_CASH = {CashRequestKind.CREDIT: Purpose.CASH_IN, CashRequestKind.DEBIT: Purpose.CASH_OUT}


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
                 at: datetime | None = None, *, house: HouseSettings | None = None) -> CashRequest:
    """A second pit boss approves a waiting credit or debit: the money moves now. Never the one who asked."""
    at = at or datetime.now(timezone.utc)
    house = house or HouseSettings()
    req = session.get(CashRequest, request_id)
    if req is None:
        raise NotFound("no cash request {request_id}", request_id=request_id)
    if actor.staff_id is None or actor.staff_id == req.requested_by:
        raise NotAllowed("the two-person rule: a second, different pit boss must approve this", code="own_request")
    # the one who asked passed the role check when he asked (a request without a person: the cage's)
    asker = session.get(Staff, req.requested_by) if req.requested_by is not None else None
    requester = Actor(req.requested_by_name, asker.role if asker else "cashier", "cage", req.requested_by)
    grant = authorize(session, requester, _CASH[CashRequestKind(req.kind)], req.amount, house=house,
                      player_id=req.player_id, approval=actor, requested_by=req.requested_by, at=at)
    req = _decide(session, actor, request_id, "approved", reason, at)
    _move(session, actor, req.player_id, req.amount, req.memo, CashRequestKind(req.kind), at, grant,
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
           "statement", "Statement", "AccountMove", "LedgerCheck", "Iterable", "amount", "approve_cash", "reject_cash", "cash_requests",
           "authorize", "needs_second_person", "second_person", "Grant", "Purpose", "Rule", "RULES"]
