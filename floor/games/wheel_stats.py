"""Wheel integrity statistics: is a single-zero wheel still throwing every pocket 1 time in 37?

Everything here takes the winning numbers (oldest first) and returns figures; deciding what to show
or whom to alert is the caller's. The tests are chi-square goodness of fit against the uniform wheel
(a pocket or a section should come up in proportion to its size) and exact binomial tails for the
hottest pocket and the hottest arc; p-values come from closed forms (no scipy).

``bias_check`` combines four tests on one window: every pocket (chi-square, 36 degrees of freedom),
the hottest pocket (binomial tail, times 37 for having picked the hottest), the three classic
sections (voisins du zéro, tiers du cylindre, orphelins: chi-square, 2 degrees of freedom) and the
hottest arc of ``arc_pockets`` neighbouring pockets (binomial tail, times 37). Each test is held to
the threshold divided by four (Bonferroni), so a fair wheel raises "possible bias" in at most a
``p_threshold`` share of windows (fewer in fact: the correction is conservative).

What it can see in 1,000 spins with ``p_threshold`` 0.01 and 9-pocket arcs (seeded simulations,
400 windows each, rerun by ``tests/floor/games/test_wheel_stats.py``): one pocket at 1.5 times the
weight of the others is flagged in only about 10 % of windows (at 2 times, about 74 %); a 9-pocket
arc at 1.5 times in about 98 %; the voisins du zéro at 1.5 times in all of them. A fair wheel was
flagged in 1.05 % of 2,000 windows. A single slightly favoured pocket needs many thousands of spins:
the spins needed grow as the inverse square of the excess.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Hashable, Iterable, Mapping, Optional, Sequence

from .base import GameInputError

WHEEL_ORDER = (0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33, 1,
               20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26)  # clockwise, single-zero wheel
POCKETS = 37
_POSITION = {n: i for i, n in enumerate(WHEEL_ORDER)}


def _check_pocket(n) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 36:
        raise GameInputError("no pocket {n!r} on a single-zero wheel (0-36)", n=n)
    return n


def arc(start: int, length: int) -> tuple[int, ...]:
    """``length`` neighbouring pockets on the wheel, clockwise from pocket ``start``."""
    _check_pocket(start)
    if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= POCKETS:
        raise GameInputError("an arc holds 1 to {POCKETS} pockets, got {length!r}", POCKETS=POCKETS, length=length)
    i = _POSITION[start]
    return tuple(WHEEL_ORDER[(i + k) % POCKETS] for k in range(length))


# The classic sections, as arcs of the wheel (orphelins are the two arcs left between the others).
VOISINS_DU_ZERO = frozenset(arc(22, 17))   # 22 ... 0 ... 25
TIERS_DU_CYLINDRE = frozenset(arc(27, 12))  # 27 ... 33, opposite the zero
ORPHELINS = frozenset(arc(1, 5) + arc(17, 3))  # 1-20-14-31-9 and 17-34-6
JEU_ZERO = frozenset(arc(12, 7))            # 12-35-3-26-0-32-15, inside the voisins
CLASSIC_SECTIONS = {"voisins du zéro": VOISINS_DU_ZERO, "tiers du cylindre": TIERS_DU_CYLINDRE,
                    "orphelins": ORPHELINS}


def _window(spins: Sequence[int], last: Optional[int]) -> list[int]:
    spins = list(spins)
    for n in spins:
        _check_pocket(n)
    if last is not None:
        if isinstance(last, bool) or not isinstance(last, int) or last < 1:
            raise GameInputError("the window is a whole number of spins, got {last!r}", last=last)
        spins = spins[-last:]
    return spins


def frequencies(spins: Sequence[int], last: Optional[int] = None) -> list[int]:
    """How often each pocket 0..36 came up, over the ``last`` spins (all when None)."""
    counts = [0] * POCKETS
    for n in _window(spins, last):
        counts[n] += 1
    return counts


# --- distributions --------------------------------------------------------------------------------

def chi2_sf(x: float, df: int) -> float:
    """P(chi-square with ``df`` degrees of freedom >= x), in closed form.

    Even df = 2k: e^(-x/2) sum_{i<k} (x/2)^i / i!. Odd df = 2k+1: erfc(sqrt(x/2)) plus
    e^(-x/2) sum_{i<k} (x/2)^(i+1/2) / Gamma(i+3/2)."""
    if isinstance(df, bool) or not isinstance(df, int) or df < 1:
        raise GameInputError("degrees of freedom are a positive whole number, got {df!r}", df=df)
    if x <= 0:
        return 1.0
    h = x / 2
    if df % 2 == 0:
        term = math.exp(-h)
        total = term
        for i in range(1, df // 2):
            term *= h / i
            total += term
        return min(1.0, total)
    total = math.erfc(math.sqrt(h))
    term = math.exp(-h) * math.sqrt(h) / math.gamma(1.5)
    for i in range(df // 2):
        total += term
        term *= h / (i + 1.5)
    return min(1.0, total)


def binomial_sf(k: int, n: int, p: float) -> float:
    """P(Binomial(n, p) >= k), summed exactly term by term."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    log_term = (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                + k * math.log(p) + (n - k) * math.log1p(-p))
    term = math.exp(log_term)
    total = 0.0
    ratio = p / (1 - p)
    for j in range(k, n + 1):
        total += term
        term *= (n - j) / (j + 1) * ratio
        if term < total * 1e-17:
            break
    return min(1.0, total)


