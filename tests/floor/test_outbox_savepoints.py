"""Live updates and timers leave only with the real commit: a savepoint (begin_nested, used to catch a
lost race on a unique index) neither sends nor drops them."""
from __future__ import annotations

from datetime import datetime, timezone

from floor import notify, timers


def test_savepoints_neither_send_nor_drop_the_outbox(session):
    sent, scheduled = [], []
    notify.set_emitter(lambda ev, payload, room: sent.append(ev))
    timers.install(lambda job_id, name, at, *args: scheduled.append(job_id), lambda job_id: None)
    try:
        notify.publish(session, "before.savepoint", {}, "floor")
        timers.set_timer(session, "t-1", "heartbeat", datetime.now(timezone.utc))
        with session.begin_nested():
            pass
        try:
            with session.begin_nested():
                raise ValueError("lost the race")
        except ValueError:
            pass
        assert sent == [] and scheduled == []
        session.commit()
        assert sent == ["before.savepoint"] and scheduled == ["t-1"]
    finally:
        notify.set_emitter(None)
        timers.install(None, None)
