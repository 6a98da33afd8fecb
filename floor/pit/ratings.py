"""Player ratings, exact: per player and visit, what he played, staked, won or lost and what the
house expected to win from him, from the settled bets and the ledger alone.

- **Whose bet**: a bet funded by a player's balance is his; a seat bet (the chips on the table) is
  the player identified at that seat when it was placed (``floor.pit.visits``). A seat bet with
  nobody identified is nobody's and is not rated.
- **Which bets**: the bets of settled rounds (a voided round staked nothing in the end).
- **Visits**: a player's bets at one table, in time order, split where the seat visit changes or
  where no bet came for more than ``rating_gap_minutes``. A visit starts when he was identified at
  the seat (when that is within the gap of his first bet; else at his first bet) and ends when he
  left (likewise; else when his last round's result came).
- **Actual win/loss**: per bet, what the ledger moved between the bet's account and the table, the
  stake, the payouts, the commission and any pit boss's correction together. ``won`` is the
  player's result (the house's is its opposite).
- **Theoretical win**: Σ stake x house edge of the bet's kind under the table's rules
  (``floor.games.edges``), summed exactly and rounded once, half up, to the cent. Blackjack's and
  Casino Hold'em's edges are per initial bet (the box, the ante), so the doubles, splits and calls
  they lead to add stake but no theoretical win of their own.
"""
from __future__ import annotations

import csv
import io
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from fractions import Fraction
from functools import lru_cache

from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.orm import Session

from floor.gaming_day import gaming_day_bounds
from floor.games import blackjack, casino_holdem, roulette
from floor.games.edges import house_edge, theo_cents
from floor.models import Bet, Player, PlayerVisit, Round, Shoe, Table, Transfer
from floor.rounds.payouts import baccarat_settings
from floor.settings import HouseSettings

# Bets whose edge is counted on the initial bet they follow from.
FOLLOW_ON = {"blackjack": ("double", "split"), "casino_holdem": ("call",)}
EDGE_BET = {"blackjack": {"bet": "main", "insurance": "insurance"}}


@lru_cache(maxsize=256)
def _edge(kind: str, spot: str, decks: int, commission_percent: int) -> Fraction:
    if spot in FOLLOW_ON.get(kind, ()):
        return Fraction(0)
    if kind == "roulette":
        return house_edge("roulette", spot, roulette.DEFAULT)
    if kind == "baccarat":
        return house_edge("baccarat", spot, baccarat_settings(HouseSettings(baccarat_commission_percent=commission_percent)),
                          decks=decks)
    if kind == "blackjack":
        return house_edge("blackjack", EDGE_BET["blackjack"][spot], blackjack.DEFAULT, decks=decks)
    return house_edge("casino_holdem", spot, casino_holdem.DEFAULT)


def bet_edge(kind: str, spot: str, house: HouseSettings, decks: int | None = None) -> Fraction:
    """The house edge of one bet: its game (``kind``), its spot, the table's rules (the house's
    commission, the shoe's decks; the house's deck count when the round had no shoe)."""
    if decks is None:
        decks = house.baccarat_decks if kind == "baccarat" else house.blackjack_decks if kind == "blackjack" else 0
    return _edge(kind, spot, decks, house.baccarat_commission_percent)


@dataclass
class Visit:
    player_id: int
    table_id: int
    seat: int | None
    started_at: datetime
    ended_at: datetime
    rounds: set = field(default_factory=set)
    bets: int = 0
    staked: int = 0
    won: int = 0                                            # the player's result, from the ledger
    by_edge: dict = field(default_factory=lambda: defaultdict(int))   # edge -> stake

    @property
    def theo(self) -> Fraction:
        return sum((e * s for e, s in self.by_edge.items()), Fraction(0))

    def as_json(self) -> dict:
        n = len(self.rounds)
        return {"player_id": self.player_id, "table_id": self.table_id, "seat": self.seat,
                "started_at": self.started_at.isoformat(), "ended_at": self.ended_at.isoformat(),
                "minutes": round((self.ended_at - self.started_at).total_seconds() / 60, 1),
                "rounds": n, "bets": self.bets, "staked": self.staked, "average_stake": self.staked // n if n else 0,
                "won": self.won, "house_result": -self.won, "theo": theo_cents(self.theo)}


