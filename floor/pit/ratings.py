"""Player ratings, exact: per player and visit, what he played, staked, won or lost and what the
house expected to win from him, from the settled bets and the ledger alone.

- **Whose bet**: a bet funded by a player's balance is his; a seat bet (the chips on the table) is
  the player identified at that seat when it was placed (``floor.pit.visits``). A seat bet with
  nobody identified is nobody's and is not rated.
- **Which bets**: the bets of settled rounds (a voided round staked nothing in the end).
- **Visits**: a player's bets at one table, in time order, split where the seat visit changes or
  where no bet came for more than ``rating_gap_minutes``. A visit starts when he was identified at
  the seat (when that is within the gap of his first bet; else at his first bet) and ends when he
  left (likewise; else when his last round's result came).
- **Actual win/loss**: per bet, what the ledger moved between the bet's account and the table, the
  stake, the payouts, the commission and any pit boss's correction together. ``won`` is the
  player's result (the house's is its opposite).
- **Theoretical win**: Σ stake x house edge of the bet's kind under the table's rules
  (``floor.games.edges``), summed exactly and rounded once, half up, to the cent. Blackjack's and
  Casino Hold'em's edges are per initial bet (the box, the ante), so the doubles, splits and calls
  they lead to add stake but no theoretical win of their own.
- **Entered by hand**: the rounds of a visit whose result the dealer keyed (the table played on
  without its device, ``floor.rounds.hand``) are rated like the others and counted apart
  (``hand_rounds``), so a rating resting on them says so.
"""
from __future__ import annotations

import io
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from fractions import Fraction
from functools import lru_cache
from operator import itemgetter

from sqlalchemy import and_, case, func, literal_column, or_, select, tuple_, type_coerce
from sqlalchemy.types import NullType
from sqlalchemy.orm import Session

from floor import spreadsheet
from floor.gaming_day import gaming_day_bounds
from floor.games.edges import house_edge, theo_cents
from floor.models import Bet, Player, PlayerVisit, Round, RoundEvent, Shoe, Table, Transfer
from floor.rounds import hand
from floor.rounds.table_rules import TableRules, table_rules
from floor.settings import HouseSettings

# Bets whose edge is counted on the initial bet they follow from.
FOLLOW_ON = {"blackjack": ("double", "split"), "casino_holdem": ("call",)}
EDGE_BET = {"blackjack": {"bet": "main", "insurance": "insurance"}}


@lru_cache(maxsize=256)
def _edge(kind: str, spot: str, decks: int, rules: TableRules) -> Fraction:
    if spot in FOLLOW_ON.get(kind, ()):
        return Fraction(0)
    if kind == "roulette":
        return house_edge("roulette", spot, rules.roulette)
    if kind == "baccarat":
        return house_edge("baccarat", spot, rules.baccarat, decks=decks)
    if kind == "blackjack":
        return house_edge("blackjack", EDGE_BET["blackjack"][spot], rules.blackjack, decks=decks)
    return house_edge("casino_holdem", spot, rules.casino_holdem)


def bet_edge(kind: str, spot: str, house: HouseSettings, decks: int | None = None) -> Fraction:
    """The house edge of one bet: its game (``kind``), its spot, the table's rules (the house's game
    rules and commission, the shoe's decks; the house's deck count when the round had no shoe)."""
    if decks is None:
        decks = house.baccarat_decks if kind == "baccarat" else house.blackjack_decks if kind == "blackjack" else 0
    return _edge(kind, spot, decks, table_rules(house))


@dataclass
class Visit:
    player_id: int
    table_id: int
    seat: int | None
    started_at: datetime
    ended_at: datetime
    rounds: set = field(default_factory=set)
    bets: int = 0
    staked: int = 0
    won: int = 0                                            # the player's result, from the ledger
    by_bet: dict = field(default_factory=lambda: defaultdict(int))   # (game, spot, decks) -> stake
    hand_rounds: set = field(default_factory=set)          # its rounds whose result was entered by hand
    house: HouseSettings = field(kw_only=True, repr=False)   # the table rules the edges come from

    @property
    def theo(self) -> Fraction:
        return _theo(self.by_bet, self.house)

    @property
    def round_count(self) -> int:
        return len(self.rounds)

    @property
    def hand_round_count(self) -> int:
        return len(self.hand_rounds)

    @property
    def seconds(self) -> float:
        return (self.ended_at - self.started_at).total_seconds()

    @property
    def minutes(self) -> float:
        return minutes(self.seconds)

    @property
    def average_stake(self) -> int:
        """Cents per round, rounded half up."""
        return average(self.staked, len(self.rounds))

    @property
    def house_result(self) -> int:
        return -self.won

    @property
    def theo_cents(self) -> int:
        return theo_cents(self.theo)


