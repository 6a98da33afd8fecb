"""A web process of the phones bench: ``python -m tests.benchmarks.phones_sim`` runs
floor.runtime.serve as it is, with players' phones simulated the way a pass holds them: a phone
connects to the live feed with ``{"bench_entry": <entry id>}`` as its auth and is in the room of that
entry only (``entry:<id>``), and every change of a waiting list goes, beside its usual rooms, to the
rooms of the list's open entries: one update for the list's phones, each in its own room.

Only the bench runs this (it is never imported by the floor); it lets the bench measure the live feed
of a thousand phones before the players' pass has its own room in the floor."""
from __future__ import annotations

from floor.runtime import green

green.patch_if_asked()   # before anything else, as floor.runtime.serve does

from flask_socketio import join_room  # noqa: E402
from sqlalchemy import select  # noqa: E402

from floor import notify  # noqa: E402
from floor.models import WaitlistEntry  # noqa: E402
from floor.poker import waitlist  # noqa: E402
from floor.runtime import serve  # noqa: E402
from floor.web import policy  # noqa: E402

ROOM = "entry:{}"
_staff_connect = policy.SOCKET_HANDLERS[("/live", "connect")]


def _connect(auth=None):
    if isinstance(auth, dict) and isinstance(auth.get("bench_entry"), int):
        join_room(ROOM.format(auth["bench_entry"]))
        return True
    return _staff_connect(auth)


policy.SOCKET_HANDLERS[("/live", "connect")] = _connect
_publish = waitlist._publish


def _publish_to_phones(session, game_id: int) -> None:
    _publish(session, game_id)
    entries = session.execute(select(WaitlistEntry.id).where(
        WaitlistEntry.game_id == game_id, WaitlistEntry.closed_at.is_(None))).scalars().all()
    if entries:
        notify.publish(session, "pass.list_changed", {"game_id": game_id}, *[ROOM.format(e) for e in entries])


waitlist._publish = _publish_to_phones

if __name__ == "__main__":
    serve.main()
