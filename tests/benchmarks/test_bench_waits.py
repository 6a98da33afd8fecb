"""How good the waiting-list estimates are, and what one costs.

Run by ``make bench``. Replays simulated evenings with known rates (tests/floor/games/evening.py) and
prints, per scenario, the mean absolute error of the estimate against the waits that really happened
(``wait_mae_<scenario>_min``), the old estimate's (``wait_naive_mae_<scenario>_min``), how often the
real wait fell in the shown range (``wait_in_range_<scenario>``) and the mean real wait; then
``wait_estimate_40_places_ms``: one estimate of a 40-player list.
"""
import time

from floor.games import waits
from tests.floor.games.evening import evening, figures

SCENARIOS = {
    "busy_with_spare_table": dict(arrivals_per_hour=18, stay_minutes=80, warm_up_minutes=60),
    "steady_two_tables": dict(arrivals_per_hour=12, stay_minutes=90, spare_table_after=None, warm_up_minutes=60),
    "long_list": dict(arrivals_per_hour=16, stay_minutes=70, spare_table_after=None, warm_up_minutes=60),
}


def test_bench_waits():
    print()
    for name, kw in SCENARIOS.items():
        f = figures([s for seed in range(20) for s in evening(seed, **kw)])
        print(f"wait_mae_{name}_min: {f['mae_minutes']:.1f}")
        print(f"wait_naive_mae_{name}_min: {f['naive_mae_minutes']:.1f}")
        print(f"wait_in_range_{name}: {f['in_range']:.2f}")
        print(f"wait_mean_{name}_min: {f['mean_wait_minutes']:.1f}")
        assert f["waits"] > 500
    start = time.perf_counter()
    for _ in range(20):
        waits.estimate(40, 0, 18, 25, 18 * 180)
    print(f"wait_estimate_40_places_ms: {(time.perf_counter() - start) / 20 * 1000:.1f}")