def average(staked: int, rounds: int) -> int:
    """Cents per round, rounded half up (never truncated: 7 of 11 players were a cent low)."""
    return (2 * staked + rounds) // (2 * rounds) if rounds else 0


def minutes(seconds: float) -> float:
    """Time played as shown: minutes to one decimal, rounded once from the exact seconds, so a
    total is the rounded sum of its visits' seconds, never the sum of rounded minutes."""
    return round(seconds / 60, 1)


@dataclass(frozen=True)
class RatedVisit:
    """A rated visit with whom and where: the player's name and card, the table's number, name and game."""

    visit: Visit
    player: str
    card_number: str
    table_number: int
    table_name: str
    game: str


def _raw(col, dialect: str):
    """A timestamp column read as naive UTC without the ORM's type processing (50,000 of them
    through it cost more than the whole query): PostgreSQL converts it, SQLite gives its stored text."""
    if dialect == "postgresql":
        return func.timezone("UTC", col)
    return type_coerce(col, NullType())


def _naive(value) -> datetime | None:
    if value is None or isinstance(value, datetime):
        return value
    return datetime.fromisoformat(value)


def _aware(value: datetime) -> datetime:
    return value.replace(tzinfo=timezone.utc)


def _utc_naive(value: datetime | None) -> datetime | None:
    return None if value is None else value.astimezone(timezone.utc).replace(tzinfo=None)


def _bet_rows(session: Session, start: datetime, end: datetime, player_id: int | None,
              only: tuple[list, list] | None = None):
    """One row per bet of a settled round placed in [start, end): its id, who funded it, where, the
    stake, the rules, when, and what the ledger moved between its account and the table (stake
    included). ``only``: the bets of these (player, table) from his balance and of these (table, seat)."""
    in_period = (Round.status == "settled", Bet.placed_at >= start, Bet.placed_at < end)
    dialect = session.get_bind().dialect.name
    # per bet, what the ledger moved to (+) and from (-) its account: its transfers joined and summed
    # in the same pass (a grouped subquery joined back cost SQLite and PostgreSQL a third more)
    net = func.coalesce(func.sum(case((Transfer.to_account_id == Bet.account_id, Transfer.amount),
                                      (Transfer.from_account_id == Bet.account_id, -Transfer.amount),
                                      else_=0)), 0)
    q = (select(Bet.player_id, Bet.table_id, Bet.seat, Bet.round_id, Round.kind, Bet.spot, Bet.amount,
                _raw(Bet.placed_at, dialect), _raw(func.coalesce(Round.result_at, Round.ended_at), dialect),
                Shoe.decks, net, Bet.id)
         .join(Round, Round.id == Bet.round_id)
         .outerjoin(Shoe, Shoe.id == Round.shoe_id)
         .outerjoin(Transfer, Transfer.bet_id == Bet.id)
         .where(*in_period)
         .group_by(Bet.id, Round.id, Shoe.id))
    if player_id is not None:
        seats = select(PlayerVisit.table_id, PlayerVisit.seat).where(PlayerVisit.player_id == player_id)
        q = q.where(or_(Bet.player_id == player_id,
                        and_(Bet.player_id.is_(None), tuple_(Bet.table_id, Bet.seat).in_(seats))))
    if only is not None:
        balance, places = only
        q = q.where(or_(tuple_(Bet.player_id, Bet.table_id).in_(balance),
                        and_(Bet.player_id.is_(None), tuple_(Bet.table_id, Bet.seat).in_(places))))
    # through the connection: plain tuples, without the ORM's per-row work (a third of the time)
    return session.connection().execute(q).all()


