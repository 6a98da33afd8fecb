"""Live updates and timer wake-ups leave only with the real commit: a savepoint (begin_nested, used to
catch a lost race on a unique index) neither sends nor drops them; the timer row itself is part of
the transaction (a savepoint rolled back takes its timer with it)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import select

from floor import notify, timers
from floor.models import Timer


def test_savepoints_neither_send_nor_drop_the_outbox(session):
    sent, woken = [], []
    notify.set_emitter(lambda ev, payload, room: sent.append(ev))
    timers.set_waker(woken.append)
    due = datetime.now(timezone.utc) + timedelta(seconds=30)
    try:
        notify.publish(session, "before.savepoint", {}, "floor")
        timers.set_timer(session, "t-1", "heartbeat", due)
        with session.begin_nested():
            pass
        try:
            with session.begin_nested():
                timers.set_timer(session, "t-2", "heartbeat", due)
                raise ValueError("lost the race")
        except ValueError:
            pass
        assert sent == [] and woken == []
        session.commit()
        assert sent == ["before.savepoint"] and woken == [due]
        rows = session.execute(select(Timer.key, Timer.status)).all()
        assert rows == [("t-1", "pending")]
    finally:
        notify.set_emitter(None)
        timers.set_waker(None)


def test_a_rolled_back_timer_is_neither_stored_nor_announced(session):
    woken = []
    timers.set_waker(woken.append)
    try:
        timers.set_timer(session, "t-1", "heartbeat", datetime.now(timezone.utc))
        session.rollback()
        assert woken == []
        assert session.execute(select(Timer)).first() is None
    finally:
        timers.set_waker(None)


def test_setting_a_key_again_replaces_it_and_cancelling_marks_it(session):
    t0 = datetime.now(timezone.utc)
    timers.set_timer(session, "round:1:decision", "rounds.decision_timeout", t0, 1, 3)
    timers.set_timer(session, "round:1:decision", "rounds.decision_timeout", t0 + timedelta(seconds=20), 1, 4)
    session.commit()
    rows = session.execute(select(Timer.status, Timer.args).where(Timer.key == "round:1:decision")
                           .order_by(Timer.id)).all()
    assert rows == [("replaced", [1, 3]), ("pending", [1, 4])]
    assert timers.pending(session, "round:1:decision").due_at == t0 + timedelta(seconds=20)
    timers.cancel_timer(session, "round:1:decision")
    session.commit()
    assert timers.pending(session, "round:1:decision") is None
    assert session.execute(select(Timer.status).order_by(Timer.id)).scalars().all() == ["replaced", "cancelled"]