def _rows(session: Session, start: datetime, end: datetime, player_id: int | None):
    """One row per rated bet: who, where, when, the stake, the rules, what the ledger gave back."""
    net = func.coalesce(func.sum(case((Transfer.to_account_id == Bet.account_id, Transfer.amount),
                                      (Transfer.from_account_id == Bet.account_id, -Transfer.amount),
                                      else_=0)), 0)
    who = func.coalesce(Bet.player_id, PlayerVisit.player_id)
    q = (select(who.label("player_id"), Bet.table_id, Bet.seat, PlayerVisit.id.label("visit_id"),
                PlayerVisit.started_at, PlayerVisit.ended_at.label("left_at"), Bet.round_id, Round.kind, Bet.spot,
                Bet.amount, Bet.placed_at, func.coalesce(Round.result_at, Round.ended_at).label("ended_at"), Shoe.decks, net.label("net"))
         .join(Round, Round.id == Bet.round_id)
         .outerjoin(Shoe, Shoe.id == Round.shoe_id)
         .outerjoin(PlayerVisit, and_(Bet.player_id.is_(None), PlayerVisit.table_id == Bet.table_id,
                                      PlayerVisit.seat == Bet.seat, PlayerVisit.started_at <= Bet.placed_at,
                                      or_(PlayerVisit.ended_at.is_(None), PlayerVisit.ended_at > Bet.placed_at)))
         .outerjoin(Transfer, Transfer.bet_id == Bet.id)
         .where(Round.status == "settled", Bet.placed_at >= start, Bet.placed_at < end)
         .group_by(Bet.id, PlayerVisit.id, Round.id, Shoe.id))
    if player_id is not None:
        q = q.where(who == player_id)
    return session.execute(q).all()


def visits(session: Session, start: datetime, end: datetime, house: HouseSettings,
           player_id: int | None = None) -> list[Visit]:
    """Every rated visit with a bet placed in [start, end), in time order."""
    gap = timedelta(minutes=house.rating_gap_minutes)
    by_place: dict[tuple, list] = defaultdict(list)
    for row in _rows(session, start, end, player_id):
        if row.player_id is None:
            continue
        by_place[(row.player_id, row.table_id)].append(row)
    out: list[Visit] = []
    for (pid, table_id), rows in by_place.items():
        rows.sort(key=lambda r: r.placed_at)
        cur: Visit | None = None
        last_row = None
        for r in rows:
            if cur is None or r.visit_id != last_row.visit_id or r.placed_at - cur.ended_at > gap:
                if cur is not None:
                    _finish(cur, last_row, gap)
                    out.append(cur)
                begin = r.started_at if r.started_at is not None and r.placed_at - r.started_at <= gap else r.placed_at
                if cur is not None and cur.ended_at > begin:
                    begin = r.placed_at
                cur = Visit(pid, table_id, r.seat, begin, r.placed_at)
            cur.rounds.add(r.round_id)
            cur.bets += 1
            cur.staked += r.amount
            cur.won += int(r.net)
            cur.by_edge[bet_edge(r.kind, r.spot, house, r.decks)] += r.amount
            cur.ended_at = max(cur.ended_at, r.ended_at or r.placed_at)
            last_row = r
        _finish(cur, last_row, gap)
        out.append(cur)
    out.sort(key=lambda v: (v.started_at, v.player_id))
    return out


def _finish(v: Visit, last, gap: timedelta) -> None:
    if last.left_at is not None and v.ended_at <= last.left_at <= v.ended_at + gap:
        v.ended_at = last.left_at


def day_visits(session: Session, day: date, house: HouseSettings, player_id: int | None = None) -> list[Visit]:
    start, end = gaming_day_bounds(day, house.timezone, house.gaming_day_rollover)
    return visits(session, start, end, house, player_id)


def _names(session: Session, ids) -> dict[int, tuple[str, str]]:
    ids = sorted(set(ids))
    if not ids:
        return {}
    return {i: (n, c) for i, n, c in session.execute(select(Player.id, Player.name, Player.card_number)
                                                     .where(Player.id.in_(ids)))}