def _seat_visits(session: Session, start: datetime, end: datetime) -> dict[tuple, list]:
    """(table, seat) -> its visits overlapping [start, end): (started, ended or None, id, player,
    table, seat)."""
    out: dict[tuple, list] = defaultdict(list)
    for v in session.execute(select(PlayerVisit.table_id, PlayerVisit.seat, PlayerVisit.started_at,
                                    PlayerVisit.ended_at, PlayerVisit.id, PlayerVisit.player_id)
                             .where(PlayerVisit.started_at < end,
                                    or_(PlayerVisit.ended_at.is_(None), PlayerVisit.ended_at > start))
                             .order_by(PlayerVisit.started_at, PlayerVisit.id)):
        out[(v.table_id, v.seat)].append((_utc_naive(v.started_at), _utc_naive(v.ended_at), v.id, v.player_id,
                                          v.table_id, v.seat))
    return out


def _in_order(vs) -> list[Visit]:
    return sorted(vs, key=lambda v: (v.started_at, v.player_id, v.table_id))


def visits(session: Session, start: datetime, end: datetime, house: HouseSettings,
           player_id: int | None = None) -> list[Visit]:
    """Every rated visit with a bet placed in [start, end), in time order."""
    return _in_order(v for vs_ in _visit_groups(session, start, end, house, player_id).values() for v in vs_)


def _visit_groups(session: Session, start: datetime, end: datetime, house: HouseSettings,
                  player_id: int | None = None, only: set[tuple] | None = None,
                  seats: dict[tuple, list] | None = None, read: dict | None = None) -> dict[tuple, list[Visit]]:
    """(player, table) -> his rated visits there, of the bets placed in [start, end). ``only``: of
    these (player, table) alone (``seats``: the period's seat visits when the caller has them).
    ``read`` counts the bet rows read."""
    gap = timedelta(minutes=house.rating_gap_minutes)
    if seats is None:
        seats = _seat_visits(session, start, end)
    mine: dict[tuple, list] = defaultdict(list)      # (table, player) -> his seat visits
    for vs_ in seats.values():
        for v in vs_:
            mine[(v[4], v[3])].append(v)
    wanted = None
    if only is not None:                         # his balance's bets and those of the seats he sat at
        wanted = ([list(k) for k in sorted(only)],
                  sorted({(v[4], v[5]) for k in only for v in mine.get((k[1], k[0]), ())}))
    decks_of = {"baccarat": house.baccarat_decks, "blackjack": house.blackjack_decks}
    by_place: dict[tuple, list] = defaultdict(list)
    # what a round gives each of its bets (its end, its game and decks) worked out once per round,
    # each distinct time once: 50,000 bets come from a few thousand rounds
    of_round: dict[int, tuple] = {}
    times: dict = {}
    rows_read = _bet_rows(session, start, end, player_id, wanted)
    if read is not None:
        read["bets"] = read.get("bets", 0) + len(rows_read)
    for pid, table_id, seat, round_id, kind, spot, amount, placed, done, decks, net, bet_id in rows_read:
        at = times.get(placed)
        if at is None:
            at = times[placed] = _naive(placed)
        r = of_round.get(round_id)
        if r is None:
            r = of_round[round_id] = (_naive(done), kind, decks or decks_of.get(kind, 0))
        visit = None
        if pid is None:                           # a seat bet: the player identified there then
            visit = _covering(seats.get((table_id, seat), ()), at)
            pid = visit[3] if visit is not None else None
            if pid is None:
                continue
        else:                                     # from his balance: his seat visit at this table, if any
            his = mine.get((table_id, pid))
            visit = _covering(his, at) if his else None
        if player_id is not None and pid != player_id:
            continue
        if only is not None and (pid, table_id) not in only:
            continue
        by_place[(pid, table_id)].append((at, bet_id, r[0] or at, visit, seat, round_id, (r[1], spot, r[2]), amount,
                                          int(net)))
    groups: dict[tuple, list[Visit]] = {}
    for (pid, table_id), rows in by_place.items():
        rows.sort(key=itemgetter(0, 1))         # in time order, a tie in the order the bets came
        out = groups[(pid, table_id)] = []
        cur: Visit | None = None
        last_visit = None
        for placed, _, done, visit, seat, round_id, bet, amount, net in rows:
            if cur is None or visit is not last_visit or placed - ended > gap:
                if cur is not None:
                    cur.ended_at = ended
                    _finish(cur, last_visit, gap)
                    out.append(cur)
                begin = visit[0] if visit is not None and placed - visit[0] <= gap else placed
                if cur is not None and cur.ended_at > begin:
                    begin = placed
                cur = Visit(pid, table_id, visit[5] if visit is not None else seat, begin, placed,
                            house=house)   # naive UTC until done
                ended, rounds, by_bet = placed, cur.rounds, cur.by_bet
                last_visit = visit
            rounds.add(round_id)
            cur.bets += 1
            cur.staked += amount
            cur.won += net
            by_bet[bet] += amount
            if done > ended:
                ended = done
        cur.ended_at = ended
        _finish(cur, last_visit, gap)
        out.append(cur)
    keyed = hand.by_hand_ids(session, {rid for vs_ in groups.values() for v in vs_ for rid in v.rounds})
    for vs_ in groups.values():
        for v in vs_:
            v.started_at, v.ended_at = _aware(v.started_at), _aware(v.ended_at)
            v.hand_rounds = v.rounds & keyed
    return groups


