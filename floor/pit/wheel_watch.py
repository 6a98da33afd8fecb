"""Wheel integrity: the roulette wheels watched from their own spins.

Per roulette table, from the settled rounds (the number, and the rotor's direction and speed the
wheel reported at "no more bets"):

- **Direction**: the rotor must turn the other way each spin; a spin turning the same way as the one
  before raises ``direction_not_alternating``.
- **Speeds**: the rotor's rpm outside ``wheel_rotor_rpm_min``..``max`` raises ``speed_out_of_range``;
  the ball's speed is judged the same way where the wheel reports it (ours does not).
- **Bias**: the spins are cut into windows of ``wheel_window_spins`` in the order they were played
  (the first N, the next N, ...); each completed window is tested once (``floor.games.wheel_stats``
  ``bias_check`` at ``wheel_bias_p``) and a failing one raises ``possible_bias`` with its figures.
  Windows do not overlap, so a fair wheel raises a false alarm in at most ``wheel_bias_p`` of its
  windows (1 % by default: about once in 50,000 spins).

Direction and speed alerts come once per run of trouble: not again while one of the kind is open
for the table, and never for spins already alerted or played before the last one was acknowledged
(they were that alert's trouble). Each check is safe to repeat: it finds what it
raised before.

Spins entered by hand (the table played on without its wheel, ``floor.rounds.hand``) are the
dealer's word, not the wheel's: they are kept apart. The windows and the bias tests count the
wheel's own spins only; the pit's page shows the spins entered by hand beside them, marked.
"""
from __future__ import annotations

import json
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from floor import alerts, audit
from floor.actors import Actor
from floor.errors import Msg
from floor.games import wheel_stats
from floor.models import Alert, AuditRecord, Round, Table
from floor.rounds import hand
from floor.settings import HouseSettings

BIAS, DIRECTION, SPEED = "possible_bias", "direction_not_alternating", "speed_out_of_range"
SECTIONS = (("voisins du zéro", wheel_stats.VOISINS_DU_ZERO), ("tiers du cylindre", wheel_stats.TIERS_DU_CYLINDRE),
            ("orphelins", wheel_stats.ORPHELINS))


def watch_settings(house: HouseSettings) -> wheel_stats.WheelWatchSettings:
    # a window shorter than 185 spins (five per pocket) is never tested: the chi-square needs them
    return wheel_stats.WheelWatchSettings(window=house.wheel_window_spins, p_threshold=house.wheel_bias_p,
                                          arc_pockets=house.wheel_arc_pockets, min_spins=5 * wheel_stats.POCKETS)


def limits(house: HouseSettings) -> wheel_stats.SpeedLimits:
    return wheel_stats.SpeedLimits(house.wheel_ball_rpm_min, house.wheel_ball_rpm_max,
                                   house.wheel_rotor_rpm_min, house.wheel_rotor_rpm_max)


def spins(session: Session, table_id: int, after_id: int = 0, last: int | None = None,
          skip: int | None = None, take: int | None = None, wheel_only: bool = True) -> list[dict]:
    """The table's played spins in order (all after ``after_id``, the ``last`` ones, or ``take`` of
    them after the first ``skip``): round id, when, the number, the rotor's direction and rpm, and
    whether it was entered by hand. ``wheel_only``: the wheel's own spins, those entered by hand
    left out (what the tests count)."""
    q = (select(Round.id, Round.result_at, Round.result, Round.device)
         .where(Round.table_id == table_id, Round.kind == "roulette", Round.status == "settled", Round.id > after_id)
         .order_by(Round.id.desc() if last else Round.id))
    if wheel_only:
        q = q.where(hand.not_by_hand(Round.id))
    if last:
        q = q.limit(last)
    elif take:
        q = q.offset(skip or 0).limit(take)
    rows = [{"round_id": i, "at": at, "number": (res or {}).get("number"), "direction": (dev or {}).get("direction"),
             "rpm": (dev or {}).get("rpm"), "by_hand": bool((res or {}).get("hand_entry"))}
            for i, at, res, dev in session.execute(q)]
    rows = [r for r in rows if r["number"] is not None]
    return list(reversed(rows)) if last else rows


