"""Dealers on the floor: clocking in and out, who deals at which table, breaks and reliefs, and the
house rotation (``rotation_on_minutes`` at a table, ``rotation_off_minutes`` on a break, through
the tables of ``rotation_tables``).

Where each clocked-in dealer is at any time is one open ``DealerStint`` row (a table, or a break
when ``table_id`` is None); a move closes it and opens the next, never edits the past. The dealer
who logs in at a table's terminal with his PIN takes the table (the one he relieves goes on his
break), and every round opened there is his (``rounds.dealer_id``, set by ``floor.rounds``).

The rotation plan (``board``): each table's dealer is due for relief ``rotation_on_minutes`` after
he sat down; the tables due first are relieved first, each by the dealer who has rested the longest
(ready once he has had ``rotation_off_minutes`` of break). The plan says who relieves whom and when;
the relief happens when the incoming dealer logs in at the table (or the pit moves him).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from floor import audit, notify
from floor.actors import Actor
from floor.errors import BadInput, Conflict, InvalidState, NotFound
from floor.models import DealerShift, DealerStint, Staff, Table
from floor.settings import HouseSettings

LIVE_GAMES = ("baccarat", "roulette", "blackjack", "casino_holdem")


def _dealer(session: Session, staff_id: int) -> Staff:
    s = session.get(Staff, staff_id)
    if s is None or not s.active:
        raise NotFound("no dealer {staff_id}", staff_id=staff_id)
    if s.role != "dealer":
        raise BadInput("{name} is not a dealer", field="staff_id", name=s.name)
    return s


def _shift(session: Session, staff_id: int) -> DealerShift | None:
    return session.execute(select(DealerShift).where(DealerShift.staff_id == staff_id,
                                                     DealerShift.clock_out.is_(None))).scalar_one_or_none()


def _stint(session: Session, staff_id: int) -> DealerStint | None:
    return session.execute(select(DealerStint).where(DealerStint.staff_id == staff_id,
                                                     DealerStint.ended_at.is_(None))).scalar_one_or_none()


def _close(session: Session, stint: DealerStint, at: datetime) -> None:
    session.execute(update(DealerStint).where(DealerStint.id == stint.id, DealerStint.ended_at.is_(None))
                    .values(ended_at=at))


def _open(session: Session, actor: Actor, shift: DealerShift, table_id: int | None, how: str, at: datetime) -> DealerStint:
    st = DealerStint(shift_id=shift.id, staff_id=shift.staff_id, table_id=table_id, started_at=at, how=how, by=actor.name)
    session.add(st)
    try:
        with session.begin_nested():
            session.flush()
    except IntegrityError:
        raise Conflict("another terminal moved this dealer or this table just now", code="rotation_race") from None
    return st


def _changed(session: Session, *table_ids) -> None:
    rooms = [notify.table_room(t) for t in table_ids if t is not None]
    # every dealer terminal: who relieves whom may change with any clock-in (the payload is table ids)
    notify.publish(session, "rotation.changed", {"tables": [t for t in table_ids if t is not None]},
                   "floor", "role:pit_boss", "role:floor_manager", "role:dealer", *rooms)


def clock_in(session: Session, actor: Actor, staff_id: int, at: datetime) -> DealerShift:
    """A dealer starts his shift: he is on a break (available) until he takes a table."""
    d = _dealer(session, staff_id)
    if _shift(session, d.id) is not None:
        raise Conflict("{name} is already clocked in", code="clocked_in", name=d.name)
    shift = DealerShift(staff_id=d.id, clock_in=at, clocked_in_by=actor.name)
    session.add(shift)
    try:
        with session.begin_nested():
            session.flush()
    except IntegrityError:
        raise Conflict("{name} is already clocked in", code="clocked_in", name=d.name) from None
    _open(session, actor, shift, None, "clock_in", at)
    audit.record(session, actor, "dealer.clock_in", f"staff:{d.id}", after={"shift": shift.id}, at=at)
    _changed(session)
    return shift


def clock_out(session: Session, actor: Actor, staff_id: int, at: datetime) -> DealerShift:
    """A dealer ends his shift, from a break (a table needs its relief first)."""
    d = _dealer(session, staff_id)
    shift = _shift(session, d.id)
    if shift is None:
        raise Conflict("{name} is not clocked in", code="not_clocked_in", name=d.name)
    st = _stint(session, d.id)
    if st is not None and st.table_id is not None:
        number = session.get(Table, st.table_id).number
        raise Conflict("{name} deals at table {table}: relieve him first", code="at_a_table", name=d.name, table=number)
    if st is not None:
        _close(session, st, at)
    shift.clock_out, shift.clocked_out_by = at, actor.name
    audit.record(session, actor, "dealer.clock_out", f"staff:{d.id}", after={"shift": shift.id}, at=at)
    _changed(session)
    return shift


def take_table(session: Session, actor: Actor, staff_id: int, table_id: int, at: datetime,
               how: str = "relief") -> DealerStint:
    """``staff_id`` deals at ``table_id`` from now: the dealer there goes on his break. A dealer not
    clocked in is clocked in (he logged in at the table)."""
    d = _dealer(session, staff_id)
    table = session.get(Table, table_id)
    if table is None:
        raise NotFound("no table {table_id}", table_id=table_id)
    if table.status != "open":
        raise InvalidState("table {table} is {status}", code="table_closed", table=table.number, status=table.status)
    shift = _shift(session, d.id) or clock_in(session, actor, d.id, at)
    mine = _stint(session, d.id)
    if mine is not None and mine.table_id == table.id:
        return mine
    there = session.execute(select(DealerStint).where(DealerStint.table_id == table.id,
                                                      DealerStint.ended_at.is_(None))).scalar_one_or_none()
    if mine is not None:
        _close(session, mine, at)
    relieved = None
    if there is not None:
        _close(session, there, at)
        relieved = there.staff_id
        _open(session, actor, session.get(DealerShift, there.shift_id), None, "break", at)
    st = _open(session, actor, shift, table.id, how, at)
    audit.record(session, actor, "dealer.take_table", f"table:{table.id}",
                 before={"dealer": relieved}, after={"dealer": d.id, "how": how}, at=at)
    _changed(session, table.id, mine.table_id if mine is not None else None)
    return st


def go_on_break(session: Session, actor: Actor, staff_id: int, at: datetime) -> DealerStint:
    """The dealer leaves his table without a relief (the table has no dealer until one comes)."""
    d = _dealer(session, staff_id)
    mine = _stint(session, d.id)
    if mine is None:
        raise Conflict("{name} is not clocked in", code="not_clocked_in", name=d.name)
    if mine.table_id is None:
        return mine
    _close(session, mine, at)
    st = _open(session, actor, session.get(DealerShift, mine.shift_id), None, "break", at)
    audit.record(session, actor, "dealer.break", f"staff:{d.id}", before={"table": mine.table_id}, at=at)
    _changed(session, mine.table_id)
    return st


def is_clocked_in(session: Session, staff_id: int) -> bool:
    return _shift(session, staff_id) is not None


@dataclass
class RosterRow:
    id: int
    name: str
    clocked_in: bool


@dataclass
class RotationRow:
    """A table of the rotation: its dealer, when he is due for his break, who relieves him and when."""

    table_id: int
    table: int            # the table's number
    name: str | None
    game: str | None
    dealer_id: int | None
    dealer: str | None
    since: datetime | None
    due_at: datetime | None
    incoming_id: int | None = None
    incoming: str | None = None
    relief_at: datetime | None = None
    over_max: bool = False   # his stint, to the relief planned (or to now), passes rotation_max_on_minutes


@dataclass
class BreakRow:
    dealer_id: int
    dealer: str
    since: datetime
    ready_at: datetime


@dataclass
class Rotation:
    now: datetime
    on_minutes: int
    off_minutes: int
    tables: list[RotationRow]
    breaks: list[BreakRow]
    next_break: list[RotationRow]   # the tables with a dealer, the one due first first
    dealers: list[RosterRow] = field(default_factory=list)
    max_on_minutes: int = 0
    over_max: list[int] = field(default_factory=list)   # tables whose stint passes the maximum


def roster(session: Session) -> list[RosterRow]:
    """Every active dealer, and whether he is clocked in."""
    clocked = set(session.execute(select(DealerShift.staff_id).where(DealerShift.clock_out.is_(None))).scalars())
    return [RosterRow(i, n, i in clocked)
            for i, n in session.execute(select(Staff.id, Staff.name).where(
                Staff.role == "dealer", Staff.active.is_(True)).order_by(Staff.name))]


def current_table(session: Session, staff_id: int) -> int | None:
    """The table the dealer deals at now, if any."""
    st = _stint(session, staff_id)
    return st.table_id if st is not None else None


def current_dealer(session: Session, table_id: int) -> int | None:
    """Who deals at the table now (the staff id), if anyone."""
    return session.execute(select(DealerStint.staff_id).where(DealerStint.table_id == table_id,
                                                              DealerStint.ended_at.is_(None))).scalar()


def rotation_tables(session: Session, house: HouseSettings) -> list[Table]:
    """The tables the rotation runs through, in the house's order (default: every open live game)."""
    wanted = [int(x) for x in house.rotation_tables.replace(" ", "").split(",") if x.isdigit()]
    q = select(Table).where(Table.status == "open")
    q = q.where(Table.number.in_(wanted)) if wanted else q.where(Table.kind.in_(LIVE_GAMES))
    tables = list(session.execute(q).scalars())
    order = {n: i for i, n in enumerate(wanted)}
    return sorted(tables, key=lambda t: (order.get(t.number, 0), t.number))


