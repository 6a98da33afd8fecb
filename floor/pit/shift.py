"""Shift figures per table and gaming day, from the rounds and the ledger alone.

For the rounds opened in the gaming day at each live-game table:
- rounds played (settled), voided, held (ever, during the round) and still held or running;
- handle: every stake placed; refunded: stakes returned by voids before settlement;
- payouts: what the tray paid to players beyond their stakes, net of what corrections took back;
- commission: what the commission account kept; win/loss: the house's result (tray and
  commission together; positive means the house won);
- corrections: what rulings moved to (positive) or from (negative) the players;
- device faults: device alerts at the table during the gaming day (faults, losses, unplugs, and
  frames no round could take);
- the table's chips (floor.accounting, docs/table-accounting.md): the drop (the count room's count,
  else the buy-ins recorded), fills, credits, the win from the tray
  (drop + (closing - opening) + credits - fills) and hold (win / drop) over the shifts closed in the
  day, the rounds' win in chips and the reconciliation's difference (None: no closed shift).

And per tournament with money moving in the gaming day: entries paid, fees (the house's revenue, net
of refunds), buy-ins collected for the prize pool, prizes paid, the overlay the house added for a
guarantee. The prize pool and the bounties are the players' money, never the house's result.
"""
from __future__ import annotations

import io
from collections import defaultdict
from datetime import date, datetime
from zoneinfo import ZoneInfo

from sqlalchemy import func, select
from sqlalchemy.orm import Session, aliased

from floor import spreadsheet
from floor import accounting
from floor.games.table_win import hold_basis_points
from floor.gaming_day import gaming_day, gaming_day_bounds
from floor.models import Account, Alert, Round, RoundEvent, RoundRuling, Table, Tournament, Transfer
from floor.settings import HouseSettings

DEVICE_ALERTS = ("device_fault", "device_lost", "device_disconnected", "impossible_card", "card_no_round",
                 "result_without_no_more_bets")
COLUMNS = [("table", "Table"), ("name", "Name"), ("game", "Game"), ("played", "Rounds played"),
           ("voided", "Voided"), ("held", "Held"), ("open", "Still open"), ("bets", "Bets"), ("handle", "Handle"),
           ("refunded", "Refunded"), ("payouts", "Payouts"), ("commission", "Commission"), ("win_loss", "Win/loss"),
           ("corrections", "Corrections"), ("rulings", "Rulings"), ("device_faults", "Device faults"),
           ("drop", "Drop"), ("fills", "Fills"), ("credits", "Credits"), ("win", "Win"), ("hold", "Hold %"),
           ("rounds_win", "Rounds' win (chips)"), ("difference", "Reconciliation difference")]
MONEY = {"handle", "refunded", "payouts", "commission", "win_loss", "corrections", "drop", "fills", "credits", "win",
         "rounds_win", "difference"}
CHIPS = ("drop", "fills", "credits", "win", "rounds_win", "difference")   # None when no shift closed
HOUSE_KINDS = ("tray", "commission")


def today(house: HouseSettings, now: datetime) -> date:
    return gaming_day(now, house.timezone, house.gaming_day_rollover)


def figures(session: Session, day: date, house: HouseSettings, table_number: int | None = None) -> dict:
    start, end = gaming_day_bounds(day, house.timezone, house.gaming_day_rollover)
    tq = select(Table).where(Table.kind != "poker").order_by(Table.number)
    if table_number is not None:
        tq = tq.where(Table.number == table_number)
    tables = list(session.execute(tq).scalars())
    chips = {d.table_id: d for d in accounting.day_figures(session, day, table_number)}
    rows = []
    for t in tables:
        rows.append({**_table(session, t, start, end), **_chips(chips[t.id])})
    numeric = [k for k, _ in COLUMNS if k not in ("table", "name", "game", "hold") + CHIPS] + ["still_held"]
    totals = {k: sum(r[k] for r in rows) for k in numeric}
    for k in CHIPS:
        given = [r[k] for r in rows if r[k] is not None]
        totals[k] = sum(given) if given else None
    totals["hold"] = (hold_basis_points(totals["win"], totals["drop"])
                      if totals["win"] is not None and totals["drop"] is not None else None)
    totals["drop_counted"] = all(r["drop_counted"] for r in rows) if rows else False
    totals["faults_by_kind"] = {}
    for r in rows:
        for k, n in r["faults_by_kind"].items():
            totals["faults_by_kind"][k] = totals["faults_by_kind"].get(k, 0) + n
    return {"day": day.isoformat(), "from": start.isoformat(), "to": end.isoformat(), "currency": house.currency,
            "tables": rows, "totals": totals, "tournaments": _tournaments(session, start, end)}


def _chips(d: accounting.sheet.TableDay) -> dict:
    return {"drop": d.drop, "drop_counted": d.counted_drop is not None, "recorded_drop": d.recorded_drop,
            "drop_difference": d.drop_difference, "fills": d.fills, "credits": d.credits, "win": d.win,
            "hold": d.hold_bp, "rounds_win": d.rounds_win, "difference": d.difference}