# --- tests ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Fit:
    """A goodness-of-fit test: observed and expected counts per category, the statistic, its p-value."""

    name: str
    statistic: float
    df: Optional[int]  # None for a binomial tail test
    p_value: float
    observed: tuple
    expected: tuple
    labels: tuple


def chi_square(observed: Sequence[int], expected: Sequence[float]) -> float:
    """Pearson's statistic, sum of (observed - expected)^2 / expected."""
    if len(observed) != len(expected) or not observed:
        raise GameInputError("chi-square needs as many expected counts as observed ones")
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected))


def pocket_test(spins: Sequence[int], last: Optional[int] = None) -> Fit:
    """Every pocket against 1/37: chi-square with 36 degrees of freedom."""
    counts = frequencies(spins, last)
    n = sum(counts)
    if n == 0:
        raise GameInputError("no spins to test")
    expected = [n / POCKETS] * POCKETS
    x = chi_square(counts, expected)
    return Fit("pockets", x, POCKETS - 1, chi2_sf(x, POCKETS - 1), tuple(counts), tuple(expected),
               tuple(range(POCKETS)))


def section_test(spins: Sequence[int], sections: Mapping[str, Iterable[int]],
                 last: Optional[int] = None) -> Fit:
    """Sections of the wheel against their share of the 37 pockets: chi-square over the sections
    plus, when they do not cover the wheel, "the rest". Sections must not overlap."""
    spins = _window(spins, last)
    if not spins:
        raise GameInputError("no spins to test")
    groups: dict[str, frozenset] = {}
    seen: set[int] = set()
    for name, pockets in sections.items():
        pockets = frozenset(_check_pocket(p) for p in pockets)
        if not pockets:
            raise GameInputError("section {name!r} holds no pocket", name=name)
        if pockets & seen:
            raise GameInputError("section {name!r} overlaps another section", name=name)
        seen |= pockets
        groups[name] = pockets
    rest = frozenset(range(POCKETS)) - seen
    if rest:
        groups["rest of the wheel"] = rest
    if len(groups) < 2:
        raise GameInputError("a section test needs at least two parts of the wheel")
    n = len(spins)
    labels = tuple(groups)
    observed = tuple(sum(1 for s in spins if s in groups[g]) for g in labels)
    expected = tuple(n * len(groups[g]) / POCKETS for g in labels)
    x = chi_square(observed, expected)
    return Fit("sections", x, len(labels) - 1, chi2_sf(x, len(labels) - 1), observed, expected, labels)


def arc_test(spins: Sequence[int], start: int, length: int, last: Optional[int] = None) -> Fit:
    """One arc of the wheel against the rest (chi-square, 1 degree of freedom)."""
    pockets = arc(start, length)
    fit = section_test(spins, {f"{length} pockets from {start}": pockets}, last)
    return Fit("arc", fit.statistic, fit.df, fit.p_value, fit.observed, fit.expected, fit.labels)


def hottest_pocket(counts: Sequence[int]) -> Fit:
    """The pocket that came up most, and how unlikely so many hits are on the most frequent of 37
    fair pockets (binomial tail times 37, capped at 1)."""
    n = sum(counts)
    best = max(range(POCKETS), key=lambda p: (counts[p], -p))
    p = min(1.0, POCKETS * binomial_sf(counts[best], n, 1 / POCKETS))
    return Fit("hottest pocket", float(counts[best]), None, p, (counts[best],), (n / POCKETS,), (best,))


def hottest_arc(counts: Sequence[int], length: int) -> Fit:
    """The arc of ``length`` neighbouring pockets with the most hits, and its binomial tail times 37."""
    n = sum(counts)
    best_start, best_hits = 0, -1
    for start in WHEEL_ORDER:
        hits = sum(counts[p] for p in arc(start, length))
        if hits > best_hits:
            best_start, best_hits = start, hits
    p = min(1.0, POCKETS * binomial_sf(best_hits, n, length / POCKETS))
    return Fit("hottest arc", float(best_hits), None, p, (best_hits,), (n * length / POCKETS,),
               (arc(best_start, length),))


