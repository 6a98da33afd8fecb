"""Game pace with a controlled clock: rounds at set times, the live rate against the house target,
the alert after the set time below it (once per slow spell), and the day's figures per table, game,
dealer and clock hour, on both databases."""
from __future__ import annotations

from datetime import timedelta

from sqlalchemy import insert, select

from floor import alerts, pit
from floor.models import Alert, Round, Staff
from floor.pit import game_pace
from tests.floor.rounds.helpers import HOUSE, PIT, T0, tid

M = timedelta(minutes=1)


def _rounds(session, table_id, kind, times, dealer=None, first=1):
    session.execute(insert(Round.__table__), [
        {"table_id": table_id, "number": first + i, "kind": kind, "status": "settled", "opened_at": t - M,
         "result_at": t, "ended_at": t, "result": {}, "device": {}, "steps": 0, "version": 3, "dealer_id": dealer}
        for i, t in enumerate(times)])
    session.commit()


def test_a_table_below_its_target_for_long_enough_raises_one_alert(session):
    wheel = tid(session, 12)
    # an hour at 40 spins an hour, then 50 minutes at 20 (the house wants 30 to 40)
    fast = [T0 + i * 90 * timedelta(seconds=1) for i in range(40)]
    slow = [T0 + 60 * M + i * 3 * M for i in range(1, 17)]
    _rounds(session, wheel, "roulette", fast + slow)

    rows = {r["table"]: r for r in game_pace.live(session, HOUSE, T0 + 60 * M)}
    assert (rows[12]["rate"], rows[12]["status"], rows[12]["target_min"]) == (40.0, "on_target", 30)
    assert rows[10]["status"] == "idle" and rows[10]["rounds"] == 0       # no round: a break, not slow

    # 15 minutes into the slow spell the rolling rate is below 30, but not yet for 20 minutes
    assert game_pace.check(session, HOUSE, T0 + 75 * M) == []
    now = T0 + 110 * M
    row = {r["table"]: r for r in game_pace.live(session, HOUSE, now)}[12]
    assert row["status"] == "below" and row["rate"] == 20.0
    raised = game_pace.check(session, HOUSE, now)
    session.commit()
    assert [a.table_id for a in raised] == [wheel]
    a = raised[0]
    assert a.kind == "pace_below_target" and a.at == now
    assert a.data["target_min"] == 30 and a.data["rate"] == 20.0
    assert "below its target of 30" in a.message
    # checked again, and again after the pit boss acknowledged it: the same slow spell, no new alert
    assert game_pace.check(session, HOUSE, now + M) == []
    alerts.acknowledge(session, PIT, a.id)
    session.commit()
    assert game_pace.check(session, HOUSE, now + 2 * M) == []
    assert session.execute(select(Alert.id).where(Alert.kind == "pace_below_target")).all() == [(a.id,)]
    # the table speeds up: on target again
    quick = [now + i * 80 * timedelta(seconds=1) for i in range(1, 30)]
    _rounds(session, wheel, "roulette", quick, first=100)
    assert {r["table"]: r for r in game_pace.live(session, HOUSE, quick[-1])}[12]["status"] != "below"


def test_a_table_that_just_started_is_not_said_slow_for_the_time_before_its_first_round(session):
    """The floor starts at T0: a minute later the rolling window holds mostly time before the first
    spin, so no "below since" and no alert claiming 50 minutes; played slowly for an hour, the alert
    counts the slow minutes from the first whole window of play, never from before the first spin."""
    wheel = tid(session, 12)
    _rounds(session, wheel, "roulette", [T0, T0 + 80 * timedelta(seconds=1)])
    row = {r["table"]: r for r in game_pace.live(session, HOUSE, T0 + 2 * M)}[12]
    assert row["rounds"] == 2 and row["below_since"] is None
    assert game_pace.check(session, HOUSE, T0 + 2 * M) == []
    # then 20 an hour (the house wants 30 to 40) for the next 58 minutes
    _rounds(session, wheel, "roulette", [T0 + 3 * M + i * 3 * M for i in range(20)], first=10)
    now = T0 + 60 * M
    assert game_pace.check(session, HOUSE, now - 15 * M) == []      # 15 minutes after the first window
    raised = game_pace.check(session, HOUSE, now)
    assert len(raised) == 1
    since = {r["table"]: r for r in game_pace.live(session, HOUSE, now)}[12]["below_since"]
    assert since == (T0 + HOUSE.pace_window_minutes * M).isoformat()
    assert "for 30 minutes" in raised[0].message


