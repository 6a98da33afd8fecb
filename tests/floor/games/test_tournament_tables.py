"""Balancing and breaking tables, and the final-table redraw, from a recorded seed."""
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from floor.games.base import GameInputError
from floor.games.tournament import Draw, rebalance

SEED = bytes(range(100, 132))


def seated(counts: dict, seats=9) -> dict:
    """Tables with players named t<table>s<seat> in the first seats."""
    return {t: {s: f"t{t}s{s}" for s in range(1, n + 1)} for t, n in counts.items()}


def sizes(plan) -> dict:
    return {t: len(row) for t, row in plan.tables.items()}


def test_a_full_table_gives_one_player_to_a_short_one():
    tables = seated({1: 9, 2: 6})
    plan = rebalance(Draw(SEED, "bust-12"), tables, 9, [1, 2], 9)
    assert sizes(plan) == {1: 8, 2: 7} and plan.broken == () and plan.final_table is None
    (move,) = plan.moves
    assert move.reason == "balance" and (move.from_table, move.to_table) == (1, 2)
    assert tables[1][move.from_seat] == move.player and move.to_seat in (7, 8, 9)
    assert plan.tables[2][move.to_seat] == move.player


def test_a_table_breaks_when_the_players_fit_at_one_table_fewer():
    tables = seated({1: 7, 2: 6, 3: 5})   # 18 players fit at two 9-seat tables
    plan = rebalance(Draw(SEED, "bust-30"), tables, 9, [3, 1, 2], 9)
    assert plan.broken == (3,) and sizes(plan) == {1: 9, 2: 9}
    assert sorted(m.player for m in plan.moves) == sorted(tables[3].values())
    assert all(m.reason == "break" and m.from_table == 3 for m in plan.moves)
    # one more player would not fit: nothing breaks
    assert rebalance(Draw(SEED, "x"), seated({1: 7, 2: 6, 3: 6}), 9, [3, 1, 2], 9).broken == ()


def test_ties_the_documents_leave_open():
    """Tables 1 and 2 hold 8, tables 3 and 4 hold 6. Break order 2, 4, 1, 3: of the full tables the
    one breaking first (2) gives a player; of the short ones the one breaking last (3) takes him. Then
    table 1 (alone at 8) gives one to table 4: 7, 7, 7, 7."""
    plan = rebalance(Draw(SEED, "bust-40"), seated({1: 8, 2: 8, 3: 6, 4: 6}), 9, [2, 4, 1, 3], 9)
    assert [(m.from_table, m.to_table) for m in plan.moves] == [(2, 3), (1, 4)]
    assert sizes(plan) == {1: 7, 2: 7, 3: 7, 4: 7}


def test_the_final_table_is_redrawn():
    tables = seated({1: 5, 2: 4}, seats=10)
    plan = rebalance(Draw(SEED, "final"), tables, 10, [1, 2], 9)
    assert plan.broken == (1,) and list(plan.tables) == [2]
    assert sorted(plan.tables[2].values()) == sorted(p for row in tables.values() for p in row.values())
    assert all(m.reason == "final_table" and m.to_table == 2 for m in plan.moves) and len(plan.moves) == 9
    button = plan.final_table
    assert button.table == 2 and button.button_seat in plan.tables[2]
    assert [s for s, _ in button.cards] == sorted(plan.tables[2])


def test_ten_left_at_ten_seat_tables_stay_at_two_tables_until_the_final_nine():
    plan = rebalance(Draw(SEED, "ten"), seated({1: 6, 2: 4}, seats=10), 10, [1, 2], 9)
    assert plan.final_table is None and plan.broken == () and sizes(plan) == {1: 5, 2: 5}
    # three tables with ten players: one breaks, two remain
    plan = rebalance(Draw(SEED, "ten"), seated({1: 4, 2: 3, 3: 3}, seats=10), 10, [3, 2, 1], 9)
    assert plan.broken == (3,) and sorted(sizes(plan).values()) == [5, 5]


def test_one_table_left_needs_nothing():
    plan = rebalance(Draw(SEED, "x"), seated({7: 6}), 9, [7], 9)
    assert not plan.changed and plan.tables == seated({7: 6})