def _covering(seat_visits, placed: datetime):
    for v in seat_visits:
        if v[0] <= placed and (v[1] is None or placed < v[1]):
            return v
    return None


def _finish(v: Visit, visit, gap: timedelta) -> None:
    left = visit[1] if visit is not None else None
    if left is not None and v.ended_at <= left <= v.ended_at + gap:
        v.ended_at = left


def day_visits(session: Session, day: date, house: HouseSettings, player_id: int | None = None) -> list[Visit]:
    start, end = gaming_day_bounds(day, house.timezone, house.gaming_day_rollover)
    return visits(session, start, end, house, player_id)


# The day's visits as the pit's pages and API read them, kept per gaming day and brought up to date
# on every read from what changed since the last one (see ``day_visits_once``).
_DAY_CACHE: dict[tuple, "_Day"] = {}
_DAY_CACHE_SIZE = 8
# the records followed by their ids, in the order of the marks: never edited (a visit's end aside,
# which is followed through the visits still open)
_MARKED = (Bet, Transfer, PlayerVisit, RoundEvent)
CATCH_UP_MAX = 5_000     # more new records than this since the last read: the day is computed whole
GAP_WINDOW = 1_000       # PostgreSQL, first read: the ids below the marks looked at for gaps
# How the last read went: "how" (cached | incremental | full), the bet rows it read ("bets") and the
# (player, table) it computed again ("places"). The tests hold the incremental read to its players.
LAST_READ: dict = {}


@dataclass(frozen=True)
class _Day:
    fp: tuple                         # the highest id of each of _MARKED, the count of ended visits
    marks: tuple                      # per _MARKED, the highest id read
    gaps: tuple                       # per _MARKED, {id below its mark not seen yet: the xmax it waits for}
    open_visits: frozenset            # the day's visits not ended when read
    groups: dict                      # (player, table) -> his visits there
    visits: list


def _fingerprint(session: Session) -> tuple[tuple, int | None]:
    """The highest ids of the followed records and the count of ended visits; on PostgreSQL also the
    oldest transaction still running (the snapshot's xmin)."""
    conn = session.connection()
    cols = [select(func.max(m.id)).scalar_subquery() for m in _MARKED]
    cols.append(select(func.count(PlayerVisit.ended_at)).scalar_subquery())
    pg = conn.dialect.name == "postgresql"
    if pg:
        cols.append(literal_column("pg_snapshot_xmin(pg_current_snapshot())::text::bigint"))
    row = conn.execute(select(*cols)).one()
    return tuple(x or 0 for x in row[:5]), (row[5] if pg else None)


def _xmax(session: Session) -> int:
    return session.connection().execute(select(
        literal_column("pg_snapshot_xmax(pg_current_snapshot())::text::bigint"))).scalar_one()


