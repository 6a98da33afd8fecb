"""The house's chips and a count of them: denominations from the settings, counts bounded and whole."""
from __future__ import annotations

from typing import Mapping

from floor.errors import BadInput
from floor.games.table_win import tray_total
from floor.settings import HouseSettings

MAX_CHIPS_PER_DENOMINATION = 100_000   # more than any tray or rack holds: a typing slip, not chips


def chip_set(house: HouseSettings) -> tuple[int, ...]:
    """The denominations in cents, smallest first (``chip_denominations``: "100,500,2500,...")."""
    return tuple(sorted({int(p) for p in house.chip_denominations.split(",") if p.strip()}))


def parse_chips(chips, house: HouseSettings, *, field: str = "chips",
                allow_empty: bool = False) -> tuple[dict[str, int], int]:
    """A count given as ``{denomination: number}`` (keys may be the denomination as text, as JSON
    has them): the stored form (``{"2500": 4}``, zero counts left out) and its total in cents.
    Anything but the house's chips, whole numbers from 0 to the bound, is a BadInput."""
    if not isinstance(chips, Mapping):
        raise BadInput("chips are counted by denomination", field=field)
    denominations = chip_set(house)
    counts: dict[int, int] = {}
    for key, n in chips.items():
        denom = key
        if isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 12:
            denom = int(key)
        if isinstance(denom, bool) or not isinstance(denom, int) or denom not in denominations:
            raise BadInput("{denomination} is not a chip of the house", field=field, denomination=str(key)[:20])
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_CHIPS_PER_DENOMINATION:
            raise BadInput("a number of chips is a whole number from 0 to {maximum}", field=field,
                           maximum=MAX_CHIPS_PER_DENOMINATION)
        counts[denom] = counts.get(denom, 0) + n
    total = tray_total(counts, denominations)     # a GameInputError is a BadInput too: a 400, never a 500
    if total == 0 and not allow_empty:
        raise BadInput("no chips given", field=field)
    return {str(d): n for d, n in sorted(counts.items()) if n}, total