def test_the_mover_and_his_new_seat_are_random():
    movers, seats = Counter(), Counter()
    tables = {1: {1: "a", 2: "b", 3: "c", 4: "d", 6: "e", 8: "f", 9: "g"}, 2: {2: "h", 5: "i", 7: "j", 9: "k"}}
    for k in range(400):
        (move,) = rebalance(Draw(SEED, f"b{k}"), tables, 9, [1, 2], 9).moves
        movers[move.player] += 1
        seats[move.to_seat] += 1
    assert set(movers) == set("abcdefg") and min(movers.values()) > 25   # 57 expected each
    assert set(seats) == {1, 3, 4, 6, 8} and min(seats.values()) > 40    # 80 expected each


@pytest.mark.parametrize("args", [
    (seated({1: 5, 2: 5}), 9, [1], 9),                         # table 2 not in the break order
    (seated({1: 5, 2: 5}), 9, [1, 2, 1], 9),                   # listed twice
    (seated({1: 5, 2: 5}), 9, [1, 2], 10),                     # final table larger than a table
    ({1: {1: "a", 2: "a"}, 2: {1: "b"}}, 9, [1, 2], 9),        # a player in two seats
    ({1: {10: "a"}, 2: {1: "b"}}, 9, [1, 2], 9),               # no seat 10
    ({1: {}, 2: {}}, 9, [1, 2], 9),                            # nobody left
])
def test_impossible_layouts_are_refused(args):
    with pytest.raises(GameInputError):
        rebalance(Draw(SEED, "x"), *args)


@st.composite
def layouts(draw):
    seats = draw(st.integers(6, 10))
    n_tables = draw(st.integers(1, 7))
    numbers = draw(st.lists(st.integers(1, 40), min_size=n_tables, max_size=n_tables, unique=True))
    tables = {}
    for t in numbers:
        taken = draw(st.lists(st.integers(1, seats), max_size=seats, unique=True))
        tables[t] = {s: f"p{t}-{s}" for s in taken}
    if not any(tables.values()):
        tables[numbers[0]][1] = f"p{numbers[0]}-1"
    order = draw(st.permutations(numbers))
    final = draw(st.integers(2, seats))
    return tables, seats, list(order), final


@settings(max_examples=300, deadline=None)
@given(layouts(), st.text(min_size=1, max_size=8))
def test_after_the_moves_the_tables_are_balanced_and_nobody_is_lost(layout, label):
    tables, seats, order, final = layout
    plan = rebalance(Draw(SEED, label), tables, seats, order, final)
    assert plan == rebalance(Draw(SEED, label), tables, seats, order, final)   # the same draw, always
    before = {p: (t, s) for t, row in tables.items() for s, p in row.items()}
    after = {p: (t, s) for t, row in plan.tables.items() for s, p in row.items()}
    assert set(before) == set(after) and all(1 <= s <= seats for _, s in after.values())
    n, in_play = len(before), [t for t in order if tables[t]]
    counts = sizes(plan)
    assert all(counts.values()) and max(counts.values()) - min(counts.values()) <= 1
    if plan.final_table:
        assert list(plan.tables) == [in_play[-1]] and n <= final
        assert len(in_play) > 1 and plan.broken == tuple(in_play[:-1])
        return
    # the tables broken are the first of the order, and no fewer tables could hold everyone
    assert plan.broken == tuple(in_play[:len(plan.broken)])
    assert list(plan.tables) == sorted(in_play[len(plan.broken):])
    k = len(plan.tables)
    assert k == 1 or (n > seats * (k - 1) if k > 2 else n > final)
    # the moves, made one after the other, lead from the old tables to the new ones
    current = {t: dict(row) for t, row in tables.items() if row}
    for m in plan.moves:
        assert current[m.from_table].pop(m.from_seat) == m.player
        assert m.to_seat not in current[m.to_table] and m.to_table not in plan.broken
        current[m.to_table][m.to_seat] = m.player
    assert {t: row for t, row in current.items() if row} == plan.tables
    # balancing alone makes no move it does not need
    if not plan.broken:
        q, r = divmod(n, k)
        start = sorted((len(tables[t]) for t in plan.tables), reverse=True)
        needed = sum(max(0, c - (q + 1 if i < r else q)) for i, c in enumerate(start))
        assert len(plan.moves) == needed