def _tournaments(session: Session, start: datetime, end: datetime) -> list[dict]:
    """Each tournament's money of the day, from its ledger accounts (``fees:t<id>``, ``prize_pool:t<id>``,
    ``overlay:t<id>``)."""
    src, dst = aliased(Account), aliased(Account)
    moves = session.execute(
        select(src.key, src.kind, dst.key, dst.kind, Transfer.kind, Transfer.amount)
        .join(src, src.id == Transfer.from_account_id).join(dst, dst.id == Transfer.to_account_id)
        .where(Transfer.at >= start, Transfer.at < end,
               (src.kind.in_(("fees", "prize_pool", "overlay"))) | (dst.kind.in_(("fees", "prize_pool", "overlay"))))).all()
    out: dict[int, dict] = {}

    def row(key: str) -> dict:
        tid = int(key.split(":t", 1)[1])
        return out.setdefault(tid, {"tournament_id": tid, "entries": 0, "fees": 0, "collected": 0, "prizes": 0,
                                    "overlay": 0, "rebuys": 0})
    for src_key, src_kind, dst_key, dst_kind, kind, amount in moves:
        if dst_kind == "fees":
            row(dst_key)["fees"] += amount
        if src_kind == "fees":
            row(src_key)["fees"] -= amount          # a refund or a cancellation gives a fee back
        if dst_kind == "prize_pool" and kind == "buy_in":
            r = row(dst_key)
            r["collected"] += amount
            r["entries"] += 1
        if dst_kind == "prize_pool" and kind in ("rebuy", "add_on"):
            r = row(dst_key)
            r["collected"] += amount                # the players' money, like a buy-in
            r["rebuys"] += 1
        if src_kind == "prize_pool" and kind == "refund":
            r = row(src_key)
            r["collected"] -= amount
            r["entries"] -= 1
        if src_kind == "prize_pool" and kind in ("prize", "cancellation"):
            row(src_key)["prizes"] += amount
        if src_kind == "overlay":
            row(src_key)["overlay"] += amount
    names = dict(session.execute(select(Tournament.id, Tournament.name).where(Tournament.id.in_(list(out)))).all())
    for tid, r in out.items():
        r["name"] = names.get(tid, "")
        r["house"] = r["fees"] - r["overlay"]
    return [out[k] for k in sorted(out)]


def _table(session: Session, t: Table, start: datetime, end: datetime) -> dict:
    in_day = (Round.table_id == t.id, Round.opened_at >= start, Round.opened_at < end)
    status = dict(session.execute(select(Round.status, func.count(Round.id)).where(*in_day)
                                  .group_by(Round.status)).all())
    round_ids = select(Round.id).where(*in_day)
    held = session.execute(select(func.count(func.distinct(RoundEvent.round_id))).where(
        RoundEvent.round_id.in_(round_ids), RoundEvent.status_to == "held")).scalar_one()
    ruled = session.execute(select(func.count(RoundRuling.id)).where(RoundRuling.round_id.in_(round_ids))).scalar_one()
    src, dst = aliased(Account), aliased(Account)
    money = defaultdict(int)
    bets = set()
    for kind, amount, bet_id, k_from, k_to in session.execute(
            select(Transfer.kind, Transfer.amount, Transfer.bet_id, src.kind, dst.kind)
            .join(src, src.id == Transfer.from_account_id).join(dst, dst.id == Transfer.to_account_id)
            .where(Transfer.round_id.in_(round_ids))):
        if kind == "stake":
            money["handle"] += amount
            bets.add(bet_id)
        if kind == "refund":
            money["refunded"] += amount
        if k_from == "tray" and k_to in ("player", "chips"):
            money["payouts"] += amount
        if k_to == "tray" and k_from in ("player", "chips") and kind == "correction":
            money["payouts"] -= amount
        if k_to == "commission":
            money["commission"] += amount
        if k_from == "commission":
            money["commission"] -= amount
        if k_to in HOUSE_KINDS and k_from not in HOUSE_KINDS:
            money["win_loss"] += amount
        if k_from in HOUSE_KINDS and k_to not in HOUSE_KINDS:
            money["win_loss"] -= amount
        if kind == "correction":
            if k_to in ("player", "chips"):
                money["corrections"] += amount
            elif k_from in ("player", "chips"):
                money["corrections"] -= amount
    faults = dict(session.execute(select(Alert.kind, func.count(Alert.id)).where(
        Alert.table_id == t.id, Alert.at >= start, Alert.at < end, Alert.kind.in_(DEVICE_ALERTS))
        .group_by(Alert.kind)).all())
    running = sum(n for s, n in status.items() if s not in ("settled", "voided"))
    return {"table_id": t.id, "table": t.number, "name": t.name, "game": t.kind,
            "played": status.get("settled", 0), "voided": status.get("voided", 0), "held": held,
            "still_held": status.get("held", 0), "open": running, "bets": len(bets),
            "handle": money["handle"], "refunded": money["refunded"], "payouts": money["payouts"],
            "commission": money["commission"], "win_loss": money["win_loss"], "corrections": money["corrections"],
            "rulings": ruled, "device_faults": sum(faults.values()), "faults_by_kind": faults}