def _seen(session: Session, kind: str, table_id: int) -> tuple[bool, int, datetime | None]:
    """Whether an alert of the kind is open for the table, the last round any of them named, and
    when the last was acknowledged: trouble seen while one was open belongs to it."""
    open_, last, acked = False, 0, None
    for data, ack in session.execute(select(Alert.data, Alert.acknowledged_at).where(
            Alert.kind == kind, Alert.table_id == table_id)):
        last = max(last, int((data or {}).get("last_round_id") or 0))
        open_ = open_ or ack is None
        acked = ack if ack is not None and (acked is None or ack > acked) else acked
    return open_, last, acked


def _new(s: dict, last: int, acked: datetime | None) -> bool:
    return s["round_id"] > last and (acked is None or s["at"] is None or s["at"] > acked)


def _direction(session: Session, t: Table, now: datetime) -> list[Alert]:
    open_, last, acked = _seen(session, DIRECTION, t.id)
    recent = [s for s in spins(session, t.id, last=50) if s["direction"] is not None]
    new = {s["round_id"] for s in recent if _new(s, last, acked)}
    breaks = [b for b in wheel_stats.direction_breaks([s["direction"] for s in recent], [s["round_id"] for s in recent])
              if b in new]
    if not breaks or open_:
        return []
    msg = Msg("Wheel at table {table}: the rotor turned the same way on {n} spin(s) in a row",
              table=t.number, n=len(breaks))
    return [alerts.raise_alert(session, Actor.system("wheel watch"), DIRECTION, msg, table_id=t.id, at=now,
                               data={"table": t.number, "rounds": breaks, "last_round_id": max(breaks)})]


def _speed(session: Session, t: Table, house: HouseSettings, now: datetime) -> list[Alert]:
    open_, last, acked = _seen(session, SPEED, t.id)
    recent = [s for s in spins(session, t.id, after_id=last) if _new(s, last, acked)]
    faults = wheel_stats.speed_faults([(s["round_id"], None, s["rpm"]) for s in recent], limits(house))
    if not faults or open_:
        return []
    worst = faults[-1]
    msg = Msg("Wheel at table {table}: rotor at {rpm} rpm, outside {low}–{high} ({n} spin(s))",
              table=t.number, rpm=worst.rpm, low=worst.low, high=worst.high, n=len(faults))
    return [alerts.raise_alert(session, Actor.system("wheel watch"), SPEED, msg, table_id=t.id, at=now,
                               data={"table": t.number, "last_round_id": max(f.spin for f in faults),
                                     "faults": [{"round_id": f.spin, "part": f.part, "rpm": f.rpm} for f in faults]})]


def report_data(report: wheel_stats.BiasReport) -> dict:
    """The bias report as the alert keeps it (its data, stored and sent as it is)."""
    return {"possible_bias": report.possible_bias, "spins": report.spins,
            "per_test_threshold": report.per_test_threshold, "counts": list(report.counts),
            "tests": [{"name": t.name, "statistic": round(t.statistic, 3), "df": t.df, "p_value": t.p_value,
                       "observed": list(t.observed), "expected": [round(e, 2) for e in t.expected],
                       "labels": [list(x) if isinstance(x, tuple) else x for x in t.labels]} for t in report.tests],
            "failing": [t.name for t in report.failing]}


def _played(session: Session, t: Table) -> int:
    """The wheel's own settled spins at the table (those entered by hand left out)."""
    return session.execute(select(func.count(Round.id)).where(
        Round.table_id == t.id, Round.kind == "roulette", Round.status == "settled",
        hand.not_by_hand(Round.id))).scalar_one()


def last_window(session: Session, t: Table, house: HouseSettings) -> tuple[int, list[dict]]:
    """The last completed window of spins: its number (1, 2, ...; 0 for none yet) and its spins."""
    n = house.wheel_window_spins
    played = _played(session, t)
    k = played // n
    if k == 0:
        return 0, []
    return k, spins(session, t.id, skip=(k - 1) * n, take=n)


TESTED = "wheel.window_tested"


def _tested(session: Session, t: Table, n: int) -> int:
    """The last window of ``n`` spins the watch has tested for the table (0: none). Every test is
    recorded in the audit log, alarm or not, so a window is tested once and none is skipped."""
    done = 0
    for (after,) in session.execute(select(AuditRecord.after).where(AuditRecord.action == TESTED,
                                                                    AuditRecord.subject == f"wheel:{t.id}")):
        data = json.loads(after or "{}")
        if data.get("window_spins") == n:
            done = max(done, int(data.get("window") or 0))
    for (data,) in session.execute(select(Alert.data).where(Alert.kind == BIAS, Alert.table_id == t.id)):
        if (data or {}).get("window_spins", n) == n:
            done = max(done, int((data or {}).get("window") or 0))
    return done


