"""Seat draw, balancing, breaking tables and the final-table redraw, all from a recorded seed.

Rules (the rule documents of both rooms, and common live practice where they are silent):

* Seats are drawn at random; at each table the button goes to the highest card drawn (one card per
  seat from a shuffled deck; rank first, then suit spades > hearts > diamonds > clubs).
* As players go out, tables are balanced so that no table has more than one player more than
  another: a player chosen at random from the fullest table moves to a random empty seat at the
  shortest table (the documents: "a random player from a full table to a random seat at a short
  one"; they say nothing about the blinds, so the mover is any player at that table).
* A table breaks, in the house's set order, as soon as the players left fit at one table fewer;
  its players are placed one by one (in a random order) on a random empty seat of the shortest
  remaining table.
* The last two tables are not merged before the players left fit the final table
  (``final_table_size``, e.g. 9 players at 10-seat tables): then every remaining player is redrawn,
  random seats at the final table and a fresh card draw for the button (common live practice; the
  documents only say tables are broken as players go out).

Ties the documents leave open, decided here: among equally full tables, the one that breaks soonest
gives the player (its players will have to move anyway); among equally short tables the one that
breaks last receives him (he is less likely to move again).

Exactly how each draw uses the stream (so a dispute can redo it):

* ``draw_seats``: entrants sorted by ``str(id)``; tables in ascending number, seats ascending.
  Each table gets an even share of the field (the lowest-numbered tables take the odd players); for
  each table that is not filled, its seat list is shuffled and the first seats kept (in ascending
  order). The slots are listed table by table, seat by seat; the sorted entrants are shuffled and the
  k-th shuffled entrant takes the k-th slot. Then, table by table, the 52-card deck (2♣ 2♦ 2♥ 2♠
  3♣ ... A♠) is shuffled and its cards dealt from the top, one per occupied seat in ascending order.
* Breaking and balancing use the stream in the order of the moves, as described at ``rebalance``.
"""
from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Literal, Mapping, Optional, Sequence

from ..base import GameInputError
from ..cards import Card
from .cents import check_count
from .draw import Draw, DrawStream, as_draw, card_strength, draw_deck

Player = Hashable


@dataclass(frozen=True)
class SeatAssignment:
    player: Player
    table: int
    seat: int


@dataclass(frozen=True)
class ButtonDraw:
    table: int
    button_seat: int
    cards: tuple[tuple[int, Card], ...]  # (seat, card) in seat order


@dataclass(frozen=True)
class SeatDraw:
    seats: tuple[SeatAssignment, ...]    # table by table, seat by seat
    buttons: tuple[ButtonDraw, ...]      # one per table, ascending table number
    seed_hex: str
    label: str
    stream_numbers_used: int

    def table_of(self, player: Player) -> tuple[int, int]:
        for s in self.seats:
            if s.player == player:
                return s.table, s.seat
        raise KeyError(player)


def _check_players(players: Sequence[Player], what: str) -> list[Player]:
    players = list(players)
    if not players:
        raise GameInputError("{what}: nobody to seat", field=what, what=what)
    keys = [str(p) for p in players]
    if len(set(keys)) != len(keys):
        dup = sorted({k for k in keys if keys.count(k) > 1})
        raise GameInputError("{what}: {players} listed twice", field=what, what=what, players=dup)
    return sorted(players, key=str)


def _even_counts(n: int, capacities: list[int]) -> list[int]:
    """Deal n players round the tables one at a time, skipping full tables: as even as the
    capacities allow, the earlier tables taking the odd players."""
    counts = [0] * len(capacities)
    i = 0
    for _ in range(n):
        while counts[i % len(counts)] >= capacities[i % len(counts)]:
            i += 1
        counts[i % len(counts)] += 1
        i += 1
    return counts


def _button(stream: DrawStream, table: int, seats: Sequence[int]) -> ButtonDraw:
    deck = stream.shuffled(draw_deck())
    dealt = tuple(zip(sorted(seats), deck))
    best = max(dealt, key=lambda sc: card_strength(sc[1]))
    return ButtonDraw(table, best[0], dealt)


