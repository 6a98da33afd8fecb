"""A round laid out again for a dispute: every raw device frame as received (decoded alongside),
every state change, every bet and decision with who placed it and from which terminal, the result,
every ledger transfer, the rulings; the cards as they were dealt; and the replay check."""
from __future__ import annotations

import json

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from floor.errors import Msg, NotFound, Term
from floor.games import baccarat, blackjack, roulette
from floor.games.cards import Card
from floor.models import (
    Account,
    AuditRecord,
    Bet,
    DeviceFrame,
    Player,
    Round,
    RoundCard,
    RoundEvent,
    RoundRuling,
    Settlement,
    Table,
    Transfer,
)
from floor.pit import rulings
from floor.rounds import core
from floor.rounds import history as results
from floor.settings import HouseSettings

CONTROL = {0x02: "<STX>", 0x03: "<ETX>", 0x06: "<ACK>", 0x15: "<NAK>", 0x0D: "<CR>", 0x0A: "<LF>", 0x04: "<EOT>",
           0x05: "<ENQ>", 0x10: "<DLE>", 0x17: "<ETB>", 0x1B: "<ESC>", 0x00: "<NUL>"}


def printable(raw: bytes) -> str:
    """The bytes as received, readable: ASCII as is, control bytes by name, the rest in hex."""
    out = []
    for b in raw:
        if b in CONTROL:
            out.append(CONTROL[b])
        elif 0x20 <= b < 0x7F:
            out.append(chr(b))
        else:
            out.append(f"\\x{b:02x}")
    return "".join(out)


def _iso(dt):
    return dt.isoformat() if dt else None


def _colour(n: int) -> str:
    return "green" if n == 0 else ("red" if n in roulette.RED else "black")


# --- the cards as dealt --------------------------------------------------------------------------

def _bj_total(codes: list[str]) -> int | None:
    cards = [Card.parse(c) for c in codes if c and c != "??"]
    return blackjack.hand_value(cards)[0] if cards else None


def layout(r: Round, cards: list[dict], decisions: list[dict], result: dict | None) -> dict:
    """The table as it lay: ``cards`` are {"step", "card", "target", ...} in deal order."""
    if r.kind == "roulette":
        number = (result or {}).get("number")
        return {"kind": "roulette", "number": number, "colour": _colour(number) if number is not None else None}
    if r.kind == "baccarat":
        hands = {"player": [c for c in cards if c["target"] == "player"],
                 "banker": [c for c in cards if c["target"] == "banker"]}
        if not cards and result and result.get("player"):
            hands = {side: [{"card": x, "target": side} for x in result[side]] for side in ("player", "banker")}
        totals = {side: baccarat.total([Card.parse(c["card"]) for c in hands[side]]) if hands[side] else None
                  for side in hands}
        return {"kind": "baccarat", "player": hands["player"], "banker": hands["banker"], "totals": totals,
                "winner": (result or {}).get("winner")}
    seats: dict[str, dict] = {}
    dealer, board = [], []
    for c in cards:
        t = c["target"] or ""
        if t == "dealer":
            dealer.append(c)
        elif t == "board":
            board.append(c)
        elif t.startswith("seat:"):
            parts = t.split(":")
            seat = parts[1]
            hand = int(parts[2]) if len(parts) > 2 else 1
            s = seats.setdefault(seat, {"seat": int(seat), "hands": {}, "decisions": []})
            s["hands"].setdefault(hand, []).append(c)
    for d in decisions:
        seat = str(d.get("seat"))
        seats.setdefault(seat, {"seat": int(seat), "hands": {}, "decisions": []})["decisions"].append(d["action"])
    out_seats = []
    for key in sorted(seats, key=int):
        s = seats[key]
        hands = [{"hand": h, "cards": s["hands"][h],
                  "total": _bj_total([c["card"] for c in s["hands"][h]]) if r.kind == "blackjack" else None}
                 for h in sorted(s["hands"])]
        out_seats.append({"seat": s["seat"], "hands": hands, "decisions": s["decisions"]})
    return {"kind": r.kind, "seats": out_seats, "dealer": dealer, "board": board,
            "dealer_total": _bj_total([c["card"] for c in dealer]) if r.kind == "blackjack" else None}