TOGETHER = timedelta(minutes=5)   # dealers who sat down this close together started their tables at once


def _staggered(rows: list[RotationRow], on: timedelta, off: timedelta, spares: int) -> None:
    """Tables whose dealers all sat down at once (the floor opening) would all be due together and
    relieved one wave of spare dealers at a time, the last waves long after ``on``. Their first breaks
    are spread instead: with ``spares`` dealers resting, the tables go in waves of that many, the
    last wave at ``on`` and each one before it a break earlier (never sooner than an even share of
    ``on``), so a relieved dealer is rested in time for the next wave."""
    if spares < 1:
        return
    groups: list[list[RotationRow]] = []
    for row in sorted((r for r in rows if r.since is not None), key=lambda r: r.since):
        if groups and row.since - groups[-1][0].since <= TOGETHER:
            groups[-1].append(row)
        else:
            groups.append([row])
    for group in groups:
        if len(group) <= spares:
            continue
        group.sort(key=lambda r: (r.since, r.table))   # who sat first breaks first
        waves = -(-len(group) // spares)
        start = group[0].since
        for i, row in enumerate(group):
            w = i // spares
            row.due_at = start + max(on - (waves - 1 - w) * off, on * (w + 1) / waves)


def board(session: Session, house: HouseSettings, now: datetime) -> Rotation:
    """The rotation as the pit and the floor see it: who deals where since when, when he is due for
    his break and who relieves him; who is on a break and from when he is ready. Each relieved dealer
    rests and relieves in turn, so every table of the plan has its next relief; a stint that would
    pass ``rotation_max_on_minutes`` (or has already) is flagged."""
    on, off = timedelta(minutes=house.rotation_on_minutes), timedelta(minutes=house.rotation_off_minutes)
    most = timedelta(minutes=house.rotation_max_on_minutes)
    stints = session.execute(select(DealerStint, Staff.name).join(Staff, Staff.id == DealerStint.staff_id)
                             .where(DealerStint.ended_at.is_(None))).all()
    at_table = {st.table_id: (st, name) for st, name in stints if st.table_id is not None}
    resting = sorted(((st, name) for st, name in stints if st.table_id is None), key=lambda x: x[0].started_at)
    tables = []
    for t in rotation_tables(session, house):
        st, name = at_table.get(t.id, (None, None))
        tables.append(RotationRow(table_id=t.id, table=t.number, name=t.name, game=t.kind,
                                  dealer_id=st.staff_id if st else None, dealer=name,
                                  since=st.started_at if st else None, due_at=st.started_at + on if st else now))
    _staggered(tables, on, off, len(resting))
    # the tables due first get the dealers rested the longest; the dealer a relief frees is rested
    # after his break and relieves the next table due
    pool = [(max(st.started_at + off, now) if st.how == "break" else now, st.staff_id, name) for st, name in resting]
    for row in sorted(tables, key=lambda r: (r.dealer_id is not None, r.due_at)):
        if not pool:
            break
        pool.sort(key=lambda x: x[0])
        ready, staff_id, name = pool.pop(0)
        row.incoming_id, row.incoming, row.relief_at = staff_id, name, max(row.due_at, ready)
        if row.dealer_id is not None:
            pool.append((row.relief_at + off, row.dealer_id, row.dealer))
    for row in tables:
        if row.since is not None:
            row.over_max = (row.relief_at or now) - row.since > most or now - row.since > most
    breaks = [BreakRow(dealer_id=st.staff_id, dealer=name, since=st.started_at,
                       ready_at=st.started_at + off if st.how == "break" else st.started_at)
              for st, name in resting]
    next_break = sorted((r for r in tables if r.dealer_id is not None), key=lambda r: r.due_at)
    return Rotation(now=now, on_minutes=house.rotation_on_minutes, off_minutes=house.rotation_off_minutes,
                    tables=tables, breaks=breaks, next_break=next_break, max_on_minutes=house.rotation_max_on_minutes,
                    over_max=[r.table for r in tables if r.over_max])


def table_dealer(session: Session, table_id: int, house: HouseSettings, now: datetime) -> RotationRow:
    """The table's row of the rotation: its dealer, when he is due, who comes to relieve him."""
    for row in board(session, house, now).tables:
        if row.table_id == table_id:
            return row
    dealer = current_dealer(session, table_id)
    name = session.get(Staff, dealer).name if dealer else None
    table = session.get(Table, table_id)
    return RotationRow(table_id=table_id, table=table.number, name=None, game=None, dealer_id=dealer, dealer=name,
                       since=None, due_at=None)
