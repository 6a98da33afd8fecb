"""Game pace at the live-game tables: rounds an hour per table, game, dealer and hour of the day
against the house's target range per game, live and for a gaming day, and the alert when a table
keeps running below its target.

A round counts when it got its result (its ``result_at``): voided rounds and rounds still running
are not rounds played. The live pace of a table is its rolling rate over the last
``pace_window_minutes``; a table that played no round in that window is idle (a break, no players),
not slow. The arithmetic is ``floor.games.pace``'s.
"""
from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import and_, func, select
from sqlalchemy.orm import Session

from floor import alerts
from floor.actors import Actor
from floor.errors import Msg
from floor.gaming_day import gaming_day_bounds
from floor.games import pace
from floor.pit import shift
from floor.models import Alert, Round, Staff, Table
from floor.settings import HouseSettings

LIVE_GAMES = ("baccarat", "roulette", "blackjack", "casino_holdem")
ALERT = "pace_below_target"


def targets(house: HouseSettings) -> dict[str, tuple[int, int]]:
    """The house's target range of rounds an hour, per game."""
    return {g: (getattr(house, f"pace_{g}_min"), getattr(house, f"pace_{g}_max")) for g in LIVE_GAMES}


def _times(session: Session, start: datetime, end: datetime, table_ids=None) -> dict[int, list[tuple]]:
    """table -> (result time, dealer) of the rounds played in [start, end), in time order."""
    q = (select(Round.table_id, Round.result_at, Round.dealer_id)
         .where(Round.status == "settled", Round.result_at >= start, Round.result_at < end)
         .order_by(Round.result_at))
    if table_ids is not None:
        q = q.where(Round.table_id.in_(table_ids))
    out: dict[int, list] = defaultdict(list)
    for table_id, at, dealer in session.execute(q):
        out[table_id].append((at, dealer))
    return out


def _status(rate: float, lo: int, hi: int, rounds: int) -> str:
    if rounds == 0:
        return "idle"
    return "below" if rate < lo else "above" if rate > hi else "on_target"


def _slow_since(times: list[datetime], lo: int, now: datetime, house: HouseSettings,
                began=None) -> datetime | None:
    """When the table's rolling pace last went below ``lo`` and stayed there until now (or None).
    A table's pace is judged only once a whole window of play lies behind it: the minutes before
    its play began (``began(times)``, the first round after a gap of a window) are not slow play."""
    window = timedelta(minutes=house.pace_window_minutes)
    look = timedelta(minutes=house.pace_alert_minutes) + window
    series = pace.rate_series(times, window, timedelta(minutes=1), now - look, now)
    spans = pace.below_target(series, lo, 0, until=now)
    if not (spans and spans[-1].end == now and series[-1][1] < lo):
        return None
    since = spans[-1].start
    start = began(times) if began else None
    if start is not None:
        since = max(since, start + window)
    return since if since < now else None


def _play_began(session: Session, table_id: int, times: list[datetime], window: timedelta) -> datetime | None:
    """The first round of the table's present run of play: the last round with no round in the window
    before it (None when play runs back further than that)."""
    for i in range(len(times) - 1, 0, -1):
        if times[i] - times[i - 1] >= window:
            return times[i]
    if not times:
        return None
    before = session.execute(select(func.max(Round.result_at)).where(
        Round.table_id == table_id, Round.status == "settled", Round.result_at < times[0])).scalar()
    if before is not None and before.tzinfo is None:
        before = before.replace(tzinfo=times[0].tzinfo)
    return times[0] if before is None or times[0] - before >= window else None


def live(session: Session, house: HouseSettings, now: datetime) -> list[dict]:
    """Every open live-game table's pace now: its rolling rate, the target, and since when it has
    been below the target."""
    window = timedelta(minutes=house.pace_window_minutes)
    look = window + timedelta(minutes=house.pace_alert_minutes)
    tables = list(session.execute(select(Table).where(Table.kind.in_(LIVE_GAMES), Table.status == "open")
                                  .order_by(Table.number)).scalars())
    # one window more than the look: whether play ran before it, and the early rates over whole windows
    times = _times(session, now - look - window, now + timedelta(microseconds=1), [t.id for t in tables])
    tg = targets(house)
    out = []
    for t in tables:
        ts = [at for at, _ in times.get(t.id, [])]
        lo, hi = tg[t.kind]
        recent = pace.rounds_in(ts, now - window, now + timedelta(microseconds=1))
        rate = recent / (window / timedelta(hours=1))
        status = _status(rate, lo, hi, recent)
        since = _slow_since(ts, lo, now, house, lambda x, t=t: _play_began(session, t.id, x, window)) \
            if status == "below" else None
        out.append({"table_id": t.id, "table": t.number, "name": t.name, "game": t.kind, "rate": round(rate, 1),
                    "rounds": recent, "window_minutes": house.pace_window_minutes, "target_min": lo,
                    "target_max": hi, "status": status, "below_since": since.isoformat() if since else None})
    return out


