"""A batched live update (bets at a table): the first goes out at once, those that follow within the
window go out together as one emit, each item once and in order; other rounds are batched apart."""
from __future__ import annotations

import threading
import uuid

from floor import notify


def test_a_burst_is_one_emit_per_window_with_every_item_in_order(session):
    sent, changed = [], threading.Condition()

    def emitter(ev, payload, room):
        with changed:
            sent.append((ev, payload, room))
            changed.notify_all()

    notify.set_emitter(emitter)
    rid = uuid.uuid4().int % 10**9   # the batcher is the process's: rounds of their own in every run
    try:
        for i in range(6):
            notify.publish_batched(session, "bet.placed", {"round_id": rid, "table_id": 3}, "bets", {"id": i}, "table:3")
            session.commit()
        with changed:
            assert changed.wait_for(lambda: len(sent) == 2, timeout=10), sent
        assert sent[0] == ("bet.placed", {"round_id": rid, "table_id": 3, "bets": [{"id": 0}]}, "table:3")
        assert sent[1] == ("bet.placed", {"round_id": rid, "table_id": 3, "bets": [{"id": i} for i in range(1, 6)]},
                           "table:3")
        notify.publish_batched(session, "bet.placed", {"round_id": rid + 1, "table_id": 3}, "bets", {"id": 100}, "table:3")
        session.commit()          # another round: its first bet goes out at once
        with changed:
            assert changed.wait_for(lambda: len(sent) == 3, timeout=10), sent
        assert sent[2] == ("bet.placed", {"round_id": rid + 1, "table_id": 3, "bets": [{"id": 100}]}, "table:3")
    finally:
        notify.set_emitter(None)