def day_visits_once(session: Session, day: date, house: HouseSettings) -> list[Visit]:
    """``day_visits`` for readers (pages, API), kept up to date from what changed. Every read checks
    the fingerprint; when it moved, only the new records are read (bets above the last one read,
    bets with a new transfer or a new round event, visits started or ended) and the visits of the
    players they touch computed again at those tables. Whole again on the first read of a day, when
    records disappeared, or when too much changed to be worth following. Not for a session holding
    changes of its own it has not committed."""
    key = (str(session.get_bind().url), day, house.timezone, house.gaming_day_rollover, house.rating_gap_minutes,
           house.baccarat_decks, house.blackjack_decks, house.baccarat_commission_percent)
    fp, xmin = _fingerprint(session)
    state = _DAY_CACHE.get(key)
    if state is not None and state.fp == fp and not any(state.gaps):
        LAST_READ.clear()
        LAST_READ.update(how="cached", bets=0, places=0)
        return state.visits
    start, end = gaming_day_bounds(day, house.timezone, house.gaming_day_rollover)
    read: dict = {}
    new = None
    if (state is not None and all(f >= m for f, m in zip(fp, state.marks)) and fp[4] >= state.fp[4]
            and sum(f - m for f, m in zip(fp, state.marks)) <= CATCH_UP_MAX):
        new = _catch_up(session, state, start, end, house, fp, xmin, read)
    how = "incremental" if new is not None else "full"
    if new is None:
        read.clear()
        new = _whole(session, start, end, house, fp, read)
    if key not in _DAY_CACHE and len(_DAY_CACHE) >= _DAY_CACHE_SIZE:
        _DAY_CACHE.pop(next(iter(_DAY_CACHE)))
    _DAY_CACHE[key] = new
    LAST_READ.clear()
    LAST_READ.update(how=how, bets=read.get("bets", 0), places=read.get("places", 0))
    return new.visits


def _whole(session: Session, start: datetime, end: datetime, house: HouseSettings, fp: tuple, read: dict) -> _Day:
    # the marks are the fingerprint read before the records: whatever came after is read next time
    seats = _seat_visits(session, start, end)
    groups = _visit_groups(session, start, end, house, seats=seats, read=read)
    read["places"] = len(groups)
    gaps: list[dict] = [{} for _ in _MARKED]
    if session.get_bind().dialect.name == "postgresql":
        # PostgreSQL commits in any order: an id below a mark not visible yet may still come
        xmax = None
        for i, m in enumerate(_MARKED):
            low = max(0, fp[i] - GAP_WINDOW)
            seen = set(session.connection().execute(select(m.id).where(m.id > low, m.id <= fp[i])).scalars())
            missing = set(range(low + 1, fp[i] + 1)) - seen
            if missing:
                xmax = xmax or _xmax(session)
                gaps[i] = dict.fromkeys(missing, xmax)
    return _Day(fp, tuple(fp[:4]), tuple(gaps), _open(seats), groups, _in_order(v for vs_ in groups.values() for v in vs_))


def _open(seats: dict) -> frozenset:
    return frozenset(v[2] for vs_ in seats.values() for v in vs_ if v[1] is None)


