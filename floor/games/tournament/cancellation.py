"""Cancelling a tournament that cannot be played to the end: who gets what.

Players already out get nothing more than what they already won. The players still in
("survivors") are paid from a ``fund`` in fixed steps, each step only from what the earlier steps
left:

1. refunds (which parts of what they paid: buy-ins, fees, bounty stakes; by rule),
2. their own bounty (knockout and progressive knockout, by rule),
3. in the money (no more survivors than paid places), the prize of the next place to be paid: with
   n survivors, the prize of place n, to each survivor,
4. the rest: a percentage shared equally, the remainder in proportion to chips.

If the fund cannot cover a step in full (a case the rules do not foresee, e.g. a flat satellite
payout), that step is shared in proportion to what each was due and the later steps get nothing.

Rounding, once, on each survivor's total of the last step: his exact equal part plus his exact chip
part (fractions of a cent) is rounded down to the cent, and the cents left go one each to the largest
fractional parts, equal fractions to the bigger stack, then to the survivor listed first. So a player
owed a whole amount gets exactly it (two equal stacks sharing 732.50 get 366.25 each, not 366.26 and
366.24). His equal part is shown as its exact value rounded down, his chip part as the rest.

The rules (``RULES``):

* ``refund``: cancelled before the start, or for technical problems (the online room): every player
  still registered gets back all he paid. Also heads-up sit & go: both players are refunded.
* ``sit_and_go`` (online room): buy-ins and fees back, and an equal share of the buy-ins of the
  players already out.
* ``random_prize_small`` / ``random_prize_large`` (the online room's random-prize sit & go, below /
  from ``large_pool_from`` (1000 EUR in the text)): buy-ins back out of the prize pool, then the rest
  by chips; for a large pool each survivor first gets 10 % of the rest ("every person receives 10 %"
  read literally: with three players, 30 % in all).
* ``online_room``: scheduled tournaments of the online room. The fund is all the money paid in
  (buy-ins, re-entries, rebuys, add-ons and their fees) less what was already paid out, whatever the
  guarantee; a guaranteed tournament past late registration is topped up to its guarantee
  (``guarantee_topup``). Buy-ins and fees back; in the money the next prize; the rest 50 % equally,
  50 % by chips. Also for flighted tournaments (the fund is all the money of all starting days).
* ``online_room_knockout``: as ``online_room`` and each survivor gets his own bounty; the buy-in
  refunded is the part that went to the prize pool, since the bounty part comes back as the bounty
  (read otherwise, the bounty part would be paid twice and the fund would run short early on).
  Mystery bounty tournaments use ``online_room``, refunding the prize-pool part: the envelopes not
  yet won stay in the fund and are shared with the rest.
* ``online_room_freeroll``: the online room's last case, without any refund (nobody paid to enter).
* ``fees_back`` (the online tournament rules): fees back; the prize pool left: in the money the next
  prize; the rest 50 % equally, 50 % by chips.
* ``fees_and_bounty_back`` (the other room): fees and current bounty back; the prize pool collected
  (never a guarantee) left: before the money 50 % equally, 50 % by chips; in the money the next
  prize and the rest all by chips.
"""
from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, Sequence

from floor.errors import Money

from ..base import GameInputError
from .cents import check_cents, check_count, largest_remainder, split_by_weight

Player = Hashable
RefundPart = Literal["buy_ins", "fees", "bounty_stake"]


@dataclass(frozen=True)
class Survivor:
    """A player still in, with what he paid (all his entries, rebuys and add-ons together)."""

    player: Player
    chips: int
    buy_ins: int = 0       # into the prize pool (the bounty part excluded)
    fees: int = 0          # entry fees (the house's part)
    bounty_stake: int = 0  # into the bounties (knockout tournaments)
    bounty: int = 0        # on his head now (knockout, progressive knockout)

    def __post_init__(self):
        check_count(self.chips, "chips", 1)
        for what in ("buy_ins", "fees", "bounty_stake", "bounty"):
            check_cents(getattr(self, what), what)


@dataclass(frozen=True)
class CancellationRule:
    name: str
    refund: frozenset          # parts of what a survivor paid that come back first
    own_bounty: bool           # each survivor gets the bounty on his head
    next_prize: bool           # in the money, each gets the prize of the next place paid
    equal_percent_before_money: Fraction  # of the rest, shared equally; the remainder by chips
    equal_percent_in_money: Fraction
    percent_each: bool = False  # the equal percentage goes to each survivor, not to all together


def _rule(name, refund, own_bounty, next_prize, before, in_money, each=False) -> CancellationRule:
    return CancellationRule(name, frozenset(refund), own_bounty, next_prize, Fraction(before), Fraction(in_money),
                            each)


