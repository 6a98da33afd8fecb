"""Cancelling a tournament that cannot finish, by the pure formulas
(floor.games.tournament.cancellation), paid through the ledger. Before the start (or for a player
still waiting as an alternate) everything paid goes back; once it runs, the players still in share
by the house's rule (``tournament_cancellation_rule``); the players already out get nothing more."""
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


def plan(session: Session, settings: HouseSettings, t: Tournament, stacks: dict[int, int]) -> rules.Settlement:
    """What each player still in would get (shown before anyone confirms)."""
    left = core.entries(session, t, "seated")
    if not isinstance(stacks, dict) or sorted(stacks) != sorted(e.id for e in left):
        raise BadInput("the chips of every player still seated, and only theirs", field="stacks")
    bought: dict[int, tuple[int, int]] = {}
    for p in core.purchases(session, t):
        price, fee = bought.get(p.entry_id, (0, 0))
        bought[p.entry_id] = (price + p.price, fee + p.fee)
    survivors = [rules.Survivor(e.id, stacks[e.id], buy_ins=t.buy_in + bought.get(e.id, (0, 0))[0],
                                fees=t.fee + bought.get(e.id, (0, 0))[1], bounty_stake=t.bounty, bounty=e.bounty)
                 for e in left]
    collected = core.pool_collected(session, t)
    prizes = core.payouts(session, t, settings.tournament_payout_unit, pool=collected)
    pool_left = ledger.balance(session, core.account(session, t, "prize_pool"))
    return rules.cancel_from_prize_pool(survivors, rule=settings.tournament_cancellation_rule,
                                        prize_pool_left=pool_left, prizes=prizes)


def cancel(session: Session, actor: Actor, settings: HouseSettings, tournament_id: int, reason: str,
           stacks: dict[int, int] | None = None, now: datetime | None = None) -> dict:
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
    core.place_late_busts(session, t)
    if t.status == "running":
        settlement = plan(session, settings, t, stacks or {})
        for s in settlement.shares:
            e = core.entry(session, t, s.player)
            core.pay(session, t, "fees", e, s.refund, "refund", now)
            core.pay(session, t, "bounties", e, s.bounty, "bounty", now)
            core.pay(session, t, "prize_pool", e, s.next_prize + s.equal_share + s.chip_share, "prize", now)
            e.prize += s.total - s.refund
            e.bounties_won += s.bounty
            e.bounty = 0
            e.chips = stacks[e.id]
            e.status, e.out_at = "finished", now
            shares.append({"entry_id": e.id, "refund": s.refund, "bounty": s.bounty, "next_prize": s.next_prize,
                           "equal_share": s.equal_share, "chip_share": s.chip_share, "total": s.total})
    t.status, t.finished_at = "cancelled", now
    timers.cancel_timer(session, clock.timer_key(t))
    session.flush()
    result = {"rule": settlement.rule if settlement else "refund", "refunded": refunded, "shares": shares,
              "fund_short": settlement.fund_short if settlement else False}
    audit.record(session, actor, "tournament.cancel", f"tournament:{t.id}", after=result | {"reason": reason.strip()})
    core.publish(session, t, "tournament.changed")
    return result