def _catch_up(session: Session, state: _Day, start: datetime, end: datetime, house: HouseSettings, fp: tuple,
              xmin: int | None, read: dict) -> _Day | None:
    """The day brought up to date from what changed since ``state``; None: compute it whole."""
    conn = session.connection()
    dialect = conn.dialect.name
    marks, gaps = list(state.marks), [dict(g) for g in state.gaps]

    def since(i: int, *cols, also=()):
        m = _MARKED[i]
        cond = [m.id > marks[i], *also]
        if gaps[i]:
            cond.append(m.id.in_(sorted(gaps[i])))
        return conn.execute(select(m.id, *cols).where(or_(*cond))).all()

    transfers = since(1, Transfer.bet_id)
    events = since(3, RoundEvent.round_id)
    started = since(2, PlayerVisit.player_id, PlayerVisit.table_id, PlayerVisit.seat)
    ended = conn.execute(select(PlayerVisit.id, PlayerVisit.player_id, PlayerVisit.table_id, PlayerVisit.seat)
                         .where(PlayerVisit.id.in_(sorted(state.open_visits)), PlayerVisit.ended_at.is_not(None))
                         ).all() if state.open_visits else []
    # the new bets, and those a transfer (settled, corrected, voided) or a round event touched
    bet_ids = sorted({b for _, b in transfers if b is not None})
    round_ids = sorted({r for _, r in events if r is not None})
    bets = since(0, Bet.player_id, Bet.table_id, Bet.seat, _raw(Bet.placed_at, dialect),
                 also=([Bet.id.in_(bet_ids)] if bet_ids else []) + ([Bet.round_id.in_(round_ids)] if round_ids else []))
    fresh_gaps = False
    for i, ids in enumerate(([b[0] for b in bets if b[0] > marks[0] or b[0] in gaps[0]], [t[0] for t in transfers],
                             [v[0] for v in started], [e[0] for e in events])):
        fresh_gaps |= _advance(marks, gaps, i, ids)
    if dialect == "postgresql":
        # a gap waits for the transactions running when it was seen; once they all ended (the
        # oldest running now is younger) it was looked up again above, after they ended: it is none
        for g in gaps:
            for gid in [gid for gid, waits in g.items() if waits is not None and xmin is not None and waits <= xmin]:
                del g[gid]
        if fresh_gaps:
            xmax = _xmax(session)
            for g in gaps:
                for gid, waits in g.items():
                    if waits is None:
                        g[gid] = xmax
    else:                                # SQLite writes one transaction at a time: a gap is none
        gaps = [{} for _ in _MARKED]
    seats = _seat_visits(session, start, end)
    places: set[tuple] = set()
    seat_places = set()
    for _, pid, table_id, seat in [*ended, *(v[:4] for v in started)]:
        places.add((pid, table_id))
        seat_places.add((table_id, seat))
    for place in seat_places:             # a seat's bets may change hands: everyone who sat there
        places.update((v[3], v[4]) for v in seats.get(place, ()))
    lo, hi = _utc_naive(start), _utc_naive(end)
    for _, pid, table_id, seat, placed in bets:
        at = _naive(placed)
        if not lo <= at < hi:
            continue
        if pid is None:
            v = _covering(seats.get((table_id, seat), ()), at)
            if v is None:
                continue
            pid = v[3]
        places.add((pid, table_id))
    if len(places) > max(50, len(state.groups) // 2):
        return None                      # most of the day changed hands: as cheap whole
    groups, vs = state.groups, state.visits
    if places:
        groups = {k: v for k, v in state.groups.items() if k not in places}
        groups.update(_visit_groups(session, start, end, house, only=places, seats=seats, read=read))
        vs = _in_order(v for vs_ in groups.values() for v in vs_)
    read["places"] = len(places)
    return _Day(fp, tuple(marks), tuple(gaps), _open(seats), groups, vs)


def _advance(marks: list, gaps: list, i: int, ids: list[int]) -> bool:
    """Move mark ``i`` past the ids read; the ids skipped below it become gaps (True if any)."""
    old, g = marks[i], gaps[i]
    for x in ids:
        g.pop(x, None)
    top = max((x for x in ids if x > old), default=old)
    missing = set(range(old + 1, top + 1)).difference(ids)
    for x in missing:
        g[x] = None
    marks[i] = top
    return bool(missing)


def _names(session: Session, ids) -> dict[int, tuple[str, str]]:
    ids = sorted(set(ids))
    if not ids:
        return {}
    return {i: (n, c) for i, n, c in session.execute(select(Player.id, Player.name, Player.card_number)
                                                     .where(Player.id.in_(ids)))}


def _tables(session: Session) -> dict[int, tuple[int, str, str]]:
    return {i: (n, name, k) for i, n, name, k in session.execute(select(Table.id, Table.number, Table.name, Table.kind))}


def rated(session: Session, vs: list[Visit]) -> list[RatedVisit]:
    names, tables = _names(session, (v.player_id for v in vs)), _tables(session)
    out = []
    for v in vs:
        n, card = names.get(v.player_id, ("", ""))
        number, tname, kind = tables[v.table_id]
        out.append(RatedVisit(v, n, card, number, tname, kind))
    return out


# The edges by (game, spot, decks) of the last house settings seen: the pit's reads all pass the
# app's one HouseSettings, and hashing it (its game rules) for every bet kind cost more than the sums.
_EDGES: tuple = (None, {})


def _edges(house: HouseSettings) -> dict:
    global _EDGES
    last = _EDGES
    if last[0] is not house:
        last = _EDGES = (house, {})
    return last[1]


def _theo(by_bet: dict, house: HouseSettings) -> Fraction:
    """Σ stake x edge, exact: summed as integers per denominator, then as fractions."""
    edges, per_denominator = _edges(house), defaultdict(int)
    for key, stake in by_bet.items():
        edge = edges.get(key)
        if edge is None:
            edge = edges[key] = bet_edge(key[0], key[1], house, key[2])
        per_denominator[edge.denominator] += edge.numerator * stake
    return sum((Fraction(n, d) for d, n in per_denominator.items()), Fraction(0))


def players_of_day(session: Session, day: date, house: HouseSettings, limit: int | None = None,
                   vs: list[Visit] | None = None) -> dict:
    """Every rated player of the gaming day, the highest theoretical win first ("top players"), from
    the day's visits (``vs`` when the caller has them already)."""
    if vs is None:
        vs = day_visits(session, day, house)
    per: dict[int, dict] = {}
    stakes: dict[int, dict] = defaultdict(lambda: defaultdict(int))
    for v in vs:
        p = per.setdefault(v.player_id, {"player_id": v.player_id, "visits": 0, "seconds": 0.0, "rounds": 0,
                                         "hand_rounds": 0, "bets": 0, "staked": 0, "won": 0, "tables": set()})
        p["visits"] += 1
        p["hand_rounds"] += len(v.hand_rounds)
        p["seconds"] += (v.ended_at - v.started_at).total_seconds()
        p["rounds"] += len(v.rounds)
        p["bets"] += v.bets
        p["staked"] += v.staked
        p["won"] += v.won
        p["tables"].add(v.table_id)
        for bet, stake in v.by_bet.items():
            stakes[v.player_id][bet] += stake
    names, tables = _names(session, per), _tables(session)
    rows, all_stakes = [], defaultdict(int)
    for pid, p in per.items():
        for bet, stake in stakes[pid].items():
            all_stakes[bet] += stake
        seconds = p.pop("seconds")
        rows.append({**p, "player": names[pid][0], "card_number": names[pid][1], "minutes": minutes(seconds),
                     "tables": sorted(tables[t][0] for t in p["tables"]), "house_result": -p["won"],
                     "average_stake": average(p["staked"], p["rounds"]),
                     "theo": theo_cents(_theo(stakes[pid], house))})
    rows.sort(key=lambda r: (-r["theo"], -r["staked"], r["player"]))
    total = {"players": len(rows), "staked": sum(r["staked"] for r in rows), "won": sum(r["won"] for r in rows),
             "theo": theo_cents(_theo(all_stakes, house))}
    return {"day": day.isoformat(), "currency": house.currency, "players": rows[:limit] if limit else rows,
            "totals": total}


def player_history(session: Session, player_id: int, since: datetime, until: datetime,
                   house: HouseSettings) -> dict:
    """A player's visits in [since, until), newest first, and their totals (the theoretical win
    summed exactly, rounded once)."""
    vs = visits(session, since, until, house, player_id)
    rows = list(reversed(rated(session, vs)))
    totals = {k: sum(getattr(v, k) for v in (r.visit for r in rows)) for k in ("bets", "staked", "won")}
    totals.update(rounds=sum(r.visit.round_count for r in rows), visits=len(rows),
                  hand_rounds=sum(r.visit.hand_round_count for r in rows),
                  minutes=minutes(sum(r.visit.seconds for r in rows)),
                  theo=theo_cents(sum((v.theo for v in vs), Fraction(0))))
    return {"since": since.isoformat(), "visits": rows, "totals": totals}


COLUMNS = [("player", "Player"), ("card_number", "Card"), ("table_number", "Table"), ("game", "Game"),
           ("seat", "Seat"), ("started_at", "Started"), ("ended_at", "Ended"), ("minutes", "Minutes"),
           ("rounds", "Rounds"), ("bets", "Bets"), ("staked", "Staked"), ("average_stake", "Average stake"),
           ("won", "Player won"), ("theo", "Theoretical win"), ("hand_rounds", "Rounds entered by hand")]
MONEY = {"staked", "average_stake", "won", "theo"}


def _cell(key: str, value) -> str:
    if value is None:
        return ""
    if key in MONEY:
        sign = "-" if value < 0 else ""
        return f"{sign}{abs(value) // 100}.{abs(value) % 100:02d}"
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)


def _value(r: RatedVisit, key: str):
    """A column of the visit: the rated visit's own (who, where) or the visit's (what he played)."""
    key = {"rounds": "round_count", "theo": "theo_cents", "hand_rounds": "hand_round_count"}.get(key, key)
    return getattr(r if hasattr(r, key) else r.visit, key)


def to_csv(rows: list[RatedVisit]) -> str:
    """One row per visit; money in the house currency with two decimals."""
    buf = io.StringIO()
    w = spreadsheet.writer(buf)
    w.writerow([label for _, label in COLUMNS])
    for r in rows:
        w.writerow([_cell(k, _value(r, k)) for k, _ in COLUMNS])
    return buf.getvalue()