RULES = {r.name: r for r in (
    _rule("refund", ("buy_ins", "fees", "bounty_stake"), False, False, 0, 0),
    _rule("sit_and_go", ("buy_ins", "fees"), False, False, 100, 100),
    _rule("random_prize_small", ("buy_ins",), False, False, 0, 0),
    _rule("random_prize_large", ("buy_ins",), False, False, 10, 10, each=True),
    _rule("online_room", ("buy_ins", "fees"), False, True, 50, 50),
    _rule("online_room_knockout", ("buy_ins", "fees"), True, True, 50, 50),
    _rule("online_room_freeroll", (), False, True, 50, 50),
    _rule("fees_back", ("fees",), False, True, 50, 50),
    _rule("fees_and_bounty_back", ("fees",), True, True, 50, 0),
)}


@dataclass(frozen=True)
class CancellationShare:
    player: Player
    refund: int
    bounty: int
    next_prize: int
    equal_share: int
    chip_share: int

    @property
    def total(self) -> int:
        return self.refund + self.bounty + self.next_prize + self.equal_share + self.chip_share


@dataclass(frozen=True)
class Settlement:
    rule: str
    fund: int
    in_the_money: bool
    shares: tuple[CancellationShare, ...]  # in the order the survivors were given
    fund_short: bool                       # a step could not be paid in full

    def amounts(self) -> dict:
        return {s.player: s.total for s in self.shares}


def _survivors(survivors: Sequence[Survivor]) -> list[Survivor]:
    survivors = list(survivors)
    if not survivors:
        raise GameInputError("nobody left to pay", field="survivors")
    if any(not isinstance(s, Survivor) for s in survivors):
        raise GameInputError("survivors are Survivor(player, chips, buy_ins, fees, ...)", field="survivors")
    if len({str(s.player) for s in survivors}) != len(survivors):
        raise GameInputError("a survivor is listed twice", field="survivors")
    return survivors


def _prizes(prizes: Sequence[int]) -> list[int]:
    prizes = [check_cents(p, "prize") for p in prizes]
    while prizes and prizes[-1] == 0:
        prizes.pop()
    return prizes


def _pay(due: list[int], left: int) -> tuple[list[int], int, bool]:
    need = sum(due)
    if need <= left:
        return due, left - need, False
    return split_by_weight(left, due), 0, True


