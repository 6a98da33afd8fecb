"""Table-driven tests of floor.poker.blinds: one row per case of docs/rules.md, "Missed blinds and re-entry",
each run under every policy setting (bern, online_network, swiss_online) with what that policy expects.

Blinds are 2.00 / 5.00 (200 / 500 cents); the straddle and the third blind are 10.00.

Seat tokens: ``4`` a player in the game; suffixes: ``a`` away, ``n`` new player, ``t`` table change,
``m`` must-move arrival, ``r`` rebuy after an all-in, ``f`` seat change far from the button,
``s`` seat change near the button, ``w`` chose to wait for the big blind, ``b`` back from a sit-out;
``:s,b,t`` the blinds he missed (small, big, third) since he last played.
"""
from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from floor.errors import InvalidState
from floor.poker.blinds import (
    Positions,
    Rules,
    SeatState,
    Snapshot,
    blinds_passed,
    in_arc,
    owed,
    plan_hand,
    seat_change_distance,
)

POLICIES = ("bern", "online_network", "swiss_online")
SB, BB = 200, 500
ARRIVAL = {"n": "new", "t": "table_change", "m": "must_move", "r": "rebuy", "f": "seat_change", "s": "seat_change"}
MISS = {"s": "small", "b": "big", "t": "third"}


def seat(token: str) -> SeatState:
    token, _, missed = token.partition(":")
    digits = "".join(c for c in token if c.isdigit())
    flags = token[len(digits):]
    number = int(digits)
    arrival = next((ARRIVAL[f] for f in flags if f in ARRIVAL), "new")
    entering = any(f in ARRIVAL for f in flags)
    missed = frozenset(MISS[m] for m in missed.split(",") if m)
    return SeatState(seat=number, player_id=100 + number, away="a" in flags,
                     dealt_before=not entering, returning=bool(missed) or "b" in flags, missed=missed,
                     arrival=arrival, far_seat_change="f" in flags, wait_for_bb="w" in flags)


def snapshot(seats: str, last, seat_count: int = 9, **kw) -> Snapshot:
    return Snapshot(seat_count, SB, BB, tuple(seat(t) for t in seats.split()),
                    last=None if last is None else Positions(*last), **kw)


def postings(plan) -> str:
    order = ["small_blind", "big_blind", "third_blind", "straddle", "entry", "dead_small", "dead_big"]
    rows = sorted(plan.postings, key=lambda p: (p.seat, order.index(p.kind)))
    return "; ".join(f"{p.seat} {p.kind} {p.amount}" for p in rows)


def misses(plan) -> str:
    return "; ".join(f"{m.seat} {m.blind}{' ticket' if m.ticket else ''}" for m in plan.misses)


def waiting(plan) -> list[int]:
    return [s.seat for s in plan.seats if s.status == "waiting"]


def check_invariants(snap: Snapshot, plan) -> None:
    away = {s.seat for s in snap.seats if s.away}
    # Nobody posts for an absent player, and nobody away is dealt in.
    assert not away & {p.seat for p in plan.postings}
    assert not away & set(plan.dealt)
    assert len(plan.dealt) >= 2
    # Every posting is from a player dealt in; every dealt-in seat is occupied.
    assert {p.seat for p in plan.postings} <= set(plan.dealt)
    assert set(plan.dealt) <= {s.seat for s in snap.seats}
    # At most one small and one big blind.
    assert sum(p.kind == "small_blind" for p in plan.postings) <= 1
    assert sum(p.kind == "big_blind" for p in plan.postings) == 1
    assert all(p.amount > 0 for p in plan.postings)