def corrected_cards(cards: list[dict], ruling: RoundRuling, retarget=None) -> list[dict]:
    """The cards with the ruling's correction applied (marked, with what was read). In baccarat a
    corrected card may change who gets the next ones: the tableau deals the corrected coup again."""
    corr = ruling.correction or {}
    res = ruling.result or {}
    if res.get("cards"):
        order, dealt = [], []
        for i, code in enumerate(res["cards"]):
            target = baccarat.next_target(dealt)
            dealt.append(Card.parse(code))
            was = cards[i]["card"] if i < len(cards) else None
            order.append({"step": cards[i]["step"] if i < len(cards) else i + 1, "card": code, "target": target,
                          "corrected": was != code, "was": was})
        return order
    if corr.get("replace"):
        repl = {int(k): str(Card.parse(v)) for k, v in corr["replace"].items()}
        out = [{**c, "card": repl[c["step"]], "corrected": True, "was": c["card"]}
               if c["step"] in repl and repl[c["step"]] != c["card"] else c for c in cards]
        targets = retarget([Card.parse(c["card"]) for c in out]) if retarget else None
        if targets and len(targets) == len(out):   # a corrected card may send the next ones elsewhere
            out = [{**c, "target": t} for c, t in zip(out, targets)]
        return out
    return cards


# --- the timeline --------------------------------------------------------------------------------