def check(session: Session, house: HouseSettings, now: datetime) -> list[Alert]:
    """Raise the pit's alert for each table below its target for ``pace_alert_minutes`` or more
    (once per slow spell: not again while an alert of that spell is open or since it was raised)."""
    raised = []
    for row in live(session, house, now):
        if row["below_since"] is None:
            continue
        since = datetime.fromisoformat(row["below_since"])
        minutes = (now - since) / timedelta(minutes=1)
        if minutes < house.pace_alert_minutes:
            continue
        already = session.execute(select(Alert.id).where(
            Alert.kind == ALERT, Alert.table_id == row["table_id"],
            and_(Alert.at >= since) | Alert.acknowledged_at.is_(None)).limit(1)).first()
        if already:
            continue
        msg = Msg("Table {table} has run at {rate} rounds an hour for {minutes} minutes, below its target of {target}",
                  table=row["table"], rate=int(row["rate"]), minutes=int(minutes), target=row["target_min"])
        raised.append(alerts.raise_alert(session, Actor.system("pace"), ALERT, msg, table_id=row["table_id"],
                                         data={"rate": row["rate"], "target_min": row["target_min"],
                                               "target_max": row["target_max"], "below_since": row["below_since"],
                                               "window_minutes": row["window_minutes"]}, at=now))
    return raised


def _run(ts: list[datetime]) -> tuple[int, float]:
    """A run of rounds without a break: (rounds after the first, hours from the first to the last).
    The first round's own time is not seen (only its result), so a run of n rounds measures n - 1
    rounds over its span: 37 results 100 s apart are 36 rounds an hour."""
    return (len(ts) - 1, (ts[-1] - ts[0]) / timedelta(hours=1)) if len(ts) > 1 else (0, 0.0)


def _stints(rows: list[tuple], gap: timedelta) -> list[tuple[object, list[datetime]]]:
    """A table's rounds cut into runs of one dealer without a break longer than ``gap``."""
    runs: list[tuple[object, list[datetime]]] = []
    for at, dealer in rows:
        if runs and runs[-1][0] == dealer and at - runs[-1][1][-1] <= gap:
            runs[-1][1].append(at)
        else:
            runs.append((dealer, [at]))
    return runs


def day(session: Session, day_: date, house: HouseSettings, now: datetime, step_minutes: int = 15) -> dict:
    """The gaming day's pace: per table (rounds, hours played, rounds an hour against the target,
    the rolling rate through the day and the rounds per clock hour, for the charts), per game and per
    dealer. Hours played are the runs of one dealer's rounds without a break longer than the pace
    window; a run's rate is its rounds after the first over its span (``_run``)."""
    start, end = gaming_day_bounds(day_, house.timezone, house.gaming_day_rollover)
    end = min(end, max(now, start + timedelta(minutes=1)))
    tables = list(session.execute(select(Table).where(Table.kind.in_(LIVE_GAMES)).order_by(Table.number)).scalars())
    times = _times(session, start, end)
    tg = targets(house)
    window, step = timedelta(minutes=house.pace_window_minutes), timedelta(minutes=step_minutes)
    zone = ZoneInfo(house.timezone)
    per_table = []
    per_game: dict[str, list] = defaultdict(lambda: [0, 0, 0.0])      # rounds, rounds measured, hours
    per_dealer: dict[tuple, list] = defaultdict(lambda: [0, 0, 0.0])
    for t in tables:
        rows = times.get(t.id, [])
        ts = [at for at, _ in rows]
        lo, hi = tg[t.kind]
        runs = _stints(rows, window)
        counted = [_run(run) for _, run in runs]
        hours = sum(h for _, h in counted)
        rate = sum(n for n, _ in counted) / hours if hours else 0.0
        series, by_hour = [], defaultdict(int)
        if ts:
            first = ts[0].replace(minute=ts[0].minute // step_minutes * step_minutes, second=0, microsecond=0) + step
            series = [(at.isoformat(), round(r, 1))
                      for at, r in pace.rate_series(ts, window, step, first, max(ts[-1], first + step))]
            for at in ts:
                by_hour[at.astimezone(zone).hour] += 1
        for (dealer, run), (n, h) in zip(runs, counted):
            for key, into in ((t.kind, per_game), ((dealer, t.kind), per_dealer)):
                into[key][0] += len(run)
                into[key][1] += n
                into[key][2] += h
        per_table.append({"table_id": t.id, "table": t.number, "name": t.name, "game": t.kind, "rounds": len(ts),
                          "hours": round(hours, 2), "rate": round(rate, 1), "target_min": lo, "target_max": hi,
                          "status": _status(rate, lo, hi, sum(n for n, _ in counted)), "series": series,
                          "by_hour": [{"hour": h, "rounds": n} for h, n in sorted(by_hour.items())]})
    names = dict(session.execute(select(Staff.id, Staff.name).where(
        Staff.id.in_([d for d, _ in per_dealer if d is not None]))).all()) if per_dealer else {}

    def row(rounds: int, n: int, h: float, lo: int, hi: int) -> dict:
        rate = n / h if h else 0.0
        return {"rounds": rounds, "hours": round(h, 2), "rate": round(rate, 1), "target_min": lo, "target_max": hi,
                "status": _status(rate, lo, hi, n)}
    games = [{"game": g, **row(*v, *tg[g])} for g, v in sorted(per_game.items())]
    dealers = [{"dealer_id": d, "dealer": names.get(d), "game": g, **row(*v, *tg[g])}
               for (d, g), v in sorted(per_dealer.items(), key=lambda kv: (names.get(kv[0][0]) or "", kv[0][1]))]
    money = shift.per_dealer(session, day_, house)
    for d in dealers:
        results = money.get((d["dealer_id"], d["game"]), {})
        d.update(handle=results.get("handle", 0), win_loss=results.get("win_loss", 0))
    return {"day": day_.isoformat(), "window_minutes": house.pace_window_minutes, "tables": per_table,
            "games": games, "dealers": dealers}