def _bias(session: Session, t: Table, house: HouseSettings, now: datetime) -> list[Alert]:
    """Every completed window not tested yet, in order: two windows completed between two checks
    (the scheduler was down, a busy wheel, a smaller window) are both tested."""
    n = house.wheel_window_spins
    played = _played(session, t)
    raised = []
    for k in range(_tested(session, t, n) + 1, played // n + 1):
        raised += _test_window(session, t, house, k, spins(session, t.id, skip=(k - 1) * n, take=n), now)
    return raised


def _test_window(session: Session, t: Table, house: HouseSettings, k: int, window: list[dict],
                 now: datetime) -> list[Alert]:
    n = house.wheel_window_spins
    report = wheel_stats.bias_check([s["number"] for s in window], watch_settings(house))
    audit.record(session, Actor.system("wheel watch"), TESTED, f"wheel:{t.id}", at=now,
                 after={"table": t.number, "window": k, "window_spins": n, "spins": len(window),
                        "possible_bias": bool(report and report.possible_bias)})
    if report is None or not report.possible_bias:
        return []
    worst = min(report.tests, key=lambda x: x.p_value)
    msg = Msg("Wheel at table {table}: possible bias over spins {first} to {last} ({test}, p = {p})",
              table=t.number, first=(k - 1) * n + 1, last=k * n, test=worst.name, p=f"{worst.p_value:.2g}")
    return [alerts.raise_alert(session, Actor.system("wheel watch"), BIAS, msg, table_id=t.id, at=now,
                               severity="critical",
                               data={"table": t.number, "window": k, "window_spins": n,
                                     "first_round_id": window[0]["round_id"],
                                     "last_round_id": window[-1]["round_id"], "summary": report.summary(),
                                     "report": report_data(report)})]


def check(session: Session, house: HouseSettings, now: datetime) -> list[Alert]:
    """Every roulette table's wheel: direction, speeds, and the bias test of every completed window
    not tested yet."""
    raised: list[Alert] = []
    for t in session.execute(select(Table).where(Table.kind == "roulette").order_by(Table.number)).scalars():
        raised += _direction(session, t, now) + _speed(session, t, house, now) + _bias(session, t, house, now)
    return raised


def wheel(session: Session, table_id: int, house: HouseSettings, now: datetime) -> dict:
    """What the pit looks at for one wheel: the last spins, the spins of the last hour, the pocket
    and section frequencies of the current (partial) window and the last completed one's tests."""
    t = session.get(Table, table_id)
    n = house.wheel_window_spins
    recent = spins(session, table_id, last=n)
    counts = wheel_stats.frequencies([s["number"] for s in recent])
    shown = spins(session, table_id, last=20, wheel_only=False)   # the last spins, those entered by hand marked
    by_hand = spins(session, table_id, last=n, wheel_only=False)
    by_hand = [s for s in by_hand if s["by_hand"]]
    k, window = last_window(session, t, house)
    report = wheel_stats.bias_check([s["number"] for s in window], watch_settings(house)) if window else None
    sections = []
    for name, pockets in SECTIONS:
        hits = sum(counts[p] for p in pockets)
        sections.append({"name": name, "pockets": sorted(pockets), "hits": hits,
                         "expected": round(len(recent) * len(pockets) / wheel_stats.POCKETS, 1)})
    hour = [s["at"] for s in recent if s["at"] is not None and now - timedelta(hours=1) <= s["at"] <= now]
    return {"table_id": table_id, "table": t.number, "name": t.name, "window_spins": n, "spins": len(recent),
            "spins_last_hour": len(hour),
            "counts": counts, "wheel_order": list(wheel_stats.WHEEL_ORDER), "sections": sections,
            "last": [{**s, "at": s["at"].isoformat() if s["at"] else None} for s in shown],
            "hand_spins": len(by_hand), "hand_counts": wheel_stats.frequencies([s["number"] for s in by_hand]),
            "directions_alternate": not wheel_stats.direction_breaks([s["direction"] for s in recent[-50:]
                                                                      if s["direction"] is not None]),
            "window": k, "report": report}
