"""Cancelling a tournament that cannot finish, by the pure formulas
(floor.games.tournament.cancellation), paid through the ledger. Before the start (or for a player
still waiting as an alternate) everything paid goes back; once it runs, the players still in share
by the rule the pit boss or floor manager picks (default: the house's, ``tournament_cancellation_rule``);
the players already out get nothing more.

The rules offered on the floor (``RULES``):

* ``refund``: technical problems: each player still in gets back all he paid (entry, rebuys, add-on,
  fees, bounty stake); what the players out paid stays with the house;
* ``online_room``: everything paid in less everything paid out (topped up to a guarantee once late
  registration is over): buy-ins and fees back, in the money the next place's prize, the rest 50 %
  equally and 50 % by chips; a knockout tournament also gives each his own bounty, a mystery one
  shares the envelopes not drawn with the rest;
* ``fees_back`` / ``fees_and_bounty_back``: fees (and the bounty on his head) back, the prize pool
  collected left shared by the rule's steps;
* ``sit_and_go``: buy-ins and fees back plus an equal share of the buy-ins of the players out;
* ``random_prize``: a prize pool drawn at random: buy-ins back out of the prize pool left, the rest
  by chips; from ``tournament_large_pool_from`` each player left first gets 10 % of the rest (the
  small and the large pool).
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from floor import audit, ledger, timers
from floor.actors import Actor
from floor.errors import BadInput
from floor.games import tournament as rules
from floor.models import Tournament
from floor.settings import HouseSettings
from floor.tournaments import clock, core, registration

RULES = ("refund", "online_room", "fees_back", "fees_and_bounty_back", "sit_and_go", "random_prize")
DRAIN = ("prize_pool", "bounties", "fees")     # where a share is paid from, in this order; then the overlay


def _survivors(session: Session, t: Tournament, stacks: dict[int, int]) -> list[rules.Survivor]:
    left = core.entries(session, t, "seated")
    if not isinstance(stacks, dict) or sorted(stacks) != sorted(e.id for e in left):
        raise BadInput("the chips of every player still seated, and only theirs", field="stacks")
    bought: dict[int, tuple[int, int]] = {}
    for p in core.purchases(session, t):
        price, fee = bought.get(p.entry_id, (0, 0))
        bought[p.entry_id] = (price + p.price, fee + p.fee)
    return [rules.Survivor(e.id, stacks[e.id], buy_ins=t.buy_in + bought.get(e.id, (0, 0))[0],
                           fees=t.fee + bought.get(e.id, (0, 0))[1], bounty_stake=t.bounty, bounty=e.bounty)
            for e in left]


def plan(session: Session, settings: HouseSettings, t: Tournament, stacks: dict[int, int],
         rule: str | None = None, now: datetime | None = None) -> rules.Settlement:
    """What each player still in would get (shown before anyone confirms)."""
    rule = rule or settings.tournament_cancellation_rule
    if rule not in RULES:
        raise BadInput("the cancellation rule is one of {rules}", field="rule", rules=", ".join(RULES))
    survivors = _survivors(session, t, stacks)
    collected = core.pool_collected(session, t)
    prizes = core.payouts(session, t, settings.tournament_payout_unit, pool=collected)
    if rule == "refund":
        return rules.refund_all(survivors)
    if rule == "random_prize":
        pool_left = ledger.balance(session, core.account(session, t, "prize_pool"))
        return rules.cancel_random_prize_sit_and_go(survivors, prize_pool=pool_left,
                                                    large_pool_from=settings.tournament_large_pool_from)
    if rule == "sit_and_go":
        out = core.entries_count(session, t) - len(survivors)
        return rules.cancel_sit_and_go(survivors, eliminated_buy_ins=out * t.buy_in)
    if rule == "online_room":
        everyone = [e for e in core.entries(session, t) if e.status != "refunded"]
        to_pool, to_house = core.purchases_in(session, t)
        money_in = len(everyone) * (t.buy_in + t.fee + t.bounty) + to_pool + to_house
        paid_out = sum(e.prize + e.bounties_won for e in everyone)
        overlay = -ledger.balance(session, core.account(session, t, "overlay"))
        topup = max(overlay, rules.guarantee_topup(prize_pool_collected=collected, guarantee=t.guarantee,
                                                   late_registration_over=not clock.late_open(session, t, core.now_or(now))))
        kind = {"knockout": "knockout", "progressive": "knockout", "mystery": "mystery"}.get(t.bounty_kind, "regular")
        return rules.cancel_online_room(survivors, kind=kind, money_in=money_in, paid_out=paid_out,
                                        prizes=core.payouts(session, t, settings.tournament_payout_unit,
                                                            pool=max(collected, t.guarantee) if topup else collected),
                                        guarantee_topup=topup)
    pool_left = ledger.balance(session, core.account(session, t, "prize_pool"))
    return rules.cancel_from_prize_pool(survivors, rule=rule, prize_pool_left=pool_left, prizes=prizes)


def _pay_from_accounts(session: Session, t: Tournament, e, amount: int, now: datetime) -> None:
    """A share out of what the tournament's accounts hold (prize pool, bounties, fees, in that
    order); past them, the house's overlay account (a guarantee it owes)."""
    for kind in DRAIN:
        if amount <= 0:
            return
        have = ledger.balance(session, core.account(session, t, kind))
        take = min(have, amount)
        if take > 0:
            core.pay(session, t, kind, e, take, "cancellation", now)
            amount -= take
    if amount > 0:
        core.pay(session, t, "overlay", e, amount, "cancellation", now)