def timeline(session: Session, round_id: int, house: HouseSettings) -> dict:
    """Everything about the round; ``entries`` in time order, each (what it is, the thing): frame,
    card, event, bet, transfer, settlement (plain maps), ruling (a ``rulings.Ruling``), approval."""
    r = core.get_round(session, round_id)
    table = session.get(Table, r.table_id)
    audits = list(session.execute(select(AuditRecord).where(AuditRecord.subject == f"round:{r.id}")
                                  .order_by(AuditRecord.id)).scalars())
    by_bet: dict[int, AuditRecord] = {}
    by_action: dict[tuple[str, str], AuditRecord] = {}
    for a in audits:
        if a.action == "bet.place" and a.after:
            try:
                by_bet[json.loads(a.after)["id"]] = a
            except (ValueError, KeyError, TypeError):
                pass
        by_action.setdefault((a.action, _iso(a.at)), a)

    def who(action: str, at, fallback: str = "") -> dict:
        a = by_action.get((action, _iso(at)))
        if a is None:
            return {"by": fallback, "role": None, "terminal": None}
        return {"by": a.actor, "role": a.role, "terminal": a.terminal}

    entries: list[tuple] = []

    # raw device frames, as received, decoded alongside
    frames = []
    for f in session.execute(select(DeviceFrame).where(DeviceFrame.round_id == r.id).order_by(DeviceFrame.id)).scalars():
        item = {"id": f.id, "at": _iso(f.arrived_at), "device": f.device, "raw": printable(f.raw or b""),
                "hex": (f.raw or b"").hex(" "), "bytes": len(f.raw or b""), "decoded": f.summary}
        frames.append(item)
        entries.append((f.arrived_at, 0, f.id, ("frame", item)))

    # cards, accepted or not
    cards = []
    for c in session.execute(select(RoundCard).where(RoundCard.round_id == r.id).order_by(RoundCard.id)).scalars():
        item = {"id": c.id, "at": _iso(c.at), "step": c.step, "card": c.card, "source": c.source, "target": c.target,
                "accepted": c.accepted, "reason": c.reason}
        if c.accepted:
            cards.append(item)
        entries.append((c.at, 1, c.id, ("card", item)))
    cards.sort(key=lambda c: c["step"] or 0)

    # state changes and decisions
    decisions = []
    for e in session.execute(select(RoundEvent).where(RoundEvent.round_id == r.id).order_by(RoundEvent.id)).scalars():
        action = {"decision": "round.decision", "correction": "round.corrected"}.get(
            e.kind, f"round.{e.status_to}" if e.status_to else "pit.ruling" if e.kind == "ruling" else "")
        if e.kind == "status" and e.status_from is None:
            action = "round.open"
        item = {"id": e.id, "at": _iso(e.at), "kind": e.kind, "from": e.status_from, "to": e.status_to,
                "step": e.step, "data": e.data, **who(action, e.at, e.actor)}
        item["by"] = item["by"] or e.actor
        if e.kind == "decision":
            decisions.append({**(e.data or {}), "step": e.step, "at": item["at"], "by": item["by"],
                              "terminal": item["terminal"]})
        entries.append((e.at, 2, e.id, ("event", item)))

    # bets: who placed them, from where (plain rows: a big spin has thousands)
    bets, bet_rows = [], []
    for b in session.execute(select(Bet.id, Bet.placed_at, Bet.spot, Bet.numbers, Bet.seat, Bet.hand, Bet.amount,
                                    Bet.requested, Bet.player_id, Bet.source, Bet.placed_by, Bet.account_id,
                                    Player.name.label("player")).outerjoin(Player, Player.id == Bet.player_id)
                             .where(Bet.round_id == r.id).order_by(Bet.id)).mappings():
        a = by_bet.get(b["id"])
        item = {"id": b["id"], "at": _iso(b["placed_at"]), "spot": b["spot"], "numbers": b["numbers"], "seat": b["seat"],
                "hand": b["hand"], "amount": b["amount"], "requested": b["requested"], "player_id": b["player_id"],
                "player": b["player"], "source": b["source"], "by": a.actor if a else b["placed_by"],
                "role": a.role if a else None, "terminal": a.terminal if a else None}
        bets.append(item)
        bet_rows.append({"id": b["id"], "account_id": b["account_id"], "spot": b["spot"], "numbers": b["numbers"],
                         "amount": b["amount"], "seat": b["seat"], "hand": b["hand"], "player_id": b["player_id"]})
        entries.append((item["at"], 3, b["id"], ("bet", dict(item))))   # a copy: the money is added below

    # every transfer, with the accounts by name
    moves = session.execute(select(Transfer.id, Transfer.at, Transfer.kind, Transfer.amount, Transfer.bet_id,
                                   Transfer.memo, Transfer.from_account_id, Transfer.to_account_id)
                            .where(Transfer.round_id == r.id).order_by(Transfer.id)).all()
    used = {m.from_account_id for m in moves} | {m.to_account_id for m in moves}
    accounts = {a.id: a for a in session.execute(select(Account.id, Account.key, Account.kind, Account.player_id)
                                                 .where(Account.id.in_(used))).all()} if used else {}
    pids = {a.player_id for a in accounts.values() if a.player_id}
    names = dict(session.execute(select(Player.id, Player.name).where(Player.id.in_(pids))).all()) if pids else {}
    house_labels = {"tray": Msg("table tray"), "in_play": Msg("in play"), "commission": Msg("commission"),
                    "chips": Msg("seat chips"), "cage": Msg("cage")}

    def label(acc) -> str:
        if acc.kind == "player":
            return Msg("{name} (player {id})", name=names.get(acc.player_id, "?"), id=acc.player_id)
        return house_labels.get(acc.kind, acc.key)
    # a ruling's transfers: their memo (English in the ledger) as the ruling's sentence
    memos = {}
    for x in rulings.rulings_for_round(session, r.id) if moves else ():
        said = rulings.ruling_memo(x.id, x.reason)
        memos[str.__str__(said)[:200]] = said
    transfers = []
    for m in moves:
        a_from, a_to = accounts[m.from_account_id], accounts[m.to_account_id]
        item = {"id": m.id, "at": _iso(m.at), "kind": m.kind, "amount": m.amount, "bet_id": m.bet_id,
                "memo": memos.get(m.memo, m.memo),
                "from": a_from.key, "to": a_to.key, "from_label": label(a_from), "to_label": label(a_to)}
        transfers.append(item)
        entries.append((item["at"], 4, m.id, ("transfer", item)))

    settlement = session.execute(select(Settlement).where(Settlement.round_id == r.id)).scalar_one_or_none()
    if settlement is not None:
        entries.append((settlement.at, 5, settlement.id, ("settlement", {
            "at": _iso(settlement.at), "outcome": settlement.outcome, "bets": settlement.bets,
            "staked": settlement.staked, "returned": settlement.returned, "commission": settlement.commission,
            "by": settlement.actor, "reason": settlement.reason})))

    rulings_list = rulings.rulings_for_round(session, r.id)
    for x in rulings_list:
        entries.append((x.at, 6, x.id, ("ruling", x)))
        if x.approval is not None:
            a = x.approval
            entries.append((a.at, 7, x.id, ("approval", {
                "ruling_id": x.id, "kind": x.kind, "decision": a.decision, "reason": a.reason, "by": a.decided_by,
                "by_name": a.decided_by_name, "terminal": a.terminal, "at": _iso(a.at)})))

    def key(e):
        at = e[0] if isinstance(e[0], str) else _iso(e[0])
        return (at or "", e[1], e[2])
    entries.sort(key=key)

    # the money per bet: staked, what the settlement gave, what corrections added, where it ends
    per_bet = rulings.ledger_by_bet(session, r.id, bet_rows)
    first = rulings._settlement_only(session, r.id, bet_rows)
    for b in bets:
        b["settled_returned"] = first.get(b["id"], 0) if settlement is not None else None
        b["returned_now"] = per_bet.get(b["id"], {}).get("back", 0) if settlement is not None else None
        b["corrections"] = (b["returned_now"] - b["settled_returned"]) if settlement is not None else None

    applied = [x for x in rulings_list if x.state == "applied" and x.kind == "correct"]
    effective = applied[-1].result if applied else core.public_result(r)
    last_correction = None
    if applied:
        last_correction = session.get(RoundRuling, applied[-1].id)
    round_out = {
        "id": r.id, "table_id": r.table_id, "number": r.number, "kind": r.kind, "status": r.status,
        "coup": r.coup, "spin": r.spin, "shoe_id": r.shoe_id, "opened_at": _iso(r.opened_at),
        "closes_at": _iso(r.closes_at), "locked_at": _iso(r.locked_at), "result_at": _iso(r.result_at),
        "ended_at": _iso(r.ended_at), "result": core.public_result(r), "held_reason": r.held_reason,
        "settlement": None if settlement is None else {
            "outcome": settlement.outcome, "bets": settlement.bets, "staked": settlement.staked,
            "returned": settlement.returned, "commission": settlement.commission, "at": _iso(settlement.at),
            "actor": settlement.actor, "reason": settlement.reason},
        "table": {"id": table.id, "number": table.number, "name": table.name, "kind": table.kind},
        "device": r.device}
    return {
        "round": round_out,
        "layout": layout(r, cards, decisions, core.public_result(r)),
        "corrected_layout": (layout(r, corrected_cards(cards, last_correction,
                                                       lambda cs: results.flow_targets(session, r, cs, house)),
                                       decisions, effective)
                             if last_correction is not None else None),
        "effective_result": effective,
        "replay": rulings.replay_check(session, r, house, bet_rows),
        "entries": [e[3] for e in entries],
        "frames": frames, "cards": cards, "bets": bets, "transfers": transfers, "decisions": decisions,
        "audit": [{"id": a.id, "at": _iso(a.at), "action": a.action, "by": a.actor, "role": a.role,
                   "terminal": a.terminal, "before": a.before, "after": a.after} for a in audits],
        "rulings": rulings_list,
        "pending": next((x for x in rulings_list if x.state == "pending"), None),
        "totals": {"staked": sum(b["amount"] for b in bets),
                   "returned": sum(b["returned_now"] or 0 for b in bets) if settlement is not None else None},
    }