def test_the_days_pace_per_table_game_and_dealer(session):
    wheel, bacc = tid(session, 12), tid(session, 10)
    dan = session.execute(select(Staff.id).where(Staff.username == "dealer")).scalar_one()
    dora = session.execute(select(Staff.id).where(Staff.username == "dealer2")).scalar_one()
    # Dan deals roulette for an hour at 36 an hour, Dora the next hour at 30; baccarat: 60 coups in an hour
    _rounds(session, wheel, "roulette", [T0 + i * 100 * timedelta(seconds=1) for i in range(37)], dealer=dan)
    _rounds(session, wheel, "roulette", [T0 + 62 * M + i * 2 * M for i in range(31)], dealer=dora, first=100)
    _rounds(session, bacc, "baccarat", [T0 + i * M for i in range(61)], dealer=dan)
    fig = game_pace.day(session, pit.today(HOUSE, T0), HOUSE, T0 + 4 * 60 * M)
    tables = {t["table"]: t for t in fig["tables"]}
    assert tables[12]["rounds"] == 68 and tables[12]["hours"] == 2.0 and tables[12]["rate"] == 33.0
    assert tables[10]["rate"] == 60.0 and tables[10]["status"] == "on_target"
    assert tables[14]["rounds"] == 0 and tables[14]["status"] == "idle"
    assert tables[12]["series"] and all(r >= 0 for _, r in tables[12]["series"])
    # 20:00 UTC is 22:00 in Zurich (summer time)
    assert [(h["hour"], h["rounds"]) for h in tables[10]["by_hour"]] == [(22, 60), (23, 1)]
    dealers = {(d["dealer"], d["game"]): d for d in fig["dealers"]}
    assert dealers[("Dan Dealer", "roulette")]["rate"] == 36.0
    assert dealers[("Dora Dealer", "roulette")]["rate"] == 30.0
    assert dealers[("Dan Dealer", "baccarat")]["rounds"] == 61
    games = {g["game"]: g for g in fig["games"]}
    assert games["roulette"]["rounds"] == 68 and games["baccarat"]["target_min"] == 45


def test_a_day_with_a_single_round_on_a_quarter_hour(session):
    wheel = tid(session, 12)
    _rounds(session, wheel, "roulette", [T0 + 15 * M - timedelta(seconds=1)])
    fig = game_pace.day(session, pit.today(HOUSE, T0), HOUSE, T0 + 20 * M)
    table = next(t for t in fig["tables"] if t["table"] == 12)
    assert table["rounds"] == 1 and table["hours"] == 0 and table["status"] == "idle" and table["series"]


def test_each_dealers_results_are_his_rounds(session):
    from floor import dealers, ledger
    from tests.floor.pit.play import spin
    from tests.floor.rounds.helpers import CASHIER
    wheel = tid(session, 12)
    dan = session.execute(select(Staff.id).where(Staff.username == "dealer")).scalar_one()
    dora = session.execute(select(Staff.id).where(Staff.username == "dealer2")).scalar_one()
    ledger.credit(session, CASHIER, 1, 50_000, at=T0, house=HOUSE)
    dealers.take_table(session, PIT, dan, wheel, T0)
    session.commit()
    stakes = [dict(spot="red", amount=1_000, player_id=1), dict(spot="straight", numbers=[17], amount=500, player_id=1)]
    spin(session, wheel, 90, 17, T0 + M, stakes)          # black: red loses 1,000, 17 pays 17,500
    spin(session, wheel, 91, 3, T0 + 2 * M, stakes)       # red: red wins 1,000, 17 loses 500
    dealers.take_table(session, PIT, dora, wheel, T0 + 3 * M)
    session.commit()
    spin(session, wheel, 92, 0, T0 + 4 * M, stakes)       # zero: both lose, 1,500
    fig = game_pace.day(session, pit.today(HOUSE, T0), HOUSE, T0 + 10 * M)
    by = {d["dealer"]: d for d in fig["dealers"] if d["game"] == "roulette"}
    assert (by["Dan Dealer"]["rounds"], by["Dan Dealer"]["handle"], by["Dan Dealer"]["win_loss"]) == (2, 3_000, -17_000)
    assert (by["Dora Dealer"]["rounds"], by["Dora Dealer"]["handle"], by["Dora Dealer"]["win_loss"]) == (1, 1_500, 1_500)
    table = next(t for t in pit.figures(session, pit.today(HOUSE, T0), HOUSE)["tables"] if t["table"] == 12)
    assert table["win_loss"] == -17_000 + 1_500
