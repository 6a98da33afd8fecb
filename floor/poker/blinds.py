"""Button, blinds and what each seat owes at a live cash-game table: pure functions, no I/O.

``plan_hand(snapshot, rules)`` takes a picture of the table between two hands (who sits where, who is
away, who is entering, what each one missed, where the last hand's button and blinds were) and says
what the next hand looks like: the button, who posts the small and the big blind, who posts what to
come back in, who is dealt in, who waits, and which away players just missed a blind (each miss may
earn a missed-blind ticket). The dealer terminal shows this plan before "New hand" and the service
(``floor.poker.table``) records exactly this plan when the dealer presses it.

The rules (docs/rules.md, "Missed blinds and re-entry"; the French originals win):

* 004 "Missed Blind" (``bern``, the default): missed both blinds -> big blind live, small blind dead.
  Missed only the small -> small dead, and he re-enters only in the big-blind position.
* 002 "missed blinds policy" (``online_network``): missed the small -> dead small on return; small and big ->
  live big plus dead small; small, big and the third blind -> live third blind plus dead small and
  dead big. The third blind exists only where the house plays one (``third_blind``).
* 000 re-entry (``swiss_online``): no extra if his big blind did not pass while he sat out; he may come back
  in the big blind (posting just it); if his big blind passed (the button passing his seat implies it),
  small plus big (big live, small dead); he may not come back in the small blind.
* Everyone: a new player posts a big blind or waits for it and never enters in the small blind (002
  "posting fee", 000); a seat change more than ``seat_change_distance`` occupied seats clockwise from
  the button owes both blinds (big live, small dead) or waits for the big blind (004); a must-move
  arrival pays nothing and plays at once unless he lands in the small blind or on the button, where
  he waits for the button to pass (004); a rebuy after an all-in who missed no blind is dealt in at
  once (004 "All-in"); nobody posts for an absent player.

Button movement: the moving button (default) goes to the next player dealt in and the blinds follow
it; the dead button (house setting) moves the big blind to the next player, puts the small blind on
last hand's big-blind seat (no small blind if that player is gone or away) and the button on last
hand's small-blind seat (a dead button if that seat is empty). Heads-up, the button posts the small
blind. Players entering the game (new, returning with a debt, must-move...) are never dealt in on the
button, in the small blind, or between the button and the big blind: they wait for the button to pass.

A blind "passes" an away player when its position moves over his seat: his seat lies after last
hand's position and up to (and including) this hand's. Only away players miss blinds; a player who
is present but waiting for the big blind is not away.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Sequence

from floor.errors import N_, BadInput, InvalidState

POLICIES = ("bern", "online_network", "swiss_online")
ARRIVALS = ("new", "must_move", "table_change", "seat_change", "rebuy")
BLINDS = ("small", "big", "third")
TICKET_MODES = ("each_blind", "big_blind")


@dataclass(frozen=True)
class Rules:
    """The house settings that decide blinds (built from floor.settings.HouseSettings)."""
    policy: str = "bern"
    dead_button: bool = False
    third_blind: bool = False
    seat_change_distance: int = 3
    tickets_on: str = "each_blind"
    straddle_big_blinds: int = 2

    def __post_init__(self):
        if self.policy not in POLICIES:
            raise BadInput("missed_blind_policy must be one of {policies}", field="missed_blind_policy",
                           policies=", ".join(POLICIES))
        if self.tickets_on not in TICKET_MODES:
            raise BadInput("missed_blind_ticket_on must be one of {modes}", modes=", ".join(TICKET_MODES),
                           field="missed_blind_ticket_on")

    @classmethod
    def from_house(cls, house) -> "Rules":
        return cls(policy=house.missed_blind_policy, dead_button=house.dead_button,
                   third_blind=house.third_blind, seat_change_distance=house.seat_change_blind_distance,
                   tickets_on=house.missed_blind_ticket_on, straddle_big_blinds=house.straddle_big_blinds)


@dataclass(frozen=True)
class SeatState:
    """One occupied seat between two hands."""
    seat: int
    player_id: int
    away: bool = False                 # sitting out: not dealt in, misses the blinds that pass him
    dealt_before: bool = True          # dealt at least one hand at this table during this stay
    returning: bool = False            # sat out at least one hand since he was last dealt in
    missed: frozenset = frozenset()    # blinds ("small", "big", "third") missed since last dealt in
    arrival: str = "new"               # how he came to this seat (SeatAssignment.arrival)
    far_seat_change: bool = False      # seat change more than the house distance from the button
    wait_for_bb: bool = False          # his choice: wait for the big blind rather than post now

    def __post_init__(self):
        if self.arrival not in ARRIVALS:
            raise BadInput("unknown arrival {arrival!r}", field="arrival", arrival=self.arrival)
        bad = set(self.missed) - set(BLINDS)
        if bad:
            raise BadInput("unknown blinds {blinds}", field="missed", blinds=", ".join(sorted(bad)))


@dataclass(frozen=True)
class Positions:
    button: int | None
    small: int | None        # the small-blind position (it may be dead: nobody posts)
    big: int | None
    third: int | None = None


@dataclass(frozen=True)
class Snapshot:
    seat_count: int
    small_blind: int          # cents
    big_blind: int            # cents
    seats: tuple[SeatState, ...]
    last: Positions | None = None      # last hand's positions; None: the first hand of a game
    button_at: int | None = None       # the dealer placed the button here for the next hand
    straddle: bool = False             # the seat after the big blind straddles this hand

    def seat(self, number: int) -> SeatState | None:
        return next((s for s in self.seats if s.seat == number), None)


@dataclass(frozen=True)
class Posting:
    seat: int
    player_id: int
    kind: str        # small_blind | big_blind | third_blind | straddle | entry | dead_small | dead_big
    amount: int      # cents
    live: bool       # live bets count toward his call; dead money goes straight to the pot


@dataclass(frozen=True)
class Miss:
    seat: int
    player_id: int
    blind: str       # small | big | third
    ticket: bool     # whether this miss hands him a missed-blind ticket (house setting)


@dataclass(frozen=True)
class Owed:
    """What a player must put in to be dealt in off the big blind (his position's blind not counted)."""
    live: int = 0
    dead_small: int = 0
    dead_big: int = 0
    wait_for_bb: bool = False   # he may only come in at the big blind
    reason: str = ""

    @property
    def dead(self) -> int:
        return self.dead_small + self.dead_big

    @property
    def total(self) -> int:
        return self.live + self.dead

    def dead_parts(self) -> list[tuple[str, int, bool]]:
        return ([("dead_small", self.dead_small, False)] if self.dead_small else []) + \
               ([("dead_big", self.dead_big, False)] if self.dead_big else [])


@dataclass(frozen=True)
class SeatPlan:
    seat: int
    player_id: int
    status: str              # dealt | away | waiting
    role: str | None         # button | small | big | third | None
    owed: Owed               # away / waiting: what coming in costs; dealt: what he owed on entering
    note: str = ""


@dataclass(frozen=True)
class HandPlan:
    positions: Positions
    dead_button: bool          # the button sits on a seat with nobody dealt in
    dead_small: bool           # nobody posts the small blind this hand
    heads_up: bool
    straddle_seat: int | None  # acts last before the flop
    first_to_act: int | None   # preflop
    seats: tuple[SeatPlan, ...]
    postings: tuple[Posting, ...]
    misses: tuple[Miss, ...]
    new_game: bool

    def seat(self, number: int) -> SeatPlan | None:
        return next((s for s in self.seats if s.seat == number), None)

    def posted(self, number: int) -> list[Posting]:
        return [p for p in self.postings if p.seat == number]

    @property
    def dealt(self) -> list[int]:
        return [s.seat for s in self.seats if s.status == "dealt"]


# --- seat arithmetic -------------------------------------------------------------------------------

def clockwise(seats: Iterable[int], after: int | None, seat_count: int, inclusive: bool = False) -> list[int]:
    """``seats`` in clockwise order starting after ``after`` (or at it when inclusive)."""
    seats = sorted(set(seats))
    if after is None:
        return seats
    key = (lambda s: (s - after) % seat_count) if inclusive else (lambda s: (s - after - 1) % seat_count)
    return sorted(seats, key=key)


def _next(seats: Iterable[int], after: int, seat_count: int) -> int | None:
    order = clockwise(seats, after, seat_count)
    return order[0] if order else None


def in_arc(seat: int, start: int | None, end: int | None, seat_count: int) -> bool:
    """Is ``seat`` after ``start`` and at or before ``end``, going clockwise? (start == end: empty)"""
    if start is None or end is None or start == end:
        return False
    return 0 < (seat - start) % seat_count <= (end - start) % seat_count


def blinds_passed(last: Positions | None, now: Positions, seat: int, seat_count: int) -> list[str]:
    """Which blind positions moved over ``seat`` from last hand to this one."""
    if last is None:
        return []
    out = []
    if in_arc(seat, last.small, now.small, seat_count):
        out.append("small")
    if in_arc(seat, last.big, now.big, seat_count):
        out.append("big")
    if in_arc(seat, last.third, now.third, seat_count):
        out.append("third")
    return out


def seat_change_distance(button: int | None, active_seats: Iterable[int], new_seat: int, seat_count: int) -> int:
    """How many seats occupied by active players lie clockwise from the button to ``new_seat``,
    counting the new seat itself (1 = the small blind's place, 2 = the big blind's, 3 = under the gun)."""
    if button is None:
        return 0
    between = [s for s in active_seats if s != new_seat and in_arc(s, button, new_seat, seat_count)]
    return len(between) + 1


# --- what entering costs ---------------------------------------------------------------------------

def entrant_kind(s: SeatState) -> str:
    """in (plays on, no entry cost), new, far (far seat change), must_move, returning."""
    if s.missed or s.returning:
        return "returning" if (s.dealt_before or s.arrival in ("rebuy", "seat_change", "must_move")) else "new"
    if s.dealt_before or s.arrival == "rebuy" or (s.arrival == "seat_change" and not s.far_seat_change):
        return "in"
    if s.arrival == "must_move":
        return "must_move"
    if s.arrival == "seat_change":
        return "far"
    return "new"


def owed(rules: Rules, s: SeatState, small_blind: int, big_blind: int) -> Owed:
    """What this player must put in to be dealt in off the big blind (docs/rules.md, per policy)."""
    kind = entrant_kind(s)
    m = set(s.missed)
    if kind == "in":
        return Owed()
    if kind == "must_move":
        return Owed(reason=N_("must-move: plays at once, not in the small blind or on the button"))
    if kind == "far":
        return Owed(big_blind, small_blind,
                    reason=N_("seat change far from the button: big live, small dead, or wait for the big blind"))
    if kind == "new":
        return Owed(big_blind, reason=N_("new player: posts a big blind or waits for it"))
    # returning from a sit-out
    if rules.policy == "bern":
        if "big" in m and "small" in m:
            return Owed(big_blind, small_blind, reason=N_("missed both blinds: big live, small dead"))
        if "big" in m:
            return Owed(big_blind, reason=N_("missed the big blind: big live"))
        if "small" in m:
            return Owed(0, small_blind, wait_for_bb=True,
                        reason=N_("missed the small blind: small dead, comes back in the big blind"))
        return Owed(reason=N_("missed no blind: plays at once"))
    if rules.policy == "online_network":
        if {"small", "big", "third"} <= m:
            return Owed(big_blind * rules.straddle_big_blinds, small_blind, big_blind,
                        reason=N_("missed small, big and third blind: third live, small and big dead"))
        if "big" in m and "small" in m:
            return Owed(big_blind, small_blind, reason=N_("missed both blinds: big live, small dead"))
        if "big" in m:
            return Owed(big_blind, reason=N_("missed the big blind: big live"))
        if "small" in m:
            return Owed(0, small_blind, reason=N_("missed the small blind: small dead"))
        return Owed(reason=N_("missed no blind: plays at once"))
    # swiss_online
    if "big" in m:
        return Owed(big_blind, small_blind,
                    reason=N_("his big blind passed: small and big, or come back in the big blind"))
    return Owed(reason=N_("his big blind did not pass: no extra, but not in the small blind"))


def _terms(rules: Rules, s: SeatState, role: str | None, between: bool, heads_up: bool,
           sb: int, bb: int) -> tuple[bool, list[tuple[str, int, bool]], str]:
    """May he be dealt in at this role, and what does he post? -> (ok, [(kind, amount, live)], why not)."""
    kind = entrant_kind(s)
    blind = {"small": ("small_blind", sb), "big": ("big_blind", bb),
             "third": ("third_blind", bb * rules.straddle_big_blinds)}
    pos = [(blind[role][0], blind[role][1], True)] if role in blind else []
    if kind == "in":
        return True, pos, ""
    o = owed(rules, s, sb, bb)
    if role == "small" or (heads_up and role == "button"):
        return False, [], N_("may not enter in the small blind")
    if between:
        return False, [], N_("waits for the button to pass")
    if role == "button":
        return False, [], N_("may not enter on the button")
    if kind == "must_move":
        return True, pos, ""
    # At the big blind (or a third blind) his blind is his live bet. A returning player still owes
    # the dead part (the Bern room, the online network), except under the Swiss online room's rules,
    # where coming back in the big blind costs just it.
    # A new player or a far seat change waiting for the big blind owes nothing more once it comes.
    dead = o.dead_parts() if (kind == "returning" and rules.policy != "swiss_online") else []
    if role in ("big", "third"):
        return True, pos + dead, ""
    if o.total == 0:
        return True, [], ""
    if o.wait_for_bb:
        return False, [], N_("waits for the big blind")
    if s.wait_for_bb:
        return False, [], N_("chose to wait for the big blind")
    return True, ([("entry", o.live, True)] if o.live else []) + o.dead_parts(), ""


# --- the plan ---------------------------------------------------------------------------------------

def plan_hand(snap: Snapshot, rules: Rules) -> HandPlan:
    """The next hand at this table. Raises InvalidState if fewer than two players can be dealt in."""
    n = snap.seat_count
    numbers = [s.seat for s in snap.seats]
    if len(set(numbers)) != len(numbers):
        raise BadInput("a seat appears twice in the snapshot", field="seats")
    if any(not 1 <= x <= n for x in numbers):
        raise BadInput("a seat number is outside the table", field="seats")
    present = [s for s in snap.seats if not s.away]
    new_game = snap.last is None
    if new_game:
        # The first hand of a game: everybody at the table is dealt in, nobody owes anything.
        present = [replace(s, dealt_before=True, returning=False, missed=frozenset(),
                           far_seat_change=False, wait_for_bb=False) for s in present]
    if len(present) < 2:
        raise InvalidState("fewer than two players are at the table", code="not_enough_players")

    if rules.dead_button and not new_game and snap.button_at is None:
        result = _dead_button(snap, rules, present)
    else:
        result = _moving_button(snap, rules, present, new_game)
    if result is None:
        waiting = [s.seat for s in present if entrant_kind(s) != "in"]
        if waiting:
            raise InvalidState("fewer than two players can be dealt in (seat {seats} waits)", code="not_enough_players",
                               seats=", ".join(map(str, waiting)))
        raise InvalidState("fewer than two players can be dealt in", code="not_enough_players")
    pos, roles, dealt, reasons, heads_up = result

    by_seat = {s.seat: s for s in present}
    postings: list[Posting] = []
    seat_plans: list[SeatPlan] = []
    third_amount = snap.big_blind * rules.straddle_big_blinds
    straddle_seat = None
    if pos.third is not None:
        straddle_seat = pos.third
    elif snap.straddle and len(dealt) >= 3:
        straddle_seat = _next(dealt, pos.big, n)
    for s in sorted(snap.seats, key=lambda x: x.seat):
        role = roles.get(s.seat)
        if s.away:
            seat_plans.append(SeatPlan(s.seat, s.player_id, "away", role,
                                       owed(rules, s, snap.small_blind, snap.big_blind)))
            continue
        st = by_seat[s.seat]
        if s.seat not in dealt:
            seat_plans.append(SeatPlan(s.seat, s.player_id, "waiting", role,
                                       owed(rules, st, snap.small_blind, snap.big_blind), reasons.get(s.seat, "")))
            continue
        ok, parts, _ = _terms(rules, st, role, False, heads_up, snap.small_blind, snap.big_blind)
        assert ok, (s.seat, role)
        if s.seat == straddle_seat and role != "third":
            parts = parts + [("straddle", third_amount, True)]
            parts = [p for p in parts if p[0] != "entry"]   # the straddle covers a live entry bet
        for kind, amount, live in parts:
            postings.append(Posting(s.seat, s.player_id, kind, amount, live))
        seat_plans.append(SeatPlan(s.seat, s.player_id, "dealt", role,
                                   owed(rules, st, snap.small_blind, snap.big_blind)))

    misses = []
    for s in snap.seats:
        if s.away:
            for blind in blinds_passed(snap.last, pos, s.seat, n):
                if blind == "third" and not rules.third_blind:
                    continue
                ticket = rules.tickets_on == "each_blind" or blind == "big"
                misses.append(Miss(s.seat, s.player_id, blind, ticket))

    small_posted = any(p.kind == "small_blind" for p in postings)
    first = None
    order = clockwise(dealt, straddle_seat or pos.big, n)
    if heads_up:
        first = pos.button
    elif order:
        first = order[0]
    return HandPlan(positions=pos, dead_button=pos.button not in dealt, dead_small=not small_posted,
                    heads_up=heads_up, straddle_seat=straddle_seat, first_to_act=first,
                    seats=tuple(seat_plans), postings=tuple(postings), misses=tuple(misses), new_game=new_game)


def _roles(pos: Positions, heads_up: bool) -> dict[int, str]:
    roles: dict[int, str] = {}
    if pos.button is not None:
        roles[pos.button] = "button"
    if pos.small is not None and not (heads_up and pos.small == pos.button):
        roles[pos.small] = "small"
    if pos.big is not None:
        roles[pos.big] = "big"
    if pos.third is not None:
        roles[pos.third] = "third"
    return roles


def _check(rules, snap, by_seat, candidates, roles, heads_up, between=frozenset()):
    """The first candidate (clockwise from the button) who may not be dealt in here, with why."""
    for seat in candidates:
        role = roles.get(seat)
        if heads_up and role == "button":
            role = "small"
        ok, _, why = _terms(rules, by_seat[seat], role, seat in between, heads_up, snap.small_blind, snap.big_blind)
        if not ok:
            return seat, why
    return None, ""


def _moving_button(snap: Snapshot, rules: Rules, present: list[SeatState], new_game: bool):
    """The button goes to the next player already in the game (it skips players entering, who may
    then come in off the button), the small blind to the next player in the game after it, the big
    blind to the next player after that, entering or not."""
    n = snap.seat_count
    by_seat = {s.seat: s for s in present}
    in_game = [s.seat for s in present if entrant_kind(s) == "in"]
    if not in_game:
        return None
    if snap.button_at is not None:
        anchor, inclusive = snap.button_at, True
    elif new_game:
        anchor, inclusive = None, True
    else:
        anchor, inclusive = snap.last.button, False
    button = clockwise(in_game, anchor, n, inclusive)[0]
    excluded: dict[int, str] = {}
    # 004: a must-move arrival the button reaches (it would have landed on him) waits for it to pass.
    if anchor is not None:
        for x in by_seat:
            if entrant_kind(by_seat[x]) == "must_move" and (
                    in_arc(x, anchor, button, n) or (inclusive and x == anchor)):
                excluded[x] = N_("landed on the button: waits for it to pass")
    candidates = [x for x in by_seat if x not in excluded]
    small = _next([x for x in in_game if x != button], button, n)
    big = _next([x for x in candidates if x not in (button, small)], small, n) if small is not None else None
    if big is None:
        # Heads-up: the button posts the small blind, the other player the big blind.
        small = button
        big = _next([x for x in candidates if x != button], button, n)
        if big is None:
            return None
    pos = Positions(button, small, big, None)
    dealt, roles = _deal(rules, snap, by_seat, candidates, pos, excluded, small == button)
    if len(dealt) == 2 and small != button:
        # Only two can play: heads-up, the other one has the button and posts the small blind.
        other = next(x for x in dealt if x != big)
        pos = Positions(other, other, big, None)
        dealt, roles = _deal(rules, snap, by_seat, dealt, pos, excluded, True)
    if len(dealt) < 2:
        return None
    if rules.third_blind and len(dealt) >= 4:
        third = _next([x for x in dealt if x not in (button, small, big)], big, n)
        pos = replace(pos, third=third)
        roles[third] = "third"
    return pos, roles, dealt, excluded, pos.small == pos.button


def _deal(rules, snap, by_seat, candidates, pos: Positions, excluded: dict, heads_up: bool):
    """Who of the candidates may be dealt in with these positions; the others wait (reason noted)."""
    n = snap.seat_count
    roles = _roles(pos, heads_up)
    if heads_up:
        roles[pos.button] = "small"
    dealt = []
    for x in clockwise(candidates, pos.button, n, inclusive=True):
        between = x not in roles and in_arc(x, pos.button, pos.small, n) and x != pos.small
        ok, _, why = _terms(rules, by_seat[x], roles.get(x), between, heads_up, snap.small_blind, snap.big_blind)
        if ok:
            dealt.append(x)
        else:
            excluded[x] = why
    return dealt, roles


def _dead_button(snap: Snapshot, rules: Rules, present: list[SeatState]):
    n = snap.seat_count
    last = snap.last
    by_seat = {s.seat: s for s in present}
    seats = list(by_seat)
    big = _next(seats, last.big, n)      # every present player may take the big blind
    small = last.big
    button = last.small if last.small is not None else last.button
    excluded: dict[int, str] = {}
    # Entrants between the button and the big blind (the small blind's place included) wait.
    for x in seats:
        if x == big:
            continue
        s = by_seat[x]
        if entrant_kind(s) == "in":
            continue
        if x == small or x == button or in_arc(x, button, big, n):
            role = "small" if x == small else ("button" if x == button else None)
            ok, _, why = _terms(rules, s, role, x not in (small, button), False, snap.small_blind, snap.big_blind)
            if not ok:
                excluded[x] = why
    d = [x for x in seats if x not in excluded]
    heads_up = len(d) == 2
    if heads_up:
        other = next(x for x in d if x != big)
        pos = Positions(other, other, big, None)
        roles = {other: "small", big: "big"}
        bad, why = _check(rules, snap, by_seat, clockwise(d, other, n, True), roles, True)
        if bad is not None:
            return None
        return pos, roles, d, excluded, True
    if len(d) < 2:
        return None
    third = _next(d, big, n) if rules.third_blind and len(d) >= 4 else None
    pos = Positions(button, small, big, third)
    roles = _roles(pos, False)
    if small not in d:
        roles.pop(small, None)
    while True:
        bad, why = _check(rules, snap, by_seat, clockwise(d, button, n, True), roles, False)
        if bad is None:
            break
        excluded[bad] = why
        d.remove(bad)
        if len(d) < 2:
            return None
    return pos, roles, d, excluded, False


def describe(plan: HandPlan) -> Sequence[str]:
    """One line per posting, for logs and the audit record."""
    return [f"seat {p.seat} {p.kind} {p.amount}{'' if p.live else ' dead'}" for p in plan.postings]