def find_round(session: Session, table_number: int, number: int) -> Round:
    r = session.execute(select(Round).join(Table, Table.id == Round.table_id)
                        .where(Table.number == table_number, Round.number == number)).scalar_one_or_none()
    if r is None:
        raise NotFound("no round {number} at table {table_number}", number=number, table_number=table_number)
    return r


def recent_rounds(session: Session, table_number: int | None = None, status: str | None = None,
                  limit: int = 30, before_id: int | None = None) -> list[dict]:
    """Rounds newest first, with what a pit boss scans: table, status, result, stakes, rulings."""
    q = (select(Round, Table.number, Table.name).join(Table, Table.id == Round.table_id)
         .order_by(Round.id.desc()).limit(max(1, min(limit, 200))))
    if table_number is not None:
        q = q.where(Table.number == table_number)
    if status:
        q = q.where(Round.status == status)
    if before_id:
        q = q.where(Round.id < before_id)
    rows = session.execute(q).all()
    ids = [r.id for r, _, _ in rows]
    staked = dict(session.execute(select(Bet.round_id, func.sum(Bet.amount)).where(Bet.round_id.in_(ids))
                                  .group_by(Bet.round_id)).all()) if ids else {}
    nbets = dict(session.execute(select(Bet.round_id, func.count(Bet.id)).where(Bet.round_id.in_(ids))
                                 .group_by(Bet.round_id)).all()) if ids else {}
    ruled = dict(session.execute(select(RoundRuling.round_id, func.count(RoundRuling.id))
                                 .where(RoundRuling.round_id.in_(ids)).group_by(RoundRuling.round_id)).all()) if ids else {}
    return [{"id": r.id, "table_id": r.table_id, "table_number": num, "table_name": name, "number": r.number,
             "kind": r.kind, "status": r.status, "coup": r.coup, "spin": r.spin, "opened_at": _iso(r.opened_at),
             "ended_at": _iso(r.ended_at), "result": summary(r), "held_reason": r.held_reason,
             "staked": int(staked.get(r.id, 0) or 0), "bets": int(nbets.get(r.id, 0) or 0),
             "rulings": int(ruled.get(r.id, 0) or 0)} for r, num, name in rows]


def summary(r: Round) -> str:
    """The result in a few words (cards as cards, said in the reader's language by the web layer)."""
    res = r.result or {}
    if r.kind == "roulette" and "number" in res:
        return str(res["number"])
    if r.kind == "baccarat" and "winner" in res:
        if res["winner"] == "tie":
            return Msg("tie {player}-{banker}", player=res.get("player_total"), banker=res.get("banker_total"))
        return Msg("{side} wins {player}-{banker}", side=Term(res["winner"]), player=res.get("player_total"),
                   banker=res.get("banker_total"))
    if r.kind == "blackjack" and res.get("dealer"):
        return Msg("dealer {cards}", cards=" ".join(res["dealer"]))
    if r.kind == "casino_holdem" and res.get("board"):
        return Msg("board {cards}", cards=" ".join(res["board"]))
    return ""


__all__ = ["timeline", "layout", "printable", "find_round", "recent_rounds"]