def _check_tables(tables: Mapping[int, Sequence[int]]) -> list[tuple[int, list[int]]]:
    out = []
    for table in sorted(tables):
        check_count(table, "table number", 0)
        seats = sorted(tables[table])
        if not seats:
            raise GameInputError("table {table} has no seat", field="tables", table=table)
        for s in seats:
            check_count(s, f"table {table} seat", 0)
        if len(set(seats)) != len(seats):
            raise GameInputError("table {table} lists a seat twice", field="tables", table=table)
        out.append((table, seats))
    if not out:
        raise GameInputError("no table to seat anyone at", field="tables")
    return out


def draw_seats(draw: Draw, entrants: Sequence[Player], tables: Mapping[int, Sequence[int]]) -> SeatDraw:
    """Seat every entrant at random over ``tables`` (table number -> seat numbers open), evenly, and
    draw each table's button. Every table given is used; open fewer tables for a smaller field."""
    stream = as_draw(draw).stream()
    players = _check_players(entrants, "entrants")
    layout = _check_tables(tables)
    capacity = sum(len(seats) for _, seats in layout)
    if len(players) > capacity:
        raise GameInputError("{entrants} entrants but only {seats} seats", field="entrants",
                             entrants=len(players), seats=capacity)
    if len(players) < len(layout):
        raise GameInputError("{entrants} entrants cannot fill {tables} tables: open fewer tables", field="tables",
                             entrants=len(players), tables=len(layout))
    counts = _even_counts(len(players), [len(seats) for _, seats in layout])
    slots = []
    for (table, seats), count in zip(layout, counts):
        kept = seats if count == len(seats) else sorted(stream.shuffled(seats)[:count])
        slots.extend((table, seat) for seat in kept)
    order = stream.shuffled(players)
    assignments = tuple(SeatAssignment(p, t, s) for p, (t, s) in zip(order, slots))
    buttons = []
    for table, _ in layout:
        buttons.append(_button(stream, table, [a.seat for a in assignments if a.table == table]))
    return SeatDraw(assignments, tuple(buttons), stream.draw.seed_hex, stream.draw.label, stream.used)


Tables = Mapping[int, Mapping[int, Player]]  # table -> seat -> player


def _check_layout(tables: Tables, seats_per_table: int) -> dict[int, dict[int, Player]]:
    check_count(seats_per_table, "seats_per_table", 2)
    seen: dict[str, tuple[int, int]] = {}
    out = {}
    for table in sorted(tables):
        check_count(table, "table number", 0)
        row = {}
        for seat, player in tables[table].items():
            check_count(seat, f"table {table} seat", 1)
            if seat > seats_per_table:
                raise GameInputError("table {table} seat {seat}: tables have seats 1..{seats}", field="tables",
                                     table=table, seat=seat, seats=seats_per_table)
            if player is None:
                continue
            key = str(player)
            if key in seen:
                raise GameInputError("player {player} sits at table {table} seat {seat} and at table {table2} "
                                     "seat {seat2}", field="tables", player=key, table=seen[key][0],
                                     seat=seen[key][1], table2=table, seat2=seat)
            seen[key] = (table, seat)
            row[seat] = player
        out[table] = row
    return out


def draw_late_seat(draw: Draw, tables: Tables, seats_per_table: int) -> tuple[int, int]:
    """A late entry's seat: a random empty seat among the tables with the fewest players (the same
    rule as a player moved for balance). Returns (table, seat)."""
    layout = _check_layout(tables, seats_per_table)
    stream = as_draw(draw).stream()
    open_tables = {t: row for t, row in layout.items() if len(row) < seats_per_table}
    if not open_tables:
        raise GameInputError("every table is full: open a new table", field="tables")
    fewest = min(len(row) for row in open_tables.values())
    choices = [(t, s) for t in sorted(open_tables) if len(open_tables[t]) == fewest
               for s in range(1, seats_per_table + 1) if s not in open_tables[t]]
    return stream.pick(choices)


MoveReason = Literal["break", "balance", "final_table"]


@dataclass(frozen=True)
class Move:
    player: Player
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: MoveReason


@dataclass(frozen=True)
class TablePlan:
    moves: tuple[Move, ...]                 # in the order they are made
    broken: tuple[int, ...]                 # tables broken, in order
    final_table: Optional[ButtonDraw]       # set when the final table was drawn
    tables: dict[int, dict[int, Player]]    # the tables after the moves
    stream_numbers_used: int

    @property
    def changed(self) -> bool:
        return bool(self.moves)


