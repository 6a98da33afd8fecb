"""Blind structures and the tournament clock: levels, breaks, late registration, the bubble.

A structure is data: a list of steps (levels and breaks) played in order, the starting stack and how
long late registration stays open. The clock is arithmetic on *running* seconds: the time the clock
has actually run since the start, pauses left out. ``running_seconds`` computes that from the start,
``now`` and the recorded pauses, so the caller keeps only timestamps and never a ticking counter.

Past the end of the schedule the last level carries on (``beyond_schedule``); the floor adds levels
to the structure if a tournament outlives it.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Mapping, Optional, Sequence, Union

from ..base import GameInputError
from .cents import check_count


@dataclass(frozen=True)
class Level:
    """A blind level. With ``big_blind_ante`` the big blind posts ``ante`` for the whole table;
    otherwise every player dealt in posts ``ante`` (0: no ante)."""

    small_blind: int
    big_blind: int
    minutes: int
    ante: int = 0
    big_blind_ante: bool = False

    def __post_init__(self):
        check_count(self.small_blind, "small_blind", 0)
        check_count(self.big_blind, "big_blind", 1)
        check_count(self.ante, "ante", 0)
        check_count(self.minutes, "minutes", 1)
        if self.small_blind > self.big_blind:
            raise GameInputError("the small blind ({small}) is above the big blind ({big})", field="small_blind",
                                 small=self.small_blind, big=self.big_blind)
        if not isinstance(self.big_blind_ante, bool):
            raise GameInputError("big_blind_ante is true or false", field="big_blind_ante")
        if self.big_blind_ante and self.ante == 0:
            raise GameInputError("a big-blind ante level needs the ante amount", field="ante")

    @property
    def seconds(self) -> int:
        return self.minutes * 60


@dataclass(frozen=True)
class Break:
    minutes: int
    note: str = ""  # e.g. "colour-up of the 100 chips"

    def __post_init__(self):
        check_count(self.minutes, "minutes", 1)

    @property
    def seconds(self) -> int:
        return self.minutes * 60


Step = Union[Level, Break]


@dataclass(frozen=True)
class Rebuys:
    """Chips bought by a player still in: ``price`` to the prize pool, ``fee`` to the house, for
    ``chips``; until the end of level ``until_level``; at most ``max_per_player`` each (0: no limit);
    only with ``at_or_below`` chips or fewer (0: the starting stack)."""

    price: int
    chips: int
    until_level: int
    fee: int = 0
    max_per_player: int = 0
    at_or_below: int = 0

    def __post_init__(self):
        check_count(self.price, "rebuy.price", 0)
        check_count(self.fee, "rebuy.fee", 0)
        check_count(self.chips, "rebuy.chips", 1)
        check_count(self.until_level, "rebuy.until_level", 1)
        check_count(self.max_per_player, "rebuy.max_per_player", 0)
        check_count(self.at_or_below, "rebuy.at_or_below", 0)


@dataclass(frozen=True)
class AddOn:
    """One purchase per player, whatever his stack: ``price`` to the prize pool, ``fee`` to the house,
    for ``chips``; offered from the end of level ``after_level`` until the end of the next level (the
    break between them included)."""

    price: int
    chips: int
    after_level: int
    fee: int = 0

    def __post_init__(self):
        check_count(self.price, "add_on.price", 0)
        check_count(self.fee, "add_on.fee", 0)
        check_count(self.chips, "add_on.chips", 1)
        check_count(self.after_level, "add_on.after_level", 1)


@dataclass(frozen=True)
class Structure:
    """``late_registration_levels`` N: entries are taken until the end of level N (0: only before the
    start). ``late_registration_through_break``: a break right after level N still takes entries
    (the common "registration closes at the end of the break")."""

    name: str
    starting_stack: int
    steps: tuple[Step, ...]
    late_registration_levels: int
    late_registration_through_break: bool = False
    rebuy: Optional[Rebuys] = None
    add_on: Optional[AddOn] = None

    def __post_init__(self):
        object.__setattr__(self, "steps", tuple(self.steps))
        check_count(self.starting_stack, "starting_stack", 1)
        if not self.steps or not isinstance(self.steps[0], Level) or not isinstance(self.steps[-1], Level):
            raise GameInputError("a structure starts and ends with a level", field="steps")
        for i, step in enumerate(self.steps):
            if not isinstance(step, (Level, Break)):
                raise GameInputError("step {step} is neither a level nor a break", field="steps", step=i + 1)
            if i and isinstance(step, Break) and isinstance(self.steps[i - 1], Break):
                raise GameInputError("steps {first} and {second} are two breaks in a row", field="steps",
                                     first=i, second=i + 1)
        check_count(self.late_registration_levels, "late_registration_levels", 0)
        if self.late_registration_levels > len(self.levels):
            raise GameInputError("late registration until level {level} but the structure has {levels} levels",
                                 field="late_registration_levels", level=self.late_registration_levels,
                                 levels=len(self.levels))
        if self.rebuy is not None and not isinstance(self.rebuy, Rebuys):
            raise GameInputError("rebuy is a Rebuys", field="rebuy")
        if self.add_on is not None and not isinstance(self.add_on, AddOn):
            raise GameInputError("add_on is an AddOn", field="add_on")
        for what, level in (("rebuy.until_level", self.rebuy and self.rebuy.until_level),
                            ("add_on.after_level", self.add_on and self.add_on.after_level)):
            if level and level > len(self.levels):
                raise GameInputError("{what} is level {level} but the structure has {levels} levels", field=what,
                                     what=what, level=level, levels=len(self.levels))

    @property
    def levels(self) -> tuple[Level, ...]:
        return tuple(s for s in self.steps if isinstance(s, Level))

    def starts(self) -> list[int]:
        """Running second at which each step starts."""
        out, t = [], 0
        for step in self.steps:
            out.append(t)
            t += step.seconds
        return out

    def level_numbers(self) -> list[Optional[int]]:
        """1-based level number of each step, None for breaks."""
        out, n = [], 0
        for step in self.steps:
            if isinstance(step, Level):
                n += 1
                out.append(n)
            else:
                out.append(None)
        return out

    def late_registration_end(self) -> int:
        """Running second at which late registration closes (0: closes at the start)."""
        if self.late_registration_levels == 0:
            return 0
        numbers, starts = self.level_numbers(), self.starts()
        i = numbers.index(self.late_registration_levels)
        end = starts[i] + self.steps[i].seconds
        if self.late_registration_through_break and i + 1 < len(self.steps) and isinstance(self.steps[i + 1], Break):
            end += self.steps[i + 1].seconds
        return end


@dataclass(frozen=True)
class ClockReading:
    elapsed: int                       # running seconds read
    step_index: int                    # index into structure.steps
    step: Step
    level_number: Optional[int]        # 1-based; None on a break
    levels_completed: int              # levels whose time has run out
    seconds_left: int                  # in this step; 0 once the schedule has run out
    beyond_schedule: bool              # the last level is running on past its time
    next_level_number: Optional[int]
    next_level: Optional[Level]
    seconds_to_next_level: Optional[int]
    next_break: Optional[Break]        # the next break after this step
    seconds_to_next_break: Optional[int]
    late_registration_open: bool
    seconds_to_late_registration_end: Optional[int]  # None once closed

    @property
    def on_break(self) -> bool:
        return isinstance(self.step, Break)

    @property
    def level(self) -> Optional[Level]:
        """The level in play; on a break, the level that comes next."""
        return self.step if isinstance(self.step, Level) else self.next_level


def clock(structure: Structure, elapsed: int) -> ClockReading:
    """Where the clock is after ``elapsed`` running seconds (pauses already left out)."""
    check_count(elapsed, "elapsed", 0)
    starts, numbers, steps = structure.starts(), structure.level_numbers(), structure.steps
    end = starts[-1] + steps[-1].seconds
    beyond = elapsed >= end
    if beyond:  # the last level (a structure ends with one) runs on
        index = len(steps) - 1
    else:
        index = max(i for i, t in enumerate(starts) if t <= elapsed)
    left = 0 if beyond else starts[index] + steps[index].seconds - elapsed
    next_level = next_break = None
    next_level_number = to_level = to_break = None
    if not beyond:
        for j in range(index + 1, len(steps)):
            if isinstance(steps[j], Level) and next_level is None:
                next_level, next_level_number, to_level = steps[j], numbers[j], starts[j] - elapsed
            if isinstance(steps[j], Break) and next_break is None:
                next_break, to_break = steps[j], starts[j] - elapsed
    completed = sum(1 for s in steps[:index] if isinstance(s, Level)) + (1 if beyond else 0)
    late_end = structure.late_registration_end()
    open_ = elapsed < late_end
    return ClockReading(
        elapsed=elapsed, step_index=index, step=steps[index], level_number=numbers[index],
        levels_completed=completed, seconds_left=left,
        beyond_schedule=beyond, next_level_number=next_level_number, next_level=next_level,
        seconds_to_next_level=to_level, next_break=next_break, seconds_to_next_break=to_break,
        late_registration_open=open_, seconds_to_late_registration_end=(late_end - elapsed) if open_ else None)


Moment = Union[int, float, datetime]


def _seconds_between(a: Moment, b: Moment) -> float:
    if isinstance(a, datetime) and isinstance(b, datetime):
        if (a.tzinfo is None) != (b.tzinfo is None):
            raise GameInputError("mixing naive and timezone-aware times")
        return (b - a).total_seconds()
    if isinstance(a, datetime) or isinstance(b, datetime) or isinstance(a, bool) or isinstance(b, bool):
        raise GameInputError("times are all datetimes or all numbers of seconds")
    return float(b - a)


def running_seconds(started_at: Moment, now: Moment,
                    pauses: Sequence[tuple[Moment, Optional[Moment]]] = ()) -> int:
    """Whole seconds the clock has run from ``started_at`` to ``now``, leaving out the pauses.

    ``pauses`` are (paused_at, resumed_at) pairs, resumed_at None while still paused. Times are all
    datetimes or all numbers (e.g. epoch seconds). Pauses may overlap or reach outside the run; each
    second is left out once. A clock not yet started (``now`` before ``started_at``) reads 0.
    """
    total = _seconds_between(started_at, now)
    if total <= 0:
        return 0
    spans = []
    for n, pause in enumerate(pauses):
        try:
            paused_at, resumed_at = pause
        except (TypeError, ValueError):
            raise GameInputError("pause {n} is not a (paused_at, resumed_at) pair", n=n + 1) from None
        a = max(0.0, _seconds_between(started_at, paused_at))
        b = total if resumed_at is None else min(total, _seconds_between(started_at, resumed_at))
        if resumed_at is not None and _seconds_between(paused_at, resumed_at) < 0:
            raise GameInputError("pause {n} resumes before it starts", n=n + 1)
        if b > a:
            spans.append((a, b))
    paused, reach = 0.0, 0.0
    for a, b in sorted(spans):
        a = max(a, reach)
        if b > a:
            paused += b - a
            reach = b
    return int(total - paused)


BubblePolicy = Literal["pause", "close_registration"]


def bubble_action(players_left: int, paid_places: int, late_registration_open: bool,
                  policy: BubblePolicy) -> Literal["none", "pause", "close_registration"]:
    """What to do near the money while late registration is still open.

    ``pause`` (the online room's rule): one player from the money (the bubble) the clock is paused
    for a short while so that late entries can still come in and grow the prize pool.
    ``close_registration`` (the other room's rule): once the next player out is paid, late
    registration closes at once and the prize pool is what was collected, any guarantee dropped
    (pass ``guarantee=0`` to ``prize_pool``).
    """
    check_count(players_left, "players_left", 1)
    check_count(paid_places, "paid_places", 1)
    if policy not in ("pause", "close_registration"):
        raise GameInputError("bubble policy is 'pause' or 'close_registration', got {given}", field="policy",
                             given=repr(policy))
    if not late_registration_open:
        return "none"
    if policy == "pause":
        return "pause" if players_left == paid_places + 1 else "none"
    return "close_registration" if players_left <= paid_places else "none"


PurchaseKind = Literal["rebuy", "add_on"]


def purchase_refusal(structure: Structure, kind: PurchaseKind, *, levels_completed: int,
                     late_registration_open: bool, chips_now: int, bought_before: int) -> Optional[str]:
    """Why a player still in may not buy chips now (None: he may). ``levels_completed``: from the
    clock; ``chips_now``: his stack as the floor counts it; ``bought_before``: his purchases of that
    kind so far. Chips are sold only while late registration is open, so the prize pool is final
    before the first place is paid. Codes: no_rebuys, rebuys_over, too_many_chips, no_rebuy_left,
    no_add_on, add_on_not_yet, add_on_over, add_on_taken, registration_closed."""
    check_count(levels_completed, "levels_completed", 0)
    check_count(chips_now, "chips_now", 0)
    check_count(bought_before, "bought_before", 0)
    if kind == "rebuy":
        r = structure.rebuy
        if r is None:
            return "no_rebuys"
        if levels_completed >= r.until_level:
            return "rebuys_over"
        if chips_now > (r.at_or_below or structure.starting_stack):
            return "too_many_chips"
        if r.max_per_player and bought_before >= r.max_per_player:
            return "no_rebuy_left"
    elif kind == "add_on":
        a = structure.add_on
        if a is None:
            return "no_add_on"
        if levels_completed < a.after_level:
            return "add_on_not_yet"
        if levels_completed > a.after_level:
            return "add_on_over"
        if bought_before:
            return "add_on_taken"
    else:
        raise GameInputError("a purchase is a rebuy or an add_on, got {given}", field="kind", given=repr(kind))
    if not late_registration_open:
        return "registration_closed"
    return None


def hand_for_hand(players_left: int, paid_places: int, tables_in_play: int, late_registration_open: bool) -> bool:
    """Whether play goes hand for hand: one player from the money (players left = places paid + 1),
    with the field fixed (late registration closed) and more than one table in play, so no table can
    gain or lose by playing faster or slower. Each hand then starts at every table together and the
    next starts only when every table has finished it."""
    check_count(players_left, "players_left", 0)
    check_count(paid_places, "paid_places", 0)
    check_count(tables_in_play, "tables_in_play", 0)
    return (not late_registration_open and tables_in_play > 1 and paid_places > 0
            and players_left == paid_places + 1)


# --- storage as plain data (the database keeps a structure as JSON) ---

def structure_to_data(structure: Structure) -> dict:
    steps = []
    for step in structure.steps:
        if isinstance(step, Level):
            steps.append({"level": {"small_blind": step.small_blind, "big_blind": step.big_blind,
                                    "ante": step.ante, "big_blind_ante": step.big_blind_ante,
                                    "minutes": step.minutes}})
        else:
            steps.append({"break": {"minutes": step.minutes, "note": step.note}})
    out = {"name": structure.name, "starting_stack": structure.starting_stack, "steps": steps,
           "late_registration_levels": structure.late_registration_levels,
           "late_registration_through_break": structure.late_registration_through_break}
    if structure.rebuy is not None:
        r = structure.rebuy
        out["rebuy"] = {"price": r.price, "fee": r.fee, "chips": r.chips, "until_level": r.until_level,
                        "max_per_player": r.max_per_player, "at_or_below": r.at_or_below}
    if structure.add_on is not None:
        a = structure.add_on
        out["add_on"] = {"price": a.price, "fee": a.fee, "chips": a.chips, "after_level": a.after_level}
    return out


def _purchase(cls, data, key):
    raw = data.get(key)
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise GameInputError("{key} is an object", field=key, key=key)
    try:
        return cls(**{k: raw[k] for k in raw})
    except TypeError as e:
        raise GameInputError("{key}: {problem}", field=key, key=key, problem=str(e)) from None


def structure_from_data(data: Mapping) -> Structure:
    """The inverse of ``structure_to_data``; a bad field raises GameInputError naming it."""
    if not isinstance(data, Mapping):
        raise GameInputError("a structure is an object with name, starting_stack, steps...")
    try:
        raw_steps = data["steps"]
        steps: list[Step] = []
        for i, raw in enumerate(raw_steps):
            where = f"steps[{i}]"
            if not isinstance(raw, Mapping) or len(raw) != 1 or not set(raw) <= {"level", "break"}:
                raise GameInputError("{where} is an object with one key, level or break", field=where, where=where)
            kind, body = next(iter(raw.items()))
            if not isinstance(body, Mapping):
                raise GameInputError("{where}.{key} is an object", field=where, where=where, key=kind)
            try:
                if kind == "level":
                    steps.append(Level(small_blind=body["small_blind"], big_blind=body["big_blind"],
                                       minutes=body["minutes"], ante=body.get("ante", 0),
                                       big_blind_ante=body.get("big_blind_ante", False)))
                else:
                    steps.append(Break(minutes=body["minutes"], note=str(body.get("note", ""))))
            except KeyError as e:
                raise GameInputError("{where}.{key} lacks {missing}", field=f"{where}.{e.args[0]}", where=where,
                                     key=kind, missing=e.args[0]) from None
            except GameInputError as e:
                raise GameInputError("{where}: {problem}", field=f"{where}.{e.field}", where=where,
                                     problem=e.msg) from None
        return Structure(name=str(data["name"]), starting_stack=data["starting_stack"], steps=tuple(steps),
                         late_registration_levels=data["late_registration_levels"],
                         late_registration_through_break=bool(data.get("late_registration_through_break", False)),
                         rebuy=_purchase(Rebuys, data, "rebuy"), add_on=_purchase(AddOn, data, "add_on"))
    except KeyError as e:
        raise GameInputError("a structure needs {missing}", field=str(e.args[0]), missing=e.args[0]) from None
    except TypeError as e:
        raise GameInputError("structure: {problem}", problem=str(e)) from None


def _bba(levels: Sequence[tuple[int, int]], minutes: int) -> list[Level]:
    return [Level(sb, bb, minutes, ante=bb, big_blind_ante=True) for sb, bb in levels]


# Templates other code copies (e.g. into a tournament's own row); the house edits its copy.
WEEKLY_DEEP_STACK = Structure(
    name="Weekly deep stack",
    starting_stack=30_000,
    steps=(
        Level(100, 200, 30),
        *_bba([(200, 300), (200, 400), (300, 500)], 30),
        Break(15),
        *_bba([(300, 600), (400, 800), (500, 1_000), (600, 1_200)], 30),
        Break(15, "colour-up of the 100 chips"),
        *_bba([(800, 1_600), (1_000, 2_000), (1_200, 2_400), (1_500, 3_000)], 30),
        Break(15),
        *_bba([(2_000, 4_000), (2_500, 5_000), (3_000, 6_000), (4_000, 8_000)], 30),
        Break(15, "colour-up of the 500 chips"),
        *_bba([(5_000, 10_000), (6_000, 12_000), (8_000, 16_000), (10_000, 20_000)], 30),
        Break(10),
        *_bba([(12_000, 24_000), (15_000, 30_000), (20_000, 40_000), (25_000, 50_000)], 30),
    ),
    late_registration_levels=8,
    late_registration_through_break=True,
)

DAILY_TURBO = Structure(
    name="Daily turbo",
    starting_stack=20_000,
    steps=(
        Level(100, 200, 15),
        *_bba([(200, 300), (200, 400), (300, 500), (300, 600), (400, 800)], 15),
        Break(10, "colour-up of the 100 chips"),
        *_bba([(500, 1_000), (600, 1_200), (800, 1_600), (1_000, 2_000), (1_200, 2_400), (1_500, 3_000)], 15),
        Break(10),
        *_bba([(2_000, 4_000), (2_500, 5_000), (3_000, 6_000), (4_000, 8_000), (5_000, 10_000),
               (6_000, 12_000), (8_000, 16_000), (10_000, 20_000)], 15),
    ),
    late_registration_levels=6,
    late_registration_through_break=True,
)

TEMPLATES = {"weekly_deep_stack": WEEKLY_DEEP_STACK, "daily_turbo": DAILY_TURBO}
