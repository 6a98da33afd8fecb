"""The pit boss's rulings on a disputed round, each with a reason, all audited:

- **confirm**: the result stands (a held round is settled from the cards as recorded);
- **void**: every bet comes back. A round not settled yet is voided by ``floor.rounds.void_round``
  (stakes back from "in play"); a settled round keeps its settlement and gets compensating transfers
  that bring each bet to exactly its stake back, and its status becomes "voided";
- **correct** a mis-read card or number and re-settle: a held round is settled with the corrected
  result; a settled round keeps its settlement, and for each bet the difference between what the
  corrected result pays and what the ledger already gave it is paid (tray to player) or taken back
  (player to tray), commission likewise — new transfers, never an edited row.

Two-person rule: a ruling moving more than ``house.dispute_two_person_cents`` (a void, a
correction, the confirmation of a held round: stakes and returns together) waits for a second,
different pit boss (or admin) to approve it; until then nothing moves and the round stays as it is.
The rounds refuse the move itself without that approval (floor.rounds.twoperson), whatever the
route. One ruling may wait per round at a time.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timezone

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from floor import alerts, audit, ledger, notify, rounds
from floor.actors import Actor
from floor.errors import BadInput, Conflict, InvalidState, Money, Msg, NotAllowed, NotFound
from floor.models import Account, Round, RoundRuling, RulingApproval, Table, Transfer
from floor.models.pit import RULING_KINDS
from floor.models.rounds import ACTIVE
from floor.rounds import core, twoperson
from floor.rounds.twoperson import pending_for_round
from floor.rounds import history as results
from floor.settings import HouseSettings


def _now() -> datetime:
    return datetime.now(timezone.utc)


# --- what the ledger already gave each bet ---------------------------------------------------------

def ledger_by_bet(session: Session, round_id: int, bets: list[dict] | None = None) -> dict[int, dict[str, int]]:
    """Per bet, from the transfers alone (stakes left out): ``back`` what went to its funding account
    net of what came from it, ``commission`` what the commission account kept."""
    acc_kind = dict(session.execute(select(Account.id, Account.kind).where(
        Account.id.in_(select(Transfer.from_account_id).where(Transfer.round_id == round_id).union(
            select(Transfer.to_account_id).where(Transfer.round_id == round_id))))).all())
    funds = {b["id"]: b["account_id"] for b in (bets if bets is not None else results.bet_rows(session, round_id))}
    out: dict[int, dict[str, int]] = defaultdict(lambda: {"back": 0, "commission": 0})
    for bet_id, frm, to, amount, kind in session.execute(
            select(Transfer.bet_id, Transfer.from_account_id, Transfer.to_account_id, Transfer.amount, Transfer.kind)
            .where(Transfer.round_id == round_id, Transfer.bet_id.is_not(None), Transfer.kind != "stake")):
        fund = funds.get(bet_id)
        m = out[bet_id]
        if to == fund:
            m["back"] += amount
        elif frm == fund:
            m["back"] -= amount
        if acc_kind.get(to) == "commission":
            m["commission"] += amount
        elif acc_kind.get(frm) == "commission":
            m["commission"] -= amount
    return out


def compensating(session: Session, r: Round, targets: list[tuple[int, int]], bets: list[dict], at: datetime,
                 memo: str) -> tuple[list[dict], list[dict]]:
    """The transfers that bring each bet of a settled round from what the ledger gave it to
    ``targets`` (returned, commission), and a per-bet account of the differences."""
    acc = ledger.table_accounts(session, r.table_id)
    now = ledger_by_bet(session, r.id)
    rows, diffs = [], []
    for b, (back, comm) in zip(bets, targets):
        have = now.get(b["id"], {"back": 0, "commission": 0})
        d_gross = (back + comm) - (have["back"] + have["commission"])
        d_comm = comm - have["commission"]
        fund = b["account_id"]
        common = {"at": at, "round_id": r.id, "bet_id": b["id"], "memo": memo[:200]}
        if d_gross > 0:
            rows.append(ledger.row(acc.tray, fund, d_gross, "correction", **common))
        elif d_gross < 0:
            rows.append(ledger.row(fund, acc.tray, -d_gross, "correction", **common))
        if d_comm > 0:
            rows.append(ledger.row(fund, acc.commission, d_comm, "correction", **common))
        elif d_comm < 0:
            rows.append(ledger.row(acc.commission, fund, -d_comm, "correction", **common))
        diffs.append({"bet_id": b["id"], "spot": b["spot"], "seat": b["seat"], "player_id": b["player_id"],
                      "stake": b["amount"], "was": have["back"], "now": back, "difference": back - have["back"],
                      "commission_was": have["commission"], "commission_now": comm})
    return rows, diffs


# --- the plan of a ruling --------------------------------------------------------------------------

def _plan(session: Session, r: Round, kind: str, correction: dict | None, house: HouseSettings) -> dict:
    """What a ruling would do, without doing it: the corrected result, the money it moves, and
    (for a settled round) the difference per bet."""
    bets = results.bet_rows(session, r.id)
    staked = sum(b["amount"] for b in bets)
    plan = {"result": None, "amount": 0, "diffs": [], "staked": staked}
    if kind == "confirm":
        if r.status not in ("held", "result", "settled", "voided"):
            raise InvalidState("round {round} is {status}: nothing to confirm yet", code="still_running", round=r.number, status=r.status)
        if r.status == "held":   # settled by hand from the cards as recorded: stakes and returns move
            plan["amount"] = rounds.held_moves(session, r, rounds.held_result(session, r, None, house), house)
        return plan
    if kind == "void":
        if r.status == "voided":
            raise InvalidState("round {round} is already voided", code="already_ended", round=r.number)
        if r.status != "settled":
            plan["amount"] = staked
            return plan
        targets = [(b["amount"], 0) for b in bets]
    else:   # correct
        if r.status not in ("held", "settled"):
            raise InvalidState("round {round} is {status}: only a held or settled round is corrected",
                               code="not_correctable", round=r.number, status=r.status)
        if correction is None:
            raise BadInput("say what was mis-read and what it really was", field="correction")
        plan["result"] = results.corrected(session, r, correction, house)
        targets = results.pays(r.kind, plan["result"], bets, house)
        if r.status == "held":
            plan["amount"] = twoperson.settling_moves(bets, targets)
            return plan
        if results.same_result(r.kind, plan["result"], r.result):
            raise BadInput("the corrected result is the one the round was settled with", field="correction")
    _, diffs = compensating(session, r, targets, bets, _now(), "")
    plan["diffs"] = diffs
    plan["amount"] = sum(abs((d["now"] + d["commission_now"]) - (d["was"] + d["commission_was"])) for d in diffs)
    return plan


# --- states ------------------------------------------------------------------------------------------

def approval_of(session: Session, ruling_id: int) -> RulingApproval | None:
    return session.execute(select(RulingApproval).where(RulingApproval.ruling_id == ruling_id)).scalar_one_or_none()


def state(session: Session, ruling: RoundRuling, approval: RulingApproval | None = None) -> str:
    """applied | pending | rejected | withdrawn."""
    if not ruling.needs_approval:
        return "applied"
    approval = approval or approval_of(session, ruling.id)
    if approval is None:
        return "pending"
    return "applied" if approval.decision == "approved" else approval.decision


def pending(session: Session) -> list[RoundRuling]:
    return list(session.execute(
        select(RoundRuling).where(RoundRuling.needs_approval.is_(True),
                                  ~select(RulingApproval.id).where(RulingApproval.ruling_id == RoundRuling.id).exists())
        .order_by(RoundRuling.id)).scalars())


@dataclass(frozen=True)
class Ruling:
    """A ruling on a round as the pit reads it: the ruling itself, its round and table, and where it
    stands (the second pit boss's answer, when it needed one)."""

    id: int
    round_id: int
    round_number: int
    table_id: int
    table_number: int
    table_name: str
    game: str
    kind: str
    reason: str
    round_status: str
    correction: dict | None      # what the pit boss entered: number, cards or replace
    result: dict | None          # the corrected result, in the game's own terms
    replay: dict | None          # the replay check when ruled (``replay_check``)
    amount: int
    needs_approval: bool
    state: str                   # applied | pending | rejected | withdrawn
    decided_by: int | None
    decided_by_name: str
    terminal: str
    at: datetime
    approval: RulingApproval | None


def ruling_of(session: Session, ruling: RoundRuling, approval: RulingApproval | None = None,
              table: Table | None = None, round_: Round | None = None) -> Ruling:
    approval = approval if approval is not None else approval_of(session, ruling.id)
    table = table or session.get(Table, ruling.table_id)
    round_ = round_ or session.get(Round, ruling.round_id)
    return Ruling(id=ruling.id, round_id=ruling.round_id, round_number=round_.number, table_id=ruling.table_id,
                  table_number=table.number, table_name=table.name, game=round_.kind, kind=ruling.kind,
                  reason=ruling.reason, round_status=ruling.round_status, correction=ruling.correction,
                  result=ruling.result, replay=ruling.replay, amount=ruling.amount,
                  needs_approval=ruling.needs_approval, state=state(session, ruling, approval),
                  decided_by=ruling.decided_by, decided_by_name=ruling.decided_by_name, terminal=ruling.terminal,
                  at=ruling.at, approval=approval)


def _publish(session: Session, ruling: RoundRuling, st: str) -> None:
    notify.publish(session, "ruling.changed", {"id": ruling.id, "round_id": ruling.round_id,
                                               "table_id": ruling.table_id, "kind": ruling.kind, "state": st},
                   "role:pit_boss", "role:admin")


# --- ruling ------------------------------------------------------------------------------------------

def rule(session: Session, actor: Actor, round_id: int, kind: str, reason: str, correction: dict | None = None,
         at: datetime | None = None, *, house: HouseSettings) -> RoundRuling:
    """A pit boss rules on a round. Applied at once, or (a void or correction above the house
    threshold) left pending for a second pit boss."""
    at = at or _now()
    if kind not in RULING_KINDS:
        raise BadInput("a ruling is one of {kinds}", field="kind", kinds=", ".join(RULING_KINDS))
    reason = (reason or "").strip()
    if not reason:
        raise BadInput("a ruling needs a reason", field="reason")
    r = core.get_round(session, round_id, lock=True)
    waiting = pending_for_round(session, r.id)
    if waiting is not None:
        raise Conflict("ruling {waiting} on this round waits for a second pit boss: approve or reject it first",
                       code="ruling_pending", waiting=waiting.id)
    if kind != "correct":
        correction = None
    plan = _plan(session, r, kind, correction, house)
    replay = replay_check(session, r, house)
    needs = plan["amount"] > house.dispute_two_person_cents
    ruling = RoundRuling(round_id=r.id, table_id=r.table_id, kind=kind, reason=reason[:500], round_status=r.status,
                         correction=correction, result=plan["result"], replay=replay, amount=plan["amount"],
                         needs_approval=needs, decided_by=actor.staff_id, decided_by_name=actor.name,
                         terminal=actor.terminal, at=at)
    session.add(ruling)
    session.flush()
    audit.record(session, actor, "pit.ruling", f"round:{r.id}", before={"status": r.status},
                 after={"ruling": ruling.id, "kind": kind, "reason": ruling.reason, "correction": correction,
                        "amount": plan["amount"], "needs_second_pit_boss": needs}, at=at)
    if needs:
        core.event(session, r, r.table_id, "ruling", at, actor,
                   {"ruling": ruling.id, "kind": kind, "reason": ruling.reason, "pending": True, "amount": plan["amount"]})
        _publish(session, ruling, "pending")
        table = session.get(Table, r.table_id)
        alerts.raise_alert(session, actor, "ruling_pending",
                           Msg("Table {table} round {round}: {kind} of {amount} by {who} needs a second pit boss",
                               table=table.number, round=r.number, kind=kind, amount=Money(plan["amount"]),
                               who=actor.name), severity="warning", table_id=r.table_id,
                           data={"ruling_id": ruling.id, "round_id": r.id})
        return ruling
    _apply(session, actor, r, ruling, at, house)
    _publish(session, ruling, "applied")
    return ruling


def ruling_memo(ruling_id: int, reason: str) -> Msg:
    """What a ruling's money and a round it voids say: a voided round keeps it as its reason (a
    sentence); a transfer's memo keeps its English, said again from the ruling on the timeline."""
    return Msg("ruling {ruling}: {reason}", ruling=ruling_id, reason=reason)


def _apply(session: Session, actor: Actor, r: Round, ruling: RoundRuling, at: datetime, house: HouseSettings) -> None:
    """Do what the ruling says: the money moves now, in the caller's transaction."""
    memo = ruling_memo(ruling.id, ruling.reason)
    data = {"ruling": ruling.id, "kind": ruling.kind, "reason": ruling.reason}
    if ruling.kind == "confirm":
        if r.status in ("held", "result"):
            if r.status == "held":
                rounds.settle_held(session, actor, r.id, None, at=at, house=house, ruling_id=ruling.id)
            else:
                core.settle(session, r.id, at=at, actor=actor, house=house)
        core.event(session, r, r.table_id, "ruling", at, actor, data)
        return
    if ruling.kind == "void":
        if r.status in ACTIVE or r.status == "held":
            rounds.void_round(session, actor, r.id, memo, at=at, house=house, ruling_id=ruling.id)
            core.event(session, r, r.table_id, "ruling", at, actor, data)
            return
        if r.status != "settled":
            raise InvalidState("round {round} is {status}: it cannot be voided", code="already_ended", round=r.number, status=r.status)
        bets = results.bet_rows(session, r.id)
        rows, diffs = compensating(session, r, [(b["amount"], 0) for b in bets], bets, at, memo)
        ledger.post(session, rows, grant=ledger.authorize(session, actor, ledger.Purpose.CORRECTION, None, at=at))
        core.set_status(session, r, "voided", at, actor, kind="ruling", data={**data, "after_settlement": True,
                                                                              "transfers": len(rows)})
        core.publish(session, r, "round.voided")
        return
    # correct
    if r.status == "held":
        _settle_corrected(session, actor, r, ruling, at, house)
        return
    if r.status != "settled":
        raise InvalidState("round {round} is {status}: it cannot be corrected now", code="not_correctable", round=r.number, status=r.status)
    bets = results.bet_rows(session, r.id)
    targets = results.pays(r.kind, ruling.result, bets, house)
    rows, diffs = compensating(session, r, targets, bets, at, memo)
    # a player who cannot cover a take-back: 409 insufficient_balance
    ledger.post(session, rows, grant=ledger.authorize(session, actor, ledger.Purpose.CORRECTION, None, at=at))
    core.event(session, r, r.table_id, "correction", at, actor,
               {**data, "result": ruling.result, "transfers": len(rows),
                "difference": sum(d["difference"] for d in diffs)})
    audit.record(session, actor, "round.corrected", f"round:{r.id}", before={"result": core.public_result(r)},
                 after={"result": ruling.result, "ruling": ruling.id, "transfers": len(rows)}, at=at)
    core.publish(session, r, "round.corrected")


def _settle_corrected(session: Session, actor: Actor, r: Round, ruling: RoundRuling, at: datetime,
                      house: HouseSettings) -> None:
    """A held round settled with the corrected result: roulette and baccarat through
    ``rounds.settle_held``, the scanner games with the corrected flow's result."""
    res = dict(ruling.result)
    if r.kind == "roulette":
        rounds.settle_held(session, actor, r.id, {"number": res["number"]}, at=at, house=house, ruling_id=ruling.id)
    elif r.kind == "baccarat":
        rounds.settle_held(session, actor, r.id, {"cards": res["cards"]}, at=at, house=house, ruling_id=ruling.id)
    else:
        twoperson.require(session, r, rounds.held_moves(session, r, res, house), house, ruling.id)
        r.result = {**res, "by_hand": True}
        r.result_at = at
        core.event(session, r, r.table_id, "result", at, actor, {"by_hand": True, "ruling": ruling.id})
        core.settle(session, r.id, at=at, actor=actor, house=house, from_held=True)
    core.event(session, r, r.table_id, "ruling", at, actor, {"ruling": ruling.id, "kind": "correct",
                                                            "reason": ruling.reason})


# --- the second pit boss ------------------------------------------------------------------------------

def _get(session: Session, ruling_id: int) -> RoundRuling:
    ruling = session.get(RoundRuling, ruling_id)
    if ruling is None:
        raise NotFound("no ruling {ruling_id}", ruling_id=ruling_id)
    return ruling


def _answer(session: Session, actor: Actor, ruling: RoundRuling, decision: str, reason: str, at: datetime) -> RulingApproval:
    if not ruling.needs_approval:
        raise InvalidState("this ruling needed no second pit boss", code="no_approval_needed")
    done = approval_of(session, ruling.id)
    if done is not None:
        raise InvalidState("this ruling was already {decision}", code="already_decided", decision=done.decision)
    a = RulingApproval(ruling_id=ruling.id, decision=decision, reason=(reason or "").strip()[:500],
                       decided_by=actor.staff_id, decided_by_name=actor.name, terminal=actor.terminal, at=at)
    try:
        with session.begin_nested():
            session.add(a)
            session.flush()
    except IntegrityError:
        raise InvalidState("this ruling was just decided by someone else", code="already_decided") from None
    audit.record(session, actor, f"pit.ruling.{decision}", f"round:{ruling.round_id}",
                 after={"ruling": ruling.id, "kind": ruling.kind, "amount": ruling.amount, "reason": a.reason,
                        "proposed_by": ruling.decided_by_name}, at=at)
    return a


def approve(session: Session, actor: Actor, ruling_id: int, reason: str = "", at: datetime | None = None,
            *, house: HouseSettings) -> RoundRuling:
    """A second pit boss approves a pending ruling: it is applied now. Never the one who made it."""
    at = at or _now()
    ruling = _get(session, ruling_id)
    if actor.staff_id is None or actor.staff_id == ruling.decided_by:
        raise NotAllowed("the two-person rule: a second, different pit boss must approve this ruling",
                         code="own_ruling")
    r = core.get_round(session, ruling.round_id, lock=True)
    _answer(session, actor, ruling, "approved", reason, at)
    # Re-plan against the round as it is now (the ledger is the truth at the moment the money moves).
    _apply(session, actor, r, ruling, at, house)
    _publish(session, ruling, "applied")
    return ruling


def reject(session: Session, actor: Actor, ruling_id: int, reason: str, at: datetime | None = None) -> RoundRuling:
    """A second pit boss turns a pending ruling down (with a reason), or the one who made it
    withdraws it: nothing moves."""
    at = at or _now()
    if not (reason or "").strip():
        raise BadInput("say why", field="reason")
    ruling = _get(session, ruling_id)
    core.get_round(session, ruling.round_id, lock=True)
    decision = "withdrawn" if actor.staff_id is not None and actor.staff_id == ruling.decided_by else "rejected"
    _answer(session, actor, ruling, decision, reason, at)
    r = session.get(Round, ruling.round_id)
    core.event(session, r, r.table_id, "ruling", at, actor, {"ruling": ruling.id, "kind": ruling.kind,
                                                            decision: True, "reason": reason.strip()})
    _publish(session, ruling, decision)
    return ruling


def rulings_for_round(session: Session, round_id: int) -> list[Ruling]:
    rows = session.execute(select(RoundRuling).where(RoundRuling.round_id == round_id).order_by(RoundRuling.id)).scalars()
    return [ruling_of(session, x) for x in rows]


def recent(session: Session, limit: int = 30, only_pending: bool = False) -> list[Ruling]:
    if only_pending:
        return [ruling_of(session, x) for x in pending(session)]
    rows = session.execute(select(RoundRuling).order_by(RoundRuling.id.desc()).limit(limit)).scalars()
    return [ruling_of(session, x) for x in rows]


# --- the replay check ----------------------------------------------------------------------------------

def replay_check(session: Session, r: Round, house: HouseSettings,
                 bets: list[dict] | None = None) -> dict:
    """Recompute the result from the recorded cards (or the wheel's two readings) with floor.games,
    and the payouts from it, and compare with what was settled: result and every bet's money."""
    again = results.replayed(session, r, house)
    out = {"result": again, "settled_result": core.public_result(r), "result_matches": None,
           "payouts_match": None, "bets": []}
    if again is None or r.result is None:
        return out
    out["result_matches"] = results.same_result(r.kind, again, r.result)
    if r.status not in ("settled", "voided"):
        return out
    bets = bets if bets is not None else results.bet_rows(session, r.id)
    try:
        targets = results.pays(r.kind, again, bets, house)
    except Exception:
        return out
    have = ledger_by_bet(session, r.id, bets)
    settled_back = _settlement_only(session, r.id, bets)
    all_ok = True
    for b, (back, comm) in zip(bets, targets):
        paid = settled_back.get(b["id"], 0)
        ok = paid == back
        all_ok = all_ok and ok
        out["bets"].append({"bet_id": b["id"], "spot": b["spot"], "seat": b["seat"], "stake": b["amount"],
                            "replay_returns": back, "settled_returned": paid,
                            "now_returned": have.get(b["id"], {}).get("back", 0), "matches": ok})
    out["payouts_match"] = all_ok
    return out


def _settlement_only(session: Session, round_id: int, bets: list[dict] | None = None) -> dict[int, int]:
    """What the original settlement (not later corrections) handed back to each bet, net of commission."""
    funds = {b["id"]: b["account_id"] for b in (bets if bets is not None else results.bet_rows(session, round_id))}
    out: dict[int, int] = defaultdict(int)
    for bet_id, frm, to, amount in session.execute(
            select(Transfer.bet_id, Transfer.from_account_id, Transfer.to_account_id, Transfer.amount)
            .where(Transfer.round_id == round_id, Transfer.bet_id.is_not(None),
                   Transfer.kind.in_(("return", "win", "lose", "commission", "refund")))):
        if to == funds.get(bet_id):
            out[bet_id] += amount
        elif frm == funds.get(bet_id):
            out[bet_id] -= amount
    return out