def rebalance(draw: Draw, tables: Tables, seats_per_table: int, break_order: Sequence[int],
              final_table_size: int) -> TablePlan:
    """The moves after players went out: break tables, balance, or draw the final table.

    ``tables``: table number -> {seat: player} for every table in play (an empty table is simply
    dropped). ``break_order``: the house's order of breaking, first to break first; every table in
    play must be in it, and the last table of the order still in play hosts the final table.
    ``final_table_size``: how many players sit at the final table (at most ``seats_per_table``).

    Stream use, in order: (1) the final table, when more than one table is in play and the players
    fit it: every remaining player, sorted by (table, seat), is shuffled onto the final table's seats,
    which are drawn like ``draw_seats`` (shuffle seats 1..seats_per_table, keep the first n,
    ascending), then the button card draw. Else (2) if the players fit at fewer tables (but never
    fewer than two: merging the last two is (1)), the first tables of the break order break, as many
    as can; table after table, its players sorted by seat are shuffled and each in turn takes a seat
    picked at random from the empty seats (by table, then seat) of the remaining tables with the
    fewest players. Then (3) while a table has two or more players more than another: a player
    picked at random (by seat) from the fullest table moves to a seat picked at random (ascending)
    at the shortest.
    """
    layout = _check_layout(tables, seats_per_table)
    check_count(final_table_size, "final_table_size", 2)
    if final_table_size > seats_per_table:
        raise GameInputError("a final table of {size} does not fit {seats}-seat tables", field="final_table_size",
                             size=final_table_size, seats=seats_per_table)
    order = list(break_order)
    if len(set(order)) != len(order):
        raise GameInputError("the break order lists a table twice", field="break_order")
    layout = {t: row for t, row in layout.items() if row}
    missing = sorted(set(layout) - set(order))
    if missing:
        raise GameInputError("tables {tables} are in play but not in the break order", field="break_order",
                             tables=missing)
    stream = as_draw(draw).stream()
    moves: list[Move] = []
    broken: list[int] = []
    rank = {t: i for i, t in enumerate(order)}
    in_play = sorted(layout, key=rank.__getitem__)  # first to break first
    players = sum(len(row) for row in layout.values())
    if players == 0:
        raise GameInputError("no player left", field="tables")

    if len(in_play) > 1 and players <= final_table_size:
        final = in_play[-1]
        everyone = [(t, s, layout[t][s]) for t in sorted(layout) for s in sorted(layout[t])]
        seats = sorted(stream.shuffled(range(1, seats_per_table + 1))[:players])
        shuffled = stream.shuffled(everyone)
        new_row = {}
        for (t, s, p), seat in zip(shuffled, seats):
            moves.append(Move(p, t, s, final, seat, "final_table"))
            new_row[seat] = p
        button = _button(stream, final, seats)
        broken = [t for t in in_play if t != final]
        return TablePlan(tuple(moves), tuple(broken), button, {final: new_row}, stream.used)

    # as many tables break as the players allow (never down to one: that is the final table above)
    keep = max(2, -(-players // seats_per_table))
    victims = in_play[:max(0, len(in_play) - keep)]
    kept = [t for t in in_play if t not in victims]
    for victim in victims:
        seated = [(s, layout[victim][s]) for s in sorted(layout[victim])]
        for s, p in stream.shuffled(seated):
            fewest = min(len(layout[t]) for t in kept)
            choices = [(t, seat) for t in sorted(kept) if len(layout[t]) == fewest
                       for seat in range(1, seats_per_table + 1) if seat not in layout[t]]
            t, seat = stream.pick(choices)
            layout[t][seat] = p
            moves.append(Move(p, victim, s, t, seat, "break"))
        del layout[victim]
        broken.append(victim)
    in_play = kept

    while True:
        counts = {t: len(layout[t]) for t in in_play}
        most, least = max(counts.values()), min(counts.values())
        if most - least <= 1:
            break
        source = next(t for t in in_play if counts[t] == most)               # breaks soonest
        target = next(t for t in reversed(in_play) if counts[t] == least)    # breaks last
        seat, player = stream.pick([(s, layout[source][s]) for s in sorted(layout[source])])
        del layout[source][seat]
        to_seat = stream.pick([s for s in range(1, seats_per_table + 1) if s not in layout[target]])
        layout[target][to_seat] = player
        moves.append(Move(player, source, seat, target, to_seat, "balance"))

    return TablePlan(tuple(moves), tuple(broken), None, {t: dict(layout[t]) for t in sorted(layout)}, stream.used)