def _cell(key: str, value) -> str:
    if value is None:
        return ""
    if key == "hold":
        return _money(value)                      # hundredths of a percent, written as a percentage
    if key in MONEY:
        sign = "-" if value < 0 else ""
        return f"{sign}{abs(value) // 100}.{abs(value) % 100:02d}"
    return str(value)


def to_csv(fig: dict) -> str:
    """One row per table and a total row; then, under their own header, one row per tournament whose
    money moved in the day (fees are the house's revenue, the prize pool is the players' money, so
    only fees less the overlay count as the house's result). Money in the house currency with two
    decimals."""
    buf = io.StringIO()
    w = spreadsheet.writer(buf)
    w.writerow(["Gaming day"] + [label for _, label in COLUMNS])
    for row in fig["tables"]:
        w.writerow([fig["day"]] + [_cell(k, row[k]) for k, _ in COLUMNS])
    tot = fig["totals"]
    w.writerow([fig["day"], "Total", "", ""] + [_cell(k, tot[k]) for k, _ in COLUMNS[3:]])
    if fig.get("tournaments"):
        w.writerow(["Gaming day"] + [label for _, label in TOURNAMENT_COLUMNS])
        for r in fig["tournaments"]:
            w.writerow([fig["day"]] + [f"#{r[k]}" if k == "tournament_id" else _money(r[k]) if k in TOURNAMENT_MONEY
                                       else r[k] for k, _ in TOURNAMENT_COLUMNS])
    return buf.getvalue()


TOURNAMENT_COLUMNS = (("tournament_id", "Tournament"), ("name", "Name"), ("entries", "Entries"),
                      ("rebuys", "Rebuys and add-ons"), ("fees", "Fees (house revenue)"),
                      ("collected", "Collected for the prize pool (players' money)"), ("prizes", "Prizes paid"),
                      ("overlay", "Overlay (house)"), ("house", "House result"))
TOURNAMENT_MONEY = {"fees", "collected", "prizes", "overlay", "house"}


def _money(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def _house_moves(session: Session, start: datetime, end: datetime, *columns):
    """(columns..., amount, from kind, to kind) of every transfer of the rounds opened in [start, end)."""
    src, dst = aliased(Account), aliased(Account)
    return session.execute(
        select(*columns, Transfer.amount, Transfer.kind, src.kind, dst.kind)
        .join(Transfer, Transfer.round_id == Round.id)
        .join(src, src.id == Transfer.from_account_id).join(dst, dst.id == Transfer.to_account_id)
        .where(Round.opened_at >= start, Round.opened_at < end, Round.kind != "poker"))


def _house_delta(amount: int, k_from: str, k_to: str) -> int:
    if k_to in HOUSE_KINDS and k_from not in HOUSE_KINDS:
        return amount
    if k_from in HOUSE_KINDS and k_to not in HOUSE_KINDS:
        return -amount
    return 0


def per_dealer(session: Session, day: date, house: HouseSettings) -> dict[tuple, dict]:
    """Per dealer and game (``rounds.dealer_id``, None for rounds with no dealer recorded): the
    rounds he dealt in the gaming day, their handle (stakes) and the house's win/loss, from the ledger."""
    start, end = gaming_day_bounds(day, house.timezone, house.gaming_day_rollover)
    out: dict[tuple, dict] = defaultdict(lambda: {"rounds": set(), "handle": 0, "win_loss": 0})
    for dealer, game, round_id, amount, kind, k_from, k_to in _house_moves(session, start, end, Round.dealer_id,
                                                                          Round.kind, Round.id):
        row = out[(dealer, game)]
        row["rounds"].add(round_id)
        if kind == "stake":
            row["handle"] += amount
        row["win_loss"] += _house_delta(amount, k_from, k_to)
    return {d: {**r, "rounds": len(r["rounds"])} for d, r in out.items()}


def hourly(session: Session, day: date, house: HouseSettings) -> dict:
    """The house's win/loss per live-game table and clock hour (house time) of the gaming day, by
    the hour each round opened, from the ledger as in the figures (for the charts)."""
    start, end = gaming_day_bounds(day, house.timezone, house.gaming_day_rollover)
    zone = ZoneInfo(house.timezone)
    tables = {t.id: t for t in session.execute(select(Table).where(Table.kind != "poker")).scalars()}
    out: dict[tuple[int, int], int] = defaultdict(int)
    for table_id, opened, amount, _kind, k_from, k_to in _house_moves(session, start, end, Round.table_id,
                                                                       Round.opened_at):
        if table_id in tables:
            out[(table_id, opened.astimezone(zone).hour)] += _house_delta(amount, k_from, k_to)
    # the day's hours in order from the rollover
    first = int(house.gaming_day_rollover.split(":")[0])
    hours = sorted({h for _, h in out}, key=lambda h: (h - first) % 24)
    return {"day": day.isoformat(), "currency": house.currency, "hours": hours,
            "tables": [{"table": tables[t].number, "name": tables[t].name, "game": tables[t].kind,
                        "win_loss": [out.get((t, h), 0) for h in hours]}
                       for t in sorted({t for t, _ in out}, key=lambda t: tables[t].number)]}