def cancel(session: Session, actor: Actor, settings: HouseSettings, tournament_id: int, reason: str,
           stacks: dict[int, int] | None = None, now: datetime | None = None, rule: str | None = None) -> dict:
    now = core.now_or(now)
    if not isinstance(reason, str) or not reason.strip():
        raise BadInput("a cancellation needs a reason", field="reason")
    t = core.lock(session, tournament_id)
    core.require_status(t, "registering", "running")
    refunded = []
    for e in core.entries(session, t, "registered", "alternate"):
        registration.refund(session, t, e, now)
        e.status = "refunded"
        refunded.append(e.id)
    shares = []
    settlement = None
    kept = 0
    core.place_late_busts(session, t)
    if t.status == "running":
        settlement = plan(session, settings, t, stacks or {}, rule, now)
        paid_in = {x.player: x for x in _survivors(session, t, stacks)}
        for s in settlement.shares:
            e = core.entry(session, t, s.player)
            if settlement.rule in ("fees_back", "fees_and_bounty_back"):
                core.pay(session, t, "fees", e, s.refund, "refund", now)
                core.pay(session, t, "bounties", e, s.bounty, "bounty", now)
                core.pay(session, t, "prize_pool", e, s.next_prize + s.equal_share + s.chip_share, "prize", now)
            else:
                # what is given back comes from where it went (buy-ins from the prize pool, fees from
                # the house, bounty stakes from the bounties), the rest from what is left
                paid_back = 0
                if s.refund:
                    parts = rules.CANCELLATION_RULES[settlement.rule].refund
                    mine = paid_in[e.id]
                    for part, kind in (("buy_ins", "prize_pool"), ("fees", "fees"), ("bounty_stake", "bounties")):
                        amount = min(getattr(mine, part) if part in parts else 0, s.refund - paid_back,
                                     ledger.balance(session, core.account(session, t, kind)))
                        if amount > 0:
                            core.pay(session, t, kind, e, amount, "refund", now)
                            paid_back += amount
                _pay_from_accounts(session, t, e, s.total - paid_back, now)
            e.prize += s.total - s.refund - s.bounty
            e.bounties_won += s.bounty
            e.bounty = 0
            e.chips = stacks[e.id]
            e.status, e.out_at = "finished", now
            shares.append({"entry_id": e.id, "refund": s.refund, "bounty": s.bounty, "next_prize": s.next_prize,
                           "equal_share": s.equal_share, "chip_share": s.chip_share, "total": s.total})
        if settlement.rule in ("refund", "sit_and_go") or settlement.rule.startswith("random_prize"):
            # what the players out paid and nobody is owed (their buy-ins, bounty stakes) goes to the house
            for kind in ("prize_pool", "bounties"):
                left = ledger.balance(session, core.account(session, t, kind))
                if left > 0:
                    ledger.post(session, [ledger.row(core.account(session, t, kind), core.account(session, t, "fees"),
                                                     left, "cancellation_kept", at=now, memo=f"tournament:{t.id}")])
                    kept += left
    t.status, t.finished_at = "cancelled", now
    core.release_tables(session, t)
    timers.cancel_timer(session, clock.timer_key(t))
    session.flush()
    result = {"rule": settlement.rule if settlement else "refund", "refunded": refunded, "shares": shares,
              "fund_short": settlement.fund_short if settlement else False, "kept_by_house": kept}
    audit.record(session, actor, "tournament.cancel", f"tournament:{t.id}", after=result | {"reason": reason.strip()})
    core.publish(session, t, "tournament.changed")
    return result
