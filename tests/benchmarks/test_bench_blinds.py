"""How long the dealer waits: planning a hand (pure) and New hand + the terminal's state on a real
database after a long session (10 seats, 300 hands, two players in and out).

Run by ``make bench``; prints ``plan_hand_per_s``, ``new_hand_ms`` and ``terminal_state_ms``.
"""
import time
from datetime import datetime, timedelta, timezone

from sqlalchemy import select

from floor.actors import Actor
from floor.models import Table
from floor.poker import seating
from floor.poker import table as svc
from floor.poker.blinds import Positions, Rules, SeatState, Snapshot, plan_hand
from floor.settings import HouseSettings


def test_bench_plan_hand():
    seats = tuple(SeatState(n, n, away=(n in (3, 7)), missed=frozenset({"small"}) if n == 7 else frozenset(),
                            returning=n == 7) for n in range(1, 11))
    snap = Snapshot(10, 200, 500, seats, last=Positions(1, 2, 4))
    rules = Rules()
    count = 20_000
    start = time.perf_counter()
    for _ in range(count):
        plan_hand(snap, rules)
    print(f"\nplan_hand_per_s {count / (time.perf_counter() - start):.0f}")


def test_bench_new_hand_and_terminal_after_a_long_session(session):
    house = HouseSettings(missed_blind_tickets_to_forfeit=10_000)
    actor = Actor("Dan Dealer", "dealer", "bench", None)
    table = session.execute(select(Table).where(Table.number == 1)).scalar_one()
    t = datetime.now(timezone.utc) - timedelta(hours=10)
    for n in range(1, 11):
        seating.sit(session, actor, house, table, n, n, 50_000, t)
    for i in range(300):
        t += timedelta(seconds=90)
        if i % 20 == 5:
            svc.mark_away(session, actor, table, 3 + (i // 20) % 2 * 4, house, now=t)
        if i % 20 == 15:
            svc.mark_back(session, actor, table, 3 + (i // 20) % 2 * 4, house, now=t)
        svc.new_hand(session, actor, table, house, now=t)
    session.commit()
    runs = 10
    start = time.perf_counter()
    for _ in range(runs):
        svc.terminal(session, table, house)
    term = (time.perf_counter() - start) / runs * 1000
    start = time.perf_counter()
    for _ in range(runs):
        svc.new_hand(session, actor, table, house)
    new = (time.perf_counter() - start) / runs * 1000
    session.rollback()
    print(f"\nterminal_state_ms {term:.1f}\nnew_hand_ms {new:.1f}")
