"""Player ratings of a gaming day: 50,000 settled bets over 300 players at the four live games
(some at seats identified by card), rated visit by visit with the theoretical win of every bet.

Run by ``make bench``; prints ``ratings_50k_bets_s`` (per backend, wall clock; and this process's
CPU time, the part that does not depend on the machine's other load), the plain SQL aggregate of the
same stakes per player and their ratio. The house edges are computed once per process (the
baccarat shoe's enumeration takes a second or two the first time): that first computation is
printed apart as ``ratings_edges_first_s``. Nothing is asserted about speed.
"""
from __future__ import annotations

import os
import re
import time
from datetime import timedelta

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from floor import ledger, pit
from floor.models import Bet, Round, Transfer
from floor.pit import ratings
from floor.settings import HouseSettings
from tests.conftest import make_config, make_engine
from tests.floor.pit.bulk_day import DAY_START, make_day

HOUSE = HouseSettings()


@pytest.fixture
def app_config(db_url, tmp_path):
    # the house's own rollover: the test floors' moves with the clock, and the bulk day must fall in
    # the gaming day the bench reads whatever the hour of the run
    return make_config(db_url, tmp_path, house={"gaming_day_rollover": HOUSE.gaming_day_rollover})


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


def test_bench_ratings_page_and_api_50k(app, db_url, client, login):
    """The pit reading that day through HTTP: ``/api/pit/ratings`` and ``/pit/ratings`` (a page of
    players and their visits), each timed with the day's visits still to compute (``_ms``: the
    first read after a change on the floor: one more bet settled) and again unchanged (``_unchanged_ms``: computed once,
    read again); ``ratings_api_50k_cold_ms`` the process's first read of the day, computed whole. The edges are computed before (the process's first computation is measured above)."""
    backend = "sqlite" if db_url.startswith("sqlite") else "postgres"
    engine = make_engine(db_url)
    with Session(engine) as s:
        assert make_day(s) == 50_000
    if backend == "postgres":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
            c.execute(text("ANALYZE"))
    day = pit.today(HOUSE, DAY_START).isoformat()
    login("pitboss")
    assert client.get(f"/api/pit/ratings?day={day}&limit=1").status_code == 200   # edges, caches warm
    out = {}
    ratings._DAY_CACHE.clear()                             # cold: the process's first read of the day
    start = time.perf_counter()
    assert client.get(f"/api/pit/ratings?day={day}").status_code == 200
    out["ratings_api_50k_cold_ms"] = (time.perf_counter() - start) * 1000
    assert ratings.LAST_READ["how"] == "full"
    spin = 0
    for name, url in (("api", f"/api/pit/ratings?day={day}"), ("page", f"/pit/ratings?day={day}")):
        spin += 1
        with Session(engine) as s:                         # as on the floor: a new bet settled
            settle_one_more(s, spin)
        start, cpu = time.perf_counter(), time.process_time()
        r = client.get(url)
        out[f"ratings_{name}_50k_ms"] = (time.perf_counter() - start) * 1000
        out[f"ratings_{name}_50k_cpu_ms"] = (time.process_time() - cpu) * 1000
        assert r.status_code == 200 and ratings.LAST_READ["how"] == "incremental"
        start = time.perf_counter()
        again = client.get(url)
        out[f"ratings_{name}_50k_unchanged_ms"] = (time.perf_counter() - start) * 1000
        assert again.status_code == 200
        if name == "api":
            assert len(r.get_json()["players"]) == 300 and again.get_json() == r.get_json()
        else:
            out["ratings_page_50k_kb"] = len(r.get_data()) / 1024
            html = r.get_data(as_text=True)
            # a page of players and only their visits
            assert html.count('<tr data-player=') == 50
            shown = set(re.findall(r'<tr data-player="(\d+)"', html))
            with Session(engine) as s:
                theirs = sum(1 for v in ratings.day_visits(s, pit.today(HOUSE, DAY_START), HOUSE)
                             if str(v.player_id) in shown)
            assert html.count('href="/pit/players/') - 50 == theirs
    engine.dispose()
    load = os.getloadavg()[0]
    print()
    for key, value in out.items():
        print(f"{key}_{backend}: {value:.0f}  (load average {load:.1f})")


def settle_one_more(session: Session, n: int) -> None:
    """One more roulette round of the day settled with one bet of one player from his balance, its
    stake and result in the ledger, as the floor writes them."""
    r = session.execute(select(Round).where(Round.kind == "roulette").order_by(Round.id.desc()).limit(1)).scalar_one()
    bet = session.execute(select(Bet).where(Bet.round_id == r.id, Bet.player_id.is_not(None)).limit(1)).scalar_one()
    at = bet.placed_at + timedelta(seconds=n)
    new = Round(table_id=r.table_id, number=r.number + 1000 + n, kind="roulette", status="settled", opened_at=at,
                result_at=at + timedelta(seconds=40), ended_at=at + timedelta(seconds=41), result={}, device={})
    session.add(new)
    session.flush()
    b = Bet(round_id=new.id, table_id=r.table_id, account_id=bet.account_id, player_id=bet.player_id, spot="red",
            amount=1_000, requested=1_000, source="api", placed_at=at)
    session.add(b)
    session.flush()
    acc = ledger.table_accounts(session, r.table_id)
    session.add_all([Transfer(from_account_id=bet.account_id, to_account_id=acc.in_play, amount=1_000, kind="stake",
                              round_id=new.id, bet_id=b.id, at=at),
                     Transfer(from_account_id=acc.in_play, to_account_id=acc.tray, amount=1_000, kind="lose",
                              round_id=new.id, bet_id=b.id, at=at)])
    session.commit()