def _tables(session: Session) -> dict[int, tuple[int, str, str]]:
    return {i: (n, name, k) for i, n, name, k in session.execute(select(Table.id, Table.number, Table.name, Table.kind))}


def visits_json(session: Session, vs: list[Visit]) -> list[dict]:
    names, tables = _names(session, (v.player_id for v in vs)), _tables(session)
    out = []
    for v in vs:
        n, card = names.get(v.player_id, ("", ""))
        number, tname, kind = tables[v.table_id]
        out.append({**v.as_json(), "player": n, "card_number": card, "table_number": number, "table_name": tname,
                    "game": kind})
    return out


def players_of_day(session: Session, day: date, house: HouseSettings, limit: int | None = None) -> dict:
    """Every rated player of the gaming day, the highest theoretical win first ("top players")."""
    vs = day_visits(session, day, house)
    per: dict[int, dict] = {}
    theo: dict[int, Fraction] = defaultdict(Fraction)
    for v in vs:
        p = per.setdefault(v.player_id, {"player_id": v.player_id, "visits": 0, "minutes": 0.0, "rounds": 0,
                                         "bets": 0, "staked": 0, "won": 0, "tables": set()})
        j = v.as_json()
        p["visits"] += 1
        p["minutes"] += j["minutes"]
        for k in ("rounds", "bets", "staked", "won"):
            p[k] += j[k]
        p["tables"].add(v.table_id)
        theo[v.player_id] += v.theo
    names, tables = _names(session, per), _tables(session)
    rows = []
    for pid, p in per.items():
        rows.append({**p, "player": names[pid][0], "card_number": names[pid][1], "minutes": round(p["minutes"], 1),
                     "tables": sorted(tables[t][0] for t in p["tables"]), "house_result": -p["won"],
                     "average_stake": p["staked"] // p["rounds"] if p["rounds"] else 0,
                     "theo": theo_cents(theo[pid])})
    rows.sort(key=lambda r: (-r["theo"], -r["staked"], r["player"]))
    total = {"players": len(rows), "staked": sum(r["staked"] for r in rows), "won": sum(r["won"] for r in rows),
             "theo": theo_cents(sum(theo.values(), Fraction(0)))}
    return {"day": day.isoformat(), "currency": house.currency, "players": rows[:limit] if limit else rows,
            "totals": total}


def player_history(session: Session, player_id: int, since: datetime, until: datetime,
                   house: HouseSettings) -> dict:
    """A player's visits in [since, until), newest first, and their totals (the theoretical win
    summed exactly, rounded once)."""
    vs = visits(session, since, until, house, player_id)
    rows = list(reversed(visits_json(session, vs)))
    totals = {k: sum(r[k] for r in rows) for k in ("rounds", "bets", "staked", "won")}
    totals.update(visits=len(rows), minutes=round(sum(r["minutes"] for r in rows), 1),
                  theo=theo_cents(sum((v.theo for v in vs), Fraction(0))))
    return {"since": since.isoformat(), "visits": rows, "totals": totals}


COLUMNS = [("player", "Player"), ("card_number", "Card"), ("table_number", "Table"), ("game", "Game"),
           ("seat", "Seat"), ("started_at", "Started"), ("ended_at", "Ended"), ("minutes", "Minutes"),
           ("rounds", "Rounds"), ("bets", "Bets"), ("staked", "Staked"), ("average_stake", "Average stake"),
           ("won", "Player won"), ("theo", "Theoretical win")]
MONEY = {"staked", "average_stake", "won", "theo"}


def _cell(key: str, value) -> str:
    if value is None:
        return ""
    if key in MONEY:
        sign = "-" if value < 0 else ""
        return f"{sign}{abs(value) // 100}.{abs(value) % 100:02d}"
    return str(value)


def to_csv(rows: list[dict]) -> str:
    """One row per visit; money in the house currency with two decimals."""
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow([label for _, label in COLUMNS])
    for r in rows:
        w.writerow([_cell(k, r.get(k)) for k, _ in COLUMNS])
    return buf.getvalue()
