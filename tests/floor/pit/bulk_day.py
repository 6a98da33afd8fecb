"""A gaming day of settled bets for the ratings benchmark: bulk inserts (the arrangement is not what
is measured). Rounds at the four live-game tables, each bet a stake and its outcome in the ledger,
300 players: most play from their balance, some sit at a seat identified by card."""
from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from floor import ledger
from floor.actors import Actor
from floor.games import roulette
from floor.models import Account, Bet, Player, PlayerVisit, Round, Shoe
from floor.tables import table_by_number

DAY_START = datetime(2024, 6, 1, 12, 0, tzinfo=timezone.utc)   # 14:00 in Zurich: inside one gaming day
SPOTS = {"baccarat": ("banker", "player", "tie", "player_pair"), "blackjack": ("bet", "double", "insurance"),
         "casino_holdem": ("ante", "aa_bonus", "call")}


def make_day(session: Session, players: int = 300, bets: int = 50_000, seated: int = 30, seed: int = 11) -> int:
    rng = random.Random(seed)
    tables = {k: table_by_number(session, n) for k, n in (("baccarat", 10), ("roulette", 12), ("blackjack", 14),
                                                          ("casino_holdem", 15))}
    accs = {k: ledger.table_accounts(session, t.id) for k, t in tables.items()}
    first = (session.execute(select(Player.id).order_by(Player.id.desc()).limit(1)).scalar() or 0) + 1
    pids = list(range(first, first + players))
    session.execute(insert(Player.__table__), [{"id": p, "name": f"Rated {p}", "card_number": f"B{p:07d}",
                                                "created_at": DAY_START} for p in pids])
    session.execute(insert(Account.__table__), [{"key": f"player:{p}", "kind": "player", "player_id": p,
                                                 "balance": 10**12, "created_at": DAY_START} for p in pids])
    account = dict(session.execute(select(Account.player_id, Account.id).where(Account.player_id.in_(pids))).all())
    shoe = Shoe(table_id=tables["baccarat"].id, number=1, decks=8, status="finished", confirmed_at=DAY_START)
    session.add(shoe)
    session.flush()
    # a seated player per seat of each table for the whole day (identified by card)
    sitters = {}
    for i, (kind, t) in enumerate(tables.items()):
        for seat in range(1, min(t.seat_count, seated // 4 + 1) + 1):
            p = pids[(i * 10 + seat) % players]
            sitters[(kind, seat)] = p
            session.add(PlayerVisit(player_id=p, table_id=t.id, seat=seat, started_at=DAY_START,
                                    ended_at=DAY_START + timedelta(hours=12), identified_by="card", started_by="bench"))
    session.flush()
    per_round = 25
    n_rounds = bets // per_round
    round_rows = []
    for i in range(n_rounds):
        kind = list(tables)[i % 4]
        opened = DAY_START + timedelta(seconds=i * 2)
        round_rows.append({"table_id": tables[kind].id, "number": i // 4 + 1, "kind": kind, "status": "settled",
                           "shoe_id": shoe.id if kind == "baccarat" else None, "opened_at": opened,
                           "result_at": opened + timedelta(seconds=40), "ended_at": opened + timedelta(seconds=41),
                           "result": {}, "device": {}, "steps": 0, "version": 3})
    session.execute(insert(Round.__table__), round_rows)
    rids = [r for (r,) in session.execute(select(Round.id).where(Round.opened_at >= DAY_START).order_by(Round.id))]
    layout = roulette.all_bets()
    bet_rows = []
    for i, rid in enumerate(rids):
        kind = list(tables)[i % 4]
        t = tables[kind]
        at = DAY_START + timedelta(seconds=i * 2 + 1)
        for j in range(per_round):
            seat = j + 1 if j < 7 and (kind, j + 1) in sitters else None
            if seat:                                   # a seat bet: the chips, the identified player's
                acc, p = accs[kind].chips, None
            else:                                      # a player's bet from his balance
                p = pids[rng.randrange(players)]
                acc = account[p]
            if kind == "roulette":
                b = rng.choice(layout)
                spot, numbers = b.kind, list(b.numbers)
            else:
                spot, numbers = rng.choice(SPOTS[kind]), None
            amount = rng.choice((500, 1_000, 2_500, 5_000))
            bet_rows.append({"round_id": rid, "table_id": t.id, "account_id": acc, "player_id": p,
                             "seat": seat or (j % 7 + 1 if kind in ("blackjack", "casino_holdem") else None),
                             "hand": 1, "spot": spot, "numbers": numbers, "amount": amount, "requested": amount,
                             "source": "bench", "placed_at": at, "placed_by": "bench"})
    session.execute(insert(Bet.__table__), bet_rows)
    placed = session.execute(select(Bet.id, Bet.account_id, Bet.amount, Bet.table_id, Bet.round_id)
                             .where(Bet.placed_at >= DAY_START)).all()
    by_table = {t.id: accs[k] for k, t in tables.items()}
    stakes, rows = [], []
    for bid, acc, amount, tid, rid in placed:
        a = by_table[tid]
        stakes.append(ledger.row(acc, a.in_play, amount, "stake", at=DAY_START, round_id=rid, bet_id=bid))
        if rng.random() < 0.5:
            rows.append(ledger.row(a.in_play, a.tray, amount, "lose", at=DAY_START, round_id=rid, bet_id=bid))
        else:
            rows.append(ledger.row(a.in_play, acc, amount, "return", at=DAY_START, round_id=rid, bet_id=bid))
            rows.append(ledger.row(a.tray, acc, amount, "win", at=DAY_START, round_id=rid, bet_id=bid))
    system = Actor.system()
    ledger.post(session, stakes, guard_players=False,
                grant=ledger.authorize(session, system, ledger.Purpose.STAKE, sum(r["amount"] for r in stakes), at=DAY_START))
    ledger.post(session, rows, guard_players=False,
                grant=ledger.authorize(session, system, ledger.Purpose.ROUND, None, at=DAY_START))
    session.commit()
    return len(placed)
