"""Prize pool and payouts by number of entries.

The house keeps a payout table: bands of entry counts, each with the percentage of the prize pool
paid to each place from first down. The table is data (the house edits it); ``payouts`` applies it.

Rounding: every place gets its exact share rounded down to the rounding ``unit`` (1 = the cent, 100 =
whole francs...). What that leaves over is handed out one unit per place from first place down
(so first, then second... get one unit more), and anything smaller than a unit goes to first place.
The places always sum to the pool exactly and stay in order (first >= second >= ...).
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Mapping, Optional, Sequence

from ..base import GameInputError
from .cents import check_cents, check_count


def percent(value, what: str = "percent") -> Fraction:
    """A percentage as an exact fraction: an int, a decimal string ('27.5'), a Decimal or Fraction.
    A float is read as the decimal it prints as (27.5 -> 27.5, 33.3 -> 33.3), never its binary value."""
    if isinstance(value, bool):
        raise GameInputError("{what} is a number, got {given}", field=what, what=what, given=repr(value))
    try:
        if isinstance(value, float):
            return Fraction(repr(value))
        if isinstance(value, (int, str, Decimal, Fraction)):
            return Fraction(value) if not isinstance(value, str) else Fraction(value.strip())
    except (ValueError, ZeroDivisionError):
        pass
    raise GameInputError("{what} is a number like 27.5, got {given}", field=what, what=what, given=repr(value))


@dataclass(frozen=True)
class PayoutBand:
    """From ``min_entries`` to ``max_entries`` entries (None: and above), place k gets percents[k-1]."""

    min_entries: int
    max_entries: Optional[int]
    percents: tuple[Fraction, ...]

    def __post_init__(self):
        band = f"{self.min_entries}-{self.max_entries if self.max_entries is not None else ''}"
        check_count(self.min_entries, "min_entries", 1)
        if self.max_entries is not None:
            check_count(self.max_entries, "max_entries", self.min_entries)
        pcts = tuple(percent(p, f"band {band} place {k + 1}") for k, p in enumerate(self.percents))
        object.__setattr__(self, "percents", pcts)
        if not pcts:
            raise GameInputError("band {band}: no paid place", field="percents", band=band)
        if any(p <= 0 for p in pcts):
            raise GameInputError("band {band}: every paid place gets more than 0 %", field="percents", band=band)
        if sum(pcts) != 100:
            raise GameInputError("band {band}: the places add up to {total} %, not 100 %", field="percents",
                                 band=band, total=f"{float(sum(pcts)):g}")
        if any(a < b for a, b in zip(pcts, pcts[1:])):
            raise GameInputError("band {band}: a lower place is paid more than a higher one", field="percents",
                                 band=band)
        if len(pcts) > self.min_entries:
            raise GameInputError("band {band}: pays {places} places but may have only {entries} entries",
                                 field="percents", band=band, places=len(pcts), entries=self.min_entries)

    @property
    def places(self) -> int:
        return len(self.percents)


@dataclass(frozen=True)
class PayoutTable:
    """Bands in order, each starting right after the previous one ends; only the last may be open."""

    bands: tuple[PayoutBand, ...]

    def __post_init__(self):
        object.__setattr__(self, "bands", tuple(self.bands))
        if not self.bands:
            raise GameInputError("a payout table needs at least one band", field="bands")
        for a, b in zip(self.bands, self.bands[1:]):
            if a.max_entries is None or b.min_entries != a.max_entries + 1:
                raise GameInputError("band from {start} entries does not follow the band ending at {end}",
                                     field="bands", start=b.min_entries, end=a.max_entries)

    def band_for(self, entries: int) -> PayoutBand:
        check_count(entries, "entries", 1)
        for band in self.bands:
            if band.min_entries <= entries and (band.max_entries is None or entries <= band.max_entries):
                return band
        raise GameInputError("the payout table has no band for {entries} entries", field="entries", entries=entries)

    def paid_places(self, entries: int) -> int:
        return self.band_for(entries).places


def payout_table(rows: Sequence) -> PayoutTable:
    """A table from plain data: rows of ``{"min_entries", "max_entries", "percents"}`` or
    ``(min_entries, max_entries, percents)``."""
    bands = []
    for i, row in enumerate(rows):
        try:
            if isinstance(row, Mapping):
                bands.append(PayoutBand(row["min_entries"], row.get("max_entries"), tuple(row["percents"])))
            else:
                lo, hi, pcts = row
                bands.append(PayoutBand(lo, hi, tuple(pcts)))
        except GameInputError as e:
            raise GameInputError("payout row {row}: {problem}", field=f"rows[{i}]", row=i + 1, problem=e.msg) from None
        except (KeyError, TypeError, ValueError) as e:
            raise GameInputError("payout row {row} is (min_entries, max_entries, percents): {problem}",
                                 field=f"rows[{i}]", row=i + 1, problem=repr(e)) from None
    return PayoutTable(tuple(bands))


def payout_table_to_data(table: PayoutTable) -> list[dict]:
    """Percentages as decimal strings where exact (27.5 -> "27.5"), else "n/d"."""
    def text(p: Fraction) -> str:
        d = p.denominator
        while d % 2 == 0:
            d //= 2
        while d % 5 == 0:
            d //= 5
        if d != 1:
            return f"{p.numerator}/{p.denominator}"
        return format(Decimal(p.numerator) / Decimal(p.denominator), "f")
    return [{"min_entries": b.min_entries, "max_entries": b.max_entries, "percents": [text(p) for p in b.percents]}
            for b in table.bands]


def prize_pool(collected: int, guarantee: int) -> int:
    """The pool paid out: what the entries put in, or the guarantee if that is more.
    Pass ``guarantee=0`` when the guarantee does not hold (e.g. registration closed at the money)."""
    return max(check_cents(collected, "collected"), check_cents(guarantee, "guarantee"))


def split_pool(pool: int, percents: Sequence[Fraction], *, unit: int) -> tuple[int, ...]:
    """``pool`` cents by the percentages, rounded as the module says."""
    check_cents(pool, "pool")
    check_count(unit, "unit", 1)
    floors = []
    for p in percents:
        exact = Fraction(pool) * p / 100
        floors.append((exact.numerator // (exact.denominator * unit)) * unit)
    left = pool - sum(floors)
    extra_units = min(left // unit, len(floors))  # each floor lost less than a unit
    for k in range(extra_units):
        floors[k] += unit
    floors[0] += pool - sum(floors)
    return tuple(floors)


def payouts(pool: int, entries: int, table: PayoutTable, *, unit: int) -> tuple[int, ...]:
    """Cents for places 1, 2, ... for a field of ``entries`` (re-entries count as entries)."""
    return split_pool(pool, table.band_for(entries).percents, unit=unit)


def _standard_rows():
    rows = [
        (2, 7, [65, 35]),
        (8, 15, [50, 30, 20]),
        (16, 25, [40, 25, 17, 11, 7]),
        (26, 40, [34, 22, 15, 11, 8, 6, 4]),
        (41, 60, ["30", "20", "14", "10", "7.5", "6", "5", "4", "3.5"]),
        (61, 90, ["27", "18", "12.5", "9.5", "7.5", "6", "4.5", "3.5", "3", "3", "2.75", "2.75"]),
        (91, 150, ["25", "16", "11.5", "8.5", "6.5", "5", "4", "3.2", "2.6"] + ["2.2"] * 3 + ["1.9"] * 3
         + ["1.8"] * 3),
        (151, None, ["21.9", "14", "10", "7.5", "5.8", "4.6", "3.7", "3", "2.5"] + ["2.1"] * 3 + ["1.8"] * 3
         + ["1.5"] * 3 + ["1.3"] * 3 + ["1.2"] * 3 + ["1.1"] * 3),
    ]
    return rows


# An example table (about 12-15 % of the field paid) the house copies and edits.
STANDARD_PAYOUTS = payout_table(_standard_rows())