@dataclass(frozen=True)
class WheelWatchSettings:
    """How a wheel is watched: the window of spins, the false-alarm rate the house accepts per
    window, the arc length scanned for a hot sector, and the fewest spins worth testing (185 at
    least: 5 expected hits per pocket)."""

    window: int
    p_threshold: float
    arc_pockets: int
    min_spins: int

    def __post_init__(self) -> None:
        if not (isinstance(self.window, int) and self.window >= 1):
            raise GameInputError("window must be a whole number of spins, got {window!r}", window=self.window)
        if not 0 < self.p_threshold < 1:
            raise GameInputError("p_threshold must be between 0 and 1, got {p_threshold!r}", p_threshold=self.p_threshold)
        if not (isinstance(self.arc_pockets, int) and 2 <= self.arc_pockets <= 18):
            raise GameInputError("arc_pockets must be 2 to 18, got {arc_pockets!r}", arc_pockets=self.arc_pockets)
        # the chi-square tail is trustworthy from about 5 expected hits per pocket
        if not (isinstance(self.min_spins, int) and self.min_spins >= 5 * POCKETS):
            raise GameInputError("min_spins must be at least {least}, got {min_spins!r}", least=5 * POCKETS, min_spins=self.min_spins)


@dataclass(frozen=True)
class BiasReport:
    """The verdict on one window and the figures behind it (for the alert text)."""

    possible_bias: bool
    spins: int
    per_test_threshold: float
    tests: tuple[Fit, ...]         # pockets, hottest pocket, sections, hottest arc
    counts: tuple[int, ...]        # per pocket 0..36

    @property
    def failing(self) -> tuple[Fit, ...]:
        return tuple(t for t in self.tests if t.p_value < self.per_test_threshold)

    def summary(self) -> str:
        """One line per test, e.g. for an alert's body."""
        lines = [f"{self.spins} spins; each test at p < {self.per_test_threshold:.4g}"]
        for t in self.tests:
            if t.name == "hottest pocket":
                what = f"pocket {t.labels[0]}: {t.observed[0]} hits, {t.expected[0]:.1f} expected"
            elif t.name == "hottest arc":
                what = (f"arc {'-'.join(map(str, t.labels[0]))}: {t.observed[0]} hits, "
                        f"{t.expected[0]:.1f} expected")
            else:
                what = f"chi-square {t.statistic:.2f} on {t.df} df"
            lines.append(f"{t.name}: {what}, p = {t.p_value:.3g}"
                         f"{'  <-- ' if t.p_value < self.per_test_threshold else ''}")
        return "\n".join(lines)


def bias_check(spins: Sequence[int], settings: WheelWatchSettings) -> Optional[BiasReport]:
    """Test the last ``settings.window`` spins; None while fewer than ``min_spins`` are there."""
    window = _window(spins, settings.window)
    if len(window) < settings.min_spins:
        return None
    counts = frequencies(window)
    tests = (pocket_test(window), hottest_pocket(counts), section_test(window, CLASSIC_SECTIONS),
             hottest_arc(counts, settings.arc_pockets))
    threshold = settings.p_threshold / len(tests)
    return BiasReport(any(t.p_value < threshold for t in tests), len(window), threshold, tests, tuple(counts))


# --- how the wheel was spun -----------------------------------------------------------------------

def direction_breaks(directions: Sequence[Hashable], ids: Optional[Sequence] = None) -> list:
    """Spins whose rotor turned the same way as on the spin before (the rotor should alternate).
    Returns their ids (``ids``, when given, else their indices in ``directions``)."""
    if ids is not None and len(ids) != len(directions):
        raise GameInputError("one id per spin is needed")
    names = list(ids) if ids is not None else list(range(len(directions)))
    return [names[i] for i in range(1, len(directions)) if directions[i] == directions[i - 1]]


@dataclass(frozen=True)
class SpeedLimits:
    """The house's accepted speeds, in revolutions per minute."""

    ball_min: float
    ball_max: float
    rotor_min: float
    rotor_max: float

    def __post_init__(self) -> None:
        if not (0 <= self.ball_min <= self.ball_max and 0 <= self.rotor_min <= self.rotor_max):
            raise GameInputError("speed limits: each minimum must be at most its maximum, none negative")


@dataclass(frozen=True)
class SpeedFault:
    spin: object
    part: str          # "ball" or "rotor"
    rpm: float
    low: float
    high: float


def speed_faults(spins: Sequence[tuple[object, Optional[float], Optional[float]]],
                 limits: SpeedLimits) -> list[SpeedFault]:
    """(spin id, ball rpm, rotor rpm) triples out of range; a speed the device did not report
    (None) is not judged."""
    faults = []
    for spin, ball, rotor in spins:
        for part, rpm, low, high in (("ball", ball, limits.ball_min, limits.ball_max),
                                     ("rotor", rotor, limits.rotor_min, limits.rotor_max)):
            if rpm is not None and not low <= rpm <= high:
                faults.append(SpeedFault(spin, part, rpm, low, high))
    return faults
