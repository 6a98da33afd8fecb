"""The provably fair seat draw: a recorded seed redoes the same draw forever, and a short script
written from the documentation (below, without the module) redoes it too."""
import hashlib
import hmac
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from floor.games.base import GameInputError
from floor.games.cards import Card
from floor.games.tournament import Draw, card_strength, draw_late_seat, draw_seats

SEED = bytes(range(32))


# --- the dispute script, as the rules document gives it -----------------------------------------
def numbers(seed: bytes, label: str):
    i = 0
    while True:
        mac = hmac.new(seed, f"{label}:{i}".encode(), hashlib.sha256).digest()
        i += 1
        yield int.from_bytes(mac[:8], "big")


def below(stream, n):
    limit = 2**64 - 2**64 % n
    while (u := next(stream)) >= limit:
        pass
    return u % n


def shuffle(stream, items):
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = below(stream, i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def redo_seat_draw(seed, label, entrants, tables):
    s = numbers(seed, label)
    players = sorted(entrants, key=str)
    layout = sorted((t, sorted(seats)) for t, seats in tables.items())
    counts, i = [0] * len(layout), 0           # deal the players round the tables, skipping full ones
    for _ in players:
        while counts[i % len(layout)] == len(layout[i % len(layout)][1]):
            i += 1
        counts[i % len(layout)] += 1
        i += 1
    slots = []
    for (t, seats), c in zip(layout, counts):
        kept = seats if c == len(seats) else sorted(shuffle(s, seats)[:c])
        slots += [(t, seat) for seat in kept]
    seating = {p: slot for p, slot in zip(shuffle(s, players), slots)}
    deck = [r + u for r in "23456789TJQKA" for u in "CDHS"]  # 2C 2D 2H 2S 3C ... AS
    buttons = {}
    for t, _ in layout:
        cards = dict(zip(sorted(seat for tt, seat in seating.values() if tt == t), shuffle(s, deck)))
        buttons[t] = max(cards, key=lambda seat: deck.index(cards[seat]))
    return seating, buttons
# ------------------------------------------------------------------------------------------------


def as_dicts(result):
    return ({a.player: (a.table, a.seat) for a in result.seats}, {b.table: b.button_seat for b in result.buttons})


def test_the_same_seed_gives_the_same_draw_forever():
    """Pinned draw for seed 00 01 02 .. 1f, label 'seat-draw', six players at table 4 (seats 1-6):
    the numbers come from the script above, so a change to the module that moved a player fails here."""
    result = draw_seats(Draw(SEED, "seat-draw"), ["ann", "bob", "cy", "dan", "eve", "fay"], {4: range(1, 7)})
    assert as_dicts(result) == redo_seat_draw(SEED, "seat-draw", ["ann", "bob", "cy", "dan", "eve", "fay"],
                                              {4: range(1, 7)})
    assert as_dicts(result) == ({"ann": (4, 1), "eve": (4, 2), "fay": (4, 3), "dan": (4, 4), "bob": (4, 5),
                                 "cy": (4, 6)}, {4: 1})
    # seat 1 drew 9H and seat 3 9C: equal rank, hearts above clubs, so the button is seat 1
    assert [str(c) for _, c in result.buttons[0].cards] == ["9H", "4S", "9C", "2H", "2D", "2S"]
    assert result.seed_hex == SEED.hex() and result.label == "seat-draw"
    again = draw_seats(Draw(SEED.hex(), "seat-draw"), ["fay", "eve", "dan", "cy", "bob", "ann"], {4: [6, 5, 4, 3, 2, 1]})
    assert again == result  # hex seed, entrants and seats in any order: the same draw


@settings(max_examples=60, deadline=None)
@given(seed=st.binary(min_size=16, max_size=48), label=st.text(min_size=1, max_size=20),
       n=st.integers(1, 40), tables=st.lists(st.integers(6, 10), min_size=1, max_size=5))
def test_the_documented_script_redoes_every_draw(seed, label, n, tables):
    layout = {10 + k: range(1, size + 1) for k, size in enumerate(tables)}
    if n < len(layout) or n > sum(tables):
        with pytest.raises(GameInputError):
            draw_seats(Draw(seed, label), [f"p{i}" for i in range(n)], layout)
        return
    entrants = [f"p{i}" for i in range(n)]
    result = draw_seats(Draw(seed, label), entrants, layout)
    assert as_dicts(result) == redo_seat_draw(seed, label, entrants, layout)


def test_the_field_is_spread_evenly_and_every_seat_is_used_once():
    result = draw_seats(Draw(SEED, "d"), range(100, 120), {1: range(1, 10), 2: range(1, 10), 3: range(1, 10)})
    per_table = Counter(a.table for a in result.seats)
    assert sorted(per_table.values()) == [6, 7, 7]
    assert len({(a.table, a.seat) for a in result.seats}) == 20 == len({a.player for a in result.seats})
    # a six-seat table among nine-seat ones fills up; the others share the rest evenly
    result = draw_seats(Draw(SEED, "d"), range(22), {1: range(1, 7), 2: range(1, 10), 3: range(1, 10)})
    assert Counter(a.table for a in result.seats) == {1: 6, 2: 8, 3: 8}


def test_the_button_goes_to_the_highest_card_spades_above_hearts():
    assert card_strength(Card.parse("AS")) > card_strength(Card.parse("AH")) > card_strength(Card.parse("AD")) \
        > card_strength(Card.parse("AC")) > card_strength(Card.parse("KS")) > card_strength(Card.parse("2C"))
    for k in range(30):
        result = draw_seats(Draw(SEED, f"b{k}"), range(17), {1: range(1, 10), 2: range(1, 10)})
        for b in result.buttons:
            seats = sorted(a.seat for a in result.seats if a.table == b.table)
            assert [s for s, _ in b.cards] == seats
            cards = [c for _, c in b.cards]
            assert len(set(cards)) == len(cards)
            top = max(cards, key=lambda c: (c.rank, "CDHS".index(c.suit)))
            assert dict(b.cards)[b.button_seat] == top


def test_every_player_is_equally_likely_on_every_seat():
    """1800 recorded seeds, nine players at one table: each player lands on each seat 200 times on
    average; a fair draw keeps every count well inside 130..270 (over 5 standard deviations)."""
    seat_counts, button_counts = Counter(), Counter()
    for k in range(1800):
        result = draw_seats(Draw(k.to_bytes(16, "big"), "seat-draw"), range(9), {1: range(1, 10)})
        seat_counts.update((a.player, a.seat) for a in result.seats)
        button_counts[result.buttons[0].button_seat] += 1
    assert len(seat_counts) == 81 and all(130 < c < 270 for c in seat_counts.values())
    assert len(button_counts) == 9 and all(130 < c < 270 for c in button_counts.values())


def test_labels_and_seeds_keep_draws_apart():
    players, tables = range(18), {1: range(1, 10), 2: range(1, 10)}
    a = draw_seats(Draw(SEED, "seat-draw"), players, tables)
    assert draw_seats(Draw(SEED, "seat-draw-2"), players, tables).seats != a.seats
    assert draw_seats(Draw(bytes(32), "seat-draw"), players, tables).seats != a.seats


@pytest.mark.parametrize("call", [
    lambda: draw_seats(Draw(SEED, "x"), ["a", "b", "a"], {1: range(1, 10)}),
    lambda: draw_seats(Draw(SEED, "x"), range(11), {1: range(1, 11)}),
    lambda: draw_seats(Draw(SEED, "x"), range(2), {1: range(1, 10), 2: range(1, 10), 3: range(1, 10)}),
    lambda: draw_seats(Draw(SEED, "x"), [], {1: range(1, 10)}),
    lambda: draw_seats(Draw(SEED, "x"), range(3), {}),
    lambda: draw_seats(Draw(SEED, "x"), range(3), {1: [1, 1, 2]}),
    lambda: Draw(bytes(8), "x"),
    lambda: Draw("not hex", "x"),
    lambda: Draw(SEED, ""),
    lambda: Draw(12345, "x"),
])
def test_bad_draws_are_refused(call):
    with pytest.raises(GameInputError):
        call()


def test_a_late_entry_sits_at_a_shortest_table():
    tables = {1: {1: "a", 2: "b", 3: "c"}, 2: {1: "d", 5: "e"}, 3: {2: "f", 3: "g"}}
    seen = {draw_late_seat(Draw(SEED, f"late-{k}"), tables, 6) for k in range(300)}
    assert seen == {(2, s) for s in (2, 3, 4, 6)} | {(3, s) for s in (1, 4, 5, 6)}
    with pytest.raises(GameInputError):
        draw_late_seat(Draw(SEED, "late"), {1: {s: s for s in range(1, 7)}}, 6)
