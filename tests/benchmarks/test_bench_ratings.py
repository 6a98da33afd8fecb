"""Player ratings of a gaming day: 50,000 settled bets over 300 players at the four live games
(some at seats identified by card), rated visit by visit with the theoretical win of every bet.

Run by ``make bench``; prints ``ratings_50k_bets_s`` (per backend, wall clock; and this process's
CPU time, the part that does not depend on the machine's other load), the plain SQL aggregate of the
same stakes per player and their ratio. The house edges are computed once per process (the
baccarat shoe's enumeration takes a second or two the first time): that first computation is
printed apart as ``ratings_edges_first_s``. Nothing is asserted about speed.
"""
from __future__ import annotations

import time

from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from floor import pit
from floor.models import Bet, Round
from floor.pit import ratings
from floor.settings import HouseSettings
from tests.conftest import make_engine
from tests.floor.pit.bulk_day import DAY_START, make_day

HOUSE = HouseSettings()


def test_bench_ratings_50k(db_url):
    backend = "sqlite" if db_url.startswith("sqlite") else "postgres"
    engine = make_engine(db_url)
    with Session(engine) as s:
        placed = make_day(s)
    assert placed == 50_000
    if backend == "postgres":   # fresh statistics after the bulk load, as autovacuum would have them
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
            c.execute(text("ANALYZE"))
    day = pit.today(HOUSE, DAY_START)
    start = time.perf_counter()
    for kind, spots in (("baccarat", ("banker", "player", "tie", "player_pair")), ("blackjack", ("bet", "insurance")),
                        ("casino_holdem", ("ante", "aa_bonus")), ("roulette", ("straight",))):
        for spot in spots:
            ratings.bet_edge(kind, spot, HOUSE, 8 if kind == "baccarat" else None)
    edges_s = time.perf_counter() - start
    with Session(engine) as s:
        ratings.players_of_day(s, day, HOUSE)       # the database's caches warm, as on a floor
        start, cpu = time.perf_counter(), time.process_time()
        top = ratings.players_of_day(s, day, HOUSE)
        ratings_s, ratings_cpu = time.perf_counter() - start, time.process_time() - cpu
    with Session(engine) as s:
        s.execute(select(func.count(Bet.id))).scalar_one()
        start = time.perf_counter()
        plain = s.execute(select(Bet.player_id, func.sum(Bet.amount)).join(Round, Round.id == Bet.round_id)
                          .where(Round.status == "settled", Bet.placed_at >= DAY_START).group_by(Bet.player_id)).all()
        plain_s = time.perf_counter() - start
    engine.dispose()
    # every stake is rated: the seat bets through their visits, the others by their player
    assert top["totals"]["staked"] == sum(int(total) for _, total in plain)
    assert len(top["players"]) <= 300 and top["totals"]["theo"] > 0
    print()
    print(f"ratings_edges_first_s: {edges_s:.3f}")
    print(f"ratings_50k_bets_s_{backend}: {ratings_s:.3f}")
    print(f"ratings_50k_bets_cpu_s_{backend}: {ratings_cpu:.3f}")   # this process alone (the machine is shared)
    print(f"ratings_plain_sql_aggregate_s_{backend}: {plain_s:.3f}")
    print(f"ratings_50k_vs_plain_sql_ratio_{backend}: {ratings_s / plain_s:.1f}")