# --- (name, seats, last hand's (button, small, big[, third]), rules, expectations per policy) --------
# An expectation: pos (button, small, big), post (postings), wait (seats present but not dealt in),
# miss (blinds missed by away players this hand). "*" applies to every policy not listed.
CASES = [
    ("moving button over empty seats",
     "1 2 4 6 8", (1, 2, 4), {},
     {"*": dict(pos=(2, 4, 6), post="4 small_blind 200; 6 big_blind 500", wait=[], miss="")}),
    ("heads-up: the button posts the small blind and acts first",
     "2 5", (5, 5, 2), {},
     {"*": dict(pos=(2, 2, 5), post="2 small_blind 200; 5 big_blind 500", wait=[], miss="", first=2)}),
    ("heads-up with a third player away: the small blind passes him",
     "1 4a 6", (1, 1, 6), {},
     {"*": dict(pos=(6, 6, 1), post="1 big_blind 500; 6 small_blind 200", wait=[], miss="4 small ticket")}),
    ("the big blind passes an away player: a ticket, nobody posts for him",
     "1 2 3 4a 5 6", (1, 2, 3), {},
     {"*": dict(pos=(2, 3, 5), post="3 small_blind 200; 5 big_blind 500", wait=[], miss="4 big ticket")}),
    ("the small blind passes an away player who was big blind last hand",
     "1 2 3a 4 5", (1, 2, 3), {},
     {"*": dict(pos=(2, 4, 5), post="4 small_blind 200; 5 big_blind 500", wait=[], miss="3 small ticket")}),
    ("two players away: both blinds jump over both, one ticket each per blind",
     "1 2 3a 4a 5 6", (6, 1, 2), {},
     {"*": dict(pos=(1, 2, 5), post="2 small_blind 200; 5 big_blind 500", wait=[], miss="3 big ticket; 4 big ticket")}),
    ("two players away: the small blind follows the big one over them",
     "1 2 3a 4a 5 6", (1, 2, 5), {},
     {"*": dict(pos=(2, 5, 6), post="5 small_blind 200; 6 big_blind 500", wait=[],
                miss="3 small ticket; 4 small ticket")}),
    ("the button passes an away player who already missed his blinds: no new ticket",
     "1 2 3a:s,b 4", (2, 4, 1), {},
     {"*": dict(pos=(4, 1, 2), post="1 small_blind 200; 2 big_blind 500", wait=[], miss="")}),
    ("tickets only for the big blind (house setting)",
     "1 2 3a 4 5", (1, 2, 3), {"tickets_on": "big_blind"},
     {"*": dict(pos=(2, 4, 5), post="4 small_blind 200; 5 big_blind 500", wait=[], miss="3 small")}),
    ("dead button: the big-blind player left, so no small blind this hand",
     "1 2 4 5", (1, 2, 3), {"dead_button": True},
     {"*": dict(pos=(2, 3, 4), post="4 big_blind 500", wait=[], miss="", dead_small=True)}),
    ("dead button: the button lands on an empty seat",
     "1 2 4 5", (2, 3, 4), {"dead_button": True},
     {"*": dict(pos=(3, 4, 5), post="4 small_blind 200; 5 big_blind 500", wait=[], miss="", dead_button=True)}),
    ("dead button: the small blind's player is away: nobody posts it for him, he misses it",
     "1 2 3a 4 5", (1, 2, 3), {"dead_button": True},
     {"*": dict(pos=(2, 3, 4), post="4 big_blind 500", wait=[], miss="3 small ticket", dead_small=True)}),
    ("dead button: the big blind passes an away player",
     "1 2 3 4a 5", (1, 2, 3), {"dead_button": True},
     {"*": dict(pos=(2, 3, 5), post="3 small_blind 200; 5 big_blind 500", wait=[], miss="4 big ticket")}),
    ("dead button: a new player reached by the big blind takes it",
     "1 2 3 4n 5 6", (1, 2, 3), {"dead_button": True},
     {"*": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500", wait=[])}),
    ("dead button: a new player on the button's seat waits, the button is dead",
     "1 2n 3 4 5", (1, 2, 3), {"dead_button": True},
     {"*": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500", wait=[2], dead_button=True)}),
    ("dead button: a returning player between the button and the big blind waits",
     "1 2 3b:s,b 4 5 6", (1, 2, 4), {"dead_button": True},
     {"*": dict(pos=(2, 4, 5), post="4 small_blind 200; 5 big_blind 500", wait=[3])}),

    # --- coming back: 004 "Missed Blind", 002 "missed blinds policy", 000 returning from a sit-out ----
    ("missed both blinds, back off the blinds",
     "1 2 3 4 5 6b:s,b", (1, 2, 3), {},
     {"*": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500; 6 entry 500; 6 dead_small 200", wait=[])}),
    ("missed both blinds, back in the big blind",
     "1 2 3 4b:s,b 5 6", (1, 2, 3), {},
     {"bern": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500; 4 dead_small 200", wait=[]),
      "online_network": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500; 4 dead_small 200", wait=[]),
      "swiss_online": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500", wait=[])}),
    ("missed both blinds, lands in the small blind: may not enter there",
     "1 2 3b:s,b 4 5 6", (1, 2, 3), {},
     {"*": dict(pos=(2, 4, 5), post="4 small_blind 200; 5 big_blind 500", wait=[3])}),
    ("missed both blinds, chose to wait for the big blind",
     "1 2 3 4 5 6wb:s,b", (1, 2, 3), {},
     {"*": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500", wait=[6])}),
    ("missed only the small blind, back off the blinds",
     "1 2 3 4 5 6b:s", (1, 2, 3), {},
     {"bern": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500", wait=[6]),
      "online_network": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500; 6 dead_small 200", wait=[]),
      "swiss_online": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500", wait=[])}),
    ("missed only the small blind, back in the big blind",
     "1 2 3 4b:s 5 6", (1, 2, 3), {},
     {"bern": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500; 4 dead_small 200", wait=[]),
      "online_network": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500; 4 dead_small 200", wait=[]),
      "swiss_online": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500", wait=[])}),
    ("missed only the big blind (dead button), back off the blinds",
     "1 2 3 4 5 6b:b", (1, 2, 3), {},
     {"bern": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500; 6 entry 500", wait=[]),
      "online_network": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500; 6 entry 500", wait=[]),
      "swiss_online": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500; 6 entry 500; 6 dead_small 200",
                       wait=[])}),
    ("missed small, big and the third blind (third blind played)",
     "1 2 3 4 5 6 7b:s,b,t", (1, 2, 3, 4), {"third_blind": True},
     {"online_network": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500; 5 third_blind 1000; "
                                           "7 entry 1000; 7 dead_small 200; 7 dead_big 500", wait=[]),
      "*": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500; 5 third_blind 1000; "
                                    "7 entry 500; 7 dead_small 200", wait=[])}),
    ("away a hand without his big blind passing, back in the small blind",
     "1 2 3b 4 5 6", (1, 2, 3), {},
     {"*": dict(pos=(2, 4, 5), post="4 small_blind 200; 5 big_blind 500", wait=[3])}),
    ("away a hand without his big blind passing, back off the blinds: no extra",
     "1 2 3 4 5 6b", (1, 2, 3), {},
     {"*": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500", wait=[])}),
    ("new player off the blinds posts a big blind",
     "1 2 3 4 5 6n", (1, 2, 3), {},
     {"*": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500; 6 entry 500", wait=[])}),
    ("new player waits for the big blind",
     "1 2 3 4 5 6nw", (1, 2, 3), {},
     {"*": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500", wait=[6])}),
    ("new player in the big blind just posts it",
     "1 2 3 4nw 5 6", (1, 2, 3), {},
     {"*": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500", wait=[])}),
    ("new player never enters in the small blind",
     "1 2 3n 4 5 6", (1, 2, 3), {},
     {"*": dict(pos=(2, 4, 5), post="4 small_blind 200; 5 big_blind 500", wait=[3])}),
    ("new player where the button would go: the button skips him, he posts and plays before it",
     "1 2n 3 4 5 6", (1, 3, 4), {},
     {"*": dict(pos=(3, 4, 5), post="2 entry 500; 4 small_blind 200; 5 big_blind 500", wait=[])}),
    ("table change is a new player",
     "1 2 3 4 5 6t", (1, 2, 3), {},
     {"*": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500; 6 entry 500", wait=[])}),
    ("seat change more than three occupied seats from the button: big live, small dead",
     "1 2 3 4 5 6f", (1, 2, 3), {},
     {"*": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500; 6 entry 500; 6 dead_small 200", wait=[])}),
    ("seat change far from the button, waiting for the big blind, takes it with nothing more",
     "1 2 3 4fw 5 6", (1, 2, 3), {},
     {"*": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500", wait=[])}),
    ("seat change close to the button plays on",
     "1 2 3 4 5 6s", (1, 2, 3), {},
     {"*": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500", wait=[])}),
    ("must-move arrival plays at once without a blind",
     "1 2 3 4 5 6m", (1, 2, 3), {},
     {"*": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500", wait=[])}),
    ("must-move arrival in the small blind waits",
     "1 2 3m 4 5 6", (1, 2, 3), {},
     {"*": dict(pos=(2, 4, 5), post="4 small_blind 200; 5 big_blind 500", wait=[3])}),
    ("must-move arrival on the button waits",
     "1 2m 3 4 5 6", (1, 3, 4), {},
     {"*": dict(pos=(3, 4, 5), post="4 small_blind 200; 5 big_blind 500", wait=[2])}),
    ("must-move arrival in the big blind posts just it",
     "1 2 3 4m 5 6", (1, 2, 3), {},
     {"*": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500", wait=[])}),
    ("rebuy after an all-in with no blind missed is dealt in at once",
     "1 2 3 4 5 6r", (1, 2, 3), {},
     {"*": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500", wait=[])}),
    ("heads-up with a new player: he takes the big blind, the other the button",
     "3 7n", (3, 5, 3), {},
     {"*": dict(pos=(3, 3, 7), post="3 small_blind 200; 7 big_blind 500", wait=[])}),
    ("straddle: the seat after the big blind posts two big blinds and acts last",
     "1 2 3 4 5 6", (1, 2, 3), {"_straddle": True},
     {"*": dict(pos=(2, 3, 4), post="3 small_blind 200; 4 big_blind 500; 5 straddle 1000", wait=[], first=6)}),
    ("first hand of a game: everyone at the table is dealt in, nobody owes",
     "2 4n 6f 8a", None, {"_button_at": 4},
     {"*": dict(pos=(4, 6, 2), post="2 big_blind 500; 6 small_blind 200", wait=[], miss="")}),
]


def _cases():
    for name, seats, last, extra, expect in CASES:
        for policy in POLICIES:
            exp = expect.get(policy, expect.get("*"))
            yield pytest.param(policy, seats, last, extra, exp, id=f"{policy}: {name}")


@pytest.mark.parametrize("policy,seats,last,extra,exp", list(_cases()))
def test_blind_rules_table(policy, seats, last, extra, exp):
    extra = dict(extra)
    snap_kw = {}
    if extra.pop("_straddle", False):
        snap_kw["straddle"] = True
    if "_button_at" in extra:
        snap_kw["button_at"] = extra.pop("_button_at")
    snap = snapshot(seats, last, **snap_kw)
    plan = plan_hand(snap, Rules(policy=policy, **extra))
    check_invariants(snap, plan)
    assert (plan.positions.button, plan.positions.small, plan.positions.big) == exp["pos"]
    assert postings(plan) == exp["post"]
    assert waiting(plan) == exp["wait"]
    if "miss" in exp:
        assert misses(plan) == exp["miss"]
    if "first" in exp:
        assert plan.first_to_act == exp["first"]
    assert plan.dead_small == exp.get("dead_small", False)
    assert plan.dead_button == exp.get("dead_button", False)


# --- what an away player owes if he comes back now (shown on the terminal) ---------------------------
OWED = [
    # missed, policy -> (live, dead small, dead big, must wait for the big blind)
    ("s,b", "bern", (500, 200, 0, False)),
    ("s,b", "online_network", (500, 200, 0, False)),
    ("s,b", "swiss_online", (500, 200, 0, False)),
    ("s", "bern", (0, 200, 0, True)),
    ("s", "online_network", (0, 200, 0, False)),
    ("s", "swiss_online", (0, 0, 0, False)),
    ("s,b,t", "online_network", (1000, 200, 500, False)),
    ("s,b,t", "bern", (500, 200, 0, False)),
    ("s,b,t", "swiss_online", (500, 200, 0, False)),
    ("", "bern", (0, 0, 0, False)),
    ("", "online_network", (0, 0, 0, False)),
    ("", "swiss_online", (0, 0, 0, False)),
]


@pytest.mark.parametrize("missed,policy,expected", OWED, ids=[f"{p} missed [{m}]" for m, p, _ in OWED])
def test_what_a_returning_player_owes(missed, policy, expected):
    s = seat(f"5a:{missed}" if missed else "5ab")
    o = owed(Rules(policy=policy), s, SB, BB)
    assert (o.live, o.dead_small, o.dead_big, o.wait_for_bb) == expected
    assert o.reason


@pytest.mark.parametrize("policy", POLICIES)
def test_new_player_owes_a_big_blind_under_every_policy(policy):
    o = owed(Rules(policy=policy), seat("5n"), SB, BB)
    assert (o.live, o.dead) == (500, 0)


def test_seat_change_distance_counts_occupied_active_seats_clockwise_from_the_button():
    active = [1, 2, 4, 6, 8, 9]
    assert seat_change_distance(1, active, 2, 9) == 1       # the small blind's place
    assert seat_change_distance(1, active, 4, 9) == 2
    assert seat_change_distance(1, active, 7, 9) == 4       # 2, 4, 6 between, then his own
    assert seat_change_distance(8, active, 3, 9) == 4       # 9, 1, 2 between, then seat 3 (wraps)
    assert seat_change_distance(None, active, 3, 9) == 0


def test_arcs_wrap_around_the_table():
    assert in_arc(1, 8, 2, 9) and in_arc(9, 8, 2, 9) and in_arc(2, 8, 2, 9)
    assert not in_arc(8, 8, 2, 9) and not in_arc(5, 8, 2, 9)
    assert not in_arc(4, 4, 4, 9)
    assert blinds_passed(Positions(1, 2, 3), Positions(3, 5, 7), 4, 9) == ["small", "big"]


def test_fewer_than_two_players_cannot_start_a_hand():
    with pytest.raises(InvalidState):
        plan_hand(snapshot("1 2a", (1, 1, 2)), Rules())
    with pytest.raises(InvalidState):
        plan_hand(snapshot("1a 3 5a", (1, 1, 3)), Rules(dead_button=True))
    # Heads-up, a player waiting for the big blind gets it at once.
    plan = plan_hand(snapshot("1 3nw", (1, 1, 3)), Rules(policy="bern"))
    assert (plan.positions.button, plan.positions.big) == (1, 3)


# --- several hands in a row: the state carried from one plan to the next ------------------------------

def play(snap: Snapshot, rules: Rules, hands: int, back_at: dict | None = None):
    """Deal ``hands`` hands, carrying misses and dealt-in state forward as the service does.
    ``back_at``: {hand index: seat} players who come back before that hand. Returns the plans."""
    seats = {s.seat: s for s in snap.seats}
    last = snap.last
    plans = []
    for i in range(hands):
        for number in (back_at or {}).get(i, []):
            seats[number] = replace(seats[number], away=False)
        cur = replace(snap, seats=tuple(seats[k] for k in sorted(seats)), last=last, button_at=None)
        plan = plan_hand(cur, rules)
        check_invariants(cur, plan)
        plans.append(plan)
        for sp in plan.seats:
            s = seats[sp.seat]
            if sp.status == "dealt":
                seats[sp.seat] = replace(s, dealt_before=True, returning=False, missed=frozenset(),
                                         far_seat_change=False, wait_for_bb=False, arrival="new")
            elif sp.status == "away":
                passed = {m.blind for m in plan.misses if m.seat == sp.seat}
                seats[sp.seat] = replace(s, missed=s.missed | passed, returning=True)
        last = plan.positions
    return plans


@pytest.mark.parametrize("dead_button", [False, True])
@pytest.mark.parametrize("policy", POLICIES)
def test_an_away_player_collects_a_ticket_per_blind_and_owes_on_return(policy, dead_button):
    snap = snapshot("1 2 3 4a 5 6", (1, 2, 3))
    rules = Rules(policy=policy, dead_button=dead_button)
    plans = play(snap, rules, 7, back_at={6: [4]})
    tickets = [m for p in plans for m in p.misses if m.seat == 4 and m.ticket]
    # One orbit of five players: his big blind passes, then his small blind, then the big again.
    assert [m.blind for m in tickets][:2] == ["big", "small"]
    assert len(tickets) == 3
    # He comes back before hand 7 (index 6); what he posts follows the policy.
    back = plans[6]
    mine = [p for p in back.postings if p.seat == 4]
    role = back.seat(4).role
    if back.seat(4).status == "dealt" and role is None:
        assert [(p.kind, p.amount) for p in mine] == [("entry", 500), ("dead_small", 200)]
    assert all(p.seat != 4 for p in plans[5].postings)


@pytest.mark.parametrize("policy", POLICIES)
def test_the_big_blind_never_skips_a_present_player_over_an_orbit(policy):
    snap = snapshot("1 3 4 6 7 9", (9, 1, 3))
    plans = play(snap, Rules(policy=policy), 12)
    bigs = [p.positions.big for p in plans]
    assert bigs == [4, 6, 7, 9, 1, 3] * 2


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_random_tables_keep_the_invariants(data):
    n = data.draw(st.integers(2, 10))
    occupied = data.draw(st.lists(st.integers(1, n), min_size=2, max_size=n, unique=True))
    seats = []
    for number in occupied:
        flags = data.draw(st.sampled_from(["", "a", "n", "nw", "m", "r", "f", "s", "b", "a:s", "a:s,b", "b:s,b",
                                           "b:s", "b:b", "fw", "b:s,b,t"]))
        seats.append(seat(f"{number}{flags}"))
    last_btn = data.draw(st.sampled_from(occupied))
    last = Positions(last_btn, data.draw(st.integers(1, n)), data.draw(st.integers(1, n)))
    rules = Rules(policy=data.draw(st.sampled_from(POLICIES)), dead_button=data.draw(st.booleans()),
                  third_blind=data.draw(st.booleans()))
    snap = Snapshot(n, SB, BB, tuple(seats), last=last)
    try:
        plan = plan_hand(snap, rules)
    except InvalidState:
        return
    check_invariants(snap, plan)
    # Nobody entering is dealt in on the small blind.
    for p in plan.postings:
        if p.kind == "small_blind":
            s = snap.seat(p.seat)
            assert s.dealt_before or s.arrival in ("rebuy", "seat_change")