def settle_cancellation(survivors: Sequence[Survivor], *, rule: CancellationRule | str, fund: int,
                        prizes: Sequence[int]) -> Settlement:
    """Pay ``fund`` cents to the survivors by ``rule`` (a name of ``RULES`` or a CancellationRule).
    ``prizes``: the tournament's payouts from first place down (empty for none)."""
    survivors = _survivors(survivors)
    if isinstance(rule, str):
        if rule not in RULES:
            raise GameInputError("no cancellation rule {given} ({rules})", field="rule", given=repr(rule),
                                 rules=list(RULES))
        rule = RULES[rule]
    check_cents(fund, "fund")
    prizes = _prizes(prizes)
    n = len(survivors)
    in_money = n <= len(prizes)
    chips = [s.chips for s in survivors]
    priority = sorted(range(n), key=lambda i: (-chips[i], i))
    rank = [0] * n
    for r, i in enumerate(priority):
        rank[i] = r

    refunds = [sum(getattr(s, part) for part in sorted(rule.refund)) for s in survivors]
    bounties = [s.bounty if rule.own_bounty else 0 for s in survivors]
    next_prizes = [prizes[n - 1] if in_money and rule.next_prize else 0] * n
    short = False
    left = fund
    paid = []
    for due in (refunds, bounties, next_prizes):
        got, left, was_short = _pay(due, left)
        paid.append(got)
        short = short or was_short

    pct = rule.equal_percent_in_money if in_money else rule.equal_percent_before_money
    if rule.percent_each:
        if pct * n > 100:
            raise GameInputError("{n} survivors cannot each get {percent} %: that is more than the whole",
                                 field="survivors", percent=f"{float(pct):g}", n=n)
        equal_exact = [Fraction(left) * pct / 100] * n
    else:
        equal_exact = [Fraction(left) * pct / 100 / n] * n
    rest = Fraction(left) - sum(equal_exact)
    total_chips = sum(chips)
    exact = [equal_exact[i] + rest * chips[i] / total_chips for i in range(n)]
    totals = largest_remainder(exact, left, rank)
    equal = [e.numerator // e.denominator for e in equal_exact]
    by_chips = [totals[i] - equal[i] for i in range(n)]
    shares = tuple(CancellationShare(s.player, paid[0][i], paid[1][i], paid[2][i], equal[i], by_chips[i])
                   for i, s in enumerate(survivors))
    return Settlement(rule.name, fund, in_money, shares, short)


# --- one function per case of the rules -------------------------------------------------------

def refund_all(players: Sequence[Survivor]) -> Settlement:
    """Cancelled before the start or for technical problems (and a heads-up sit & go): every player
    still registered gets back everything he paid. ``chips``: any positive number (unused)."""
    players = _survivors(players)
    fund = sum(p.buy_ins + p.fees + p.bounty_stake for p in players)
    return settle_cancellation(players, rule="refund", fund=fund, prizes=())


def cancel_sit_and_go(survivors: Sequence[Survivor], *, eliminated_buy_ins: int) -> Settlement:
    """A sit & go: buy-ins and fees back, plus an equal share of the buy-ins of the players out."""
    survivors = _survivors(survivors)
    fund = sum(s.buy_ins + s.fees for s in survivors) + check_cents(eliminated_buy_ins, "eliminated_buy_ins")
    return settle_cancellation(survivors, rule="sit_and_go", fund=fund, prizes=())


def cancel_random_prize_sit_and_go(survivors: Sequence[Survivor], *, prize_pool: int,
                                   large_pool_from: int) -> Settlement:
    """A random-prize sit & go: buy-ins back out of the drawn prize pool, the rest by chips; from
    ``large_pool_from`` cents (a house setting) each survivor first gets 10 % of the rest."""
    check_cents(prize_pool, "prize_pool")
    check_cents(large_pool_from, "large_pool_from")
    rule = "random_prize_large" if prize_pool >= large_pool_from else "random_prize_small"
    return settle_cancellation(survivors, rule=rule, fund=prize_pool, prizes=())


def guarantee_topup(*, prize_pool_collected: int, guarantee: int, late_registration_over: bool) -> int:
    """What the house adds to an online-room cancellation fund for a guarantee: nothing while late
    registration or rebuys are open (the pool is what was collected), afterwards the shortfall."""
    check_cents(prize_pool_collected, "prize_pool_collected")
    check_cents(guarantee, "guarantee")
    return max(0, guarantee - prize_pool_collected) if late_registration_over else 0


OnlineRoomKind = Literal["regular", "knockout", "mystery", "freeroll"]
_ONLINE_RULE = {"regular": "online_room", "knockout": "online_room_knockout", "mystery": "online_room",
                "freeroll": "online_room_freeroll"}


def cancel_online_room(survivors: Sequence[Survivor], *, kind: OnlineRoomKind, money_in: int, paid_out: int,
                       prizes: Sequence[int], guarantee_topup: int) -> Settlement:
    """A scheduled tournament under the online room's rule. ``money_in``: everything paid in by every
    entry (buy-ins, re-entries, rebuys, add-ons, bounty stakes, fees; for a freeroll the house's prize
    pool); ``paid_out``: prizes and bounties already paid; ``prizes``: the payouts, first place down.
    ``kind``: regular (also flighted), knockout (also progressive), mystery or freeroll."""
    if kind not in _ONLINE_RULE:
        raise GameInputError("kind is one of {kinds}, got {given}", field="kind", kinds=list(_ONLINE_RULE),
                             given=repr(kind))
    check_cents(money_in, "money_in")
    check_cents(paid_out, "paid_out")
    check_cents(guarantee_topup, "guarantee_topup")
    if paid_out > money_in + guarantee_topup:
        raise GameInputError("paid out {paid_out} is more than came in ({came_in})", field="paid_out",
                             paid_out=Money(paid_out), came_in=Money(money_in + guarantee_topup))
    return settle_cancellation(survivors, rule=_ONLINE_RULE[kind], fund=money_in - paid_out + guarantee_topup,
                               prizes=prizes)


def cancel_from_prize_pool(survivors: Sequence[Survivor], *, rule: Literal["fees_back", "fees_and_bounty_back"],
                           prize_pool_left: int, prizes: Sequence[int]) -> Settlement:
    """The two other rooms' rules: fees (and, by rule, current bounties) back from the house, and the
    prize pool not yet paid out (``prize_pool_left``, from what was collected) shared by the rule."""
    if rule not in ("fees_back", "fees_and_bounty_back"):
        raise GameInputError("rule is 'fees_back' or 'fees_and_bounty_back', got {given}", field="rule",
                             given=repr(rule))
    survivors = _survivors(survivors)
    r = RULES[rule]
    on_top = sum(s.fees + (s.bounty if r.own_bounty else 0) for s in survivors)
    return settle_cancellation(survivors, rule=rule, fund=check_cents(prize_pool_left, "prize_pool_left") + on_top,
                               prizes=prizes)
