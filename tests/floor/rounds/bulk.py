"""A big roulette spin for the benchmark and the crash test: 20,000 bets from 5,000 players,
arranged with bulk inserts (the arrangement is not what is measured), left at "result"."""
from __future__ import annotations

import random
from datetime import datetime, timezone

from sqlalchemy import insert, select, update
from sqlalchemy.orm import Session

from floor import ledger
from floor.actors import Actor
from floor.games import roulette
from floor.models import Account, Bet, Player, Round, Transfer
from floor.tables import table_by_number

AT = datetime(2024, 6, 1, 21, 0, tzinfo=timezone.utc)


def make_spin(session: Session, players: int = 5_000, bets: int = 20_000, number: int = 17, seed: int = 7) -> int:
    rng = random.Random(seed)
    table = table_by_number(session, 12).id
    cage = ledger.cage_account(session)
    in_play = ledger.table_account(session, table, "in_play")
    ledger.table_accounts(session, table)
    first = (session.execute(select(Player.id).order_by(Player.id.desc()).limit(1)).scalar() or 0) + 1
    session.execute(insert(Player.__table__), [{"name": f"Remote {i}", "card_number": f"R{i:07d}", "created_at": AT}
                                               for i in range(first, first + players)])
    pids = list(range(first, first + players))
    deposit = 200_000
    session.execute(insert(Account.__table__), [{"key": f"player:{p}", "kind": "player", "player_id": p,
                                                 "balance": deposit, "created_at": AT} for p in pids])
    accounts = dict(session.execute(select(Account.player_id, Account.id).where(Account.player_id.in_(pids))).all())
    session.execute(insert(Transfer.__table__), [{"from_account_id": cage, "to_account_id": accounts[p], "amount": deposit,
                                                  "kind": "deposit", "at": AT} for p in pids])
    session.execute(update(Account.__table__).where(Account.id == cage).values(balance=Account.balance - deposit * players))
    r = Round(table_id=table, number=1, kind="roulette", status="locked", opened_at=AT, locked_at=AT, spin=1,
              device={}, steps=0)
    session.add(r)
    session.flush()
    layout = roulette.all_bets()
    rows = []
    for i in range(bets):
        p = pids[i % players]
        b = rng.choice(layout)
        rows.append({"round_id": r.id, "table_id": table, "account_id": accounts[p], "player_id": p, "seat": None,
                     "hand": 1, "spot": b.kind, "numbers": list(b.numbers), "amount": rng.choice((500, 1_000, 2_500, 5_000)),
                     "requested": 0, "source": "api", "placed_at": AT, "placed_by": "bench"})
    for row in rows:
        row["requested"] = row["amount"]
    session.execute(insert(Bet.__table__), rows)
    placed = session.execute(select(Bet.id, Bet.account_id, Bet.amount).where(Bet.round_id == r.id)).all()
    ledger.post(session, [ledger.row(a, in_play, amt, "stake", at=AT, round_id=r.id, bet_id=bid) for bid, a, amt in placed],
                guard_players=False,
                grant=ledger.authorize(session, Actor.system(), ledger.Purpose.STAKE, sum(a for _, _, a in placed), at=AT))
    r.status = "result"
    r.result = {"number": number, "spin": 1}
    r.result_at = AT
    session.commit()
    return r.id
