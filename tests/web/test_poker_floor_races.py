"""Two managers acting on the same seat or entry at the same moment: exactly one wins, the other gets
a 409 with a reason. Real threads, each with its own HTTP client and database session; on PostgreSQL
(row locks, partial unique indexes) and SQLite (serialised writers)."""
from __future__ import annotations

import threading
from datetime import timedelta

import pytest

from floor.actors import Actor
from floor.models import ListCall, SeatAssignment, Table, WaitlistEntry
from floor.poker import queries, seating
from floor.settings import HouseSettings
from tests.conftest import Login, app_session
from tests.floor.poker_helpers import T0, fill


@pytest.fixture
def managers(app):
    out = []
    for username in ("manager", "manager2"):
        login = Login(app.test_client())
        login(username, terminal=f"tablet-{username}")
        out.append(login)
    return out


def race(*calls):
    """Start the calls together on their own threads; return (status, body) of each."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(i, fn):
        barrier.wait()
        r = fn()
        results[i] = (r.status_code, r.get_json())
    threads = [threading.Thread(target=run, args=(i, fn)) for i, fn in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def one_winner(results, ok: int):
    statuses = sorted(s for s, _ in results)
    assert statuses == sorted([ok, 409]), results
    loser = next(body for s, body in results if s == 409)
    assert loser["message"] and loser["error"] != "conflict" or "retry" in loser["message"], loser
    return loser


def _room(app, free_seats=(3,), listed=(11, 12)):
    with app_session(app) as s:
        main = s.query(Table).filter_by(number=1).one()
        fill(s, main, range(1, 11), T0)
        for seat in free_seats:
            seating.leave(s, Actor.system("test"), HouseSettings(), queries.open_assignment(s, main.id, seat), "left", 0, T0)
    return main


def _add(login, player_id, game_id=1):
    r = login.post(f"/api/waitlists/{game_id}/entries", json={"player_id": player_id})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["id"]


@pytest.mark.parametrize("round_", range(3))
def test_both_call_the_same_player(app, managers, round_):
    _room(app)
    a, b = managers
    entry = _add(a, 11)
    results = race(lambda: a.post(f"/api/waitlists/entries/{entry}/call", json={"table_number": 1}),
                   lambda: b.post(f"/api/waitlists/entries/{entry}/call", json={"table_number": 1}))
    loser = one_winner(results, 201)
    assert loser["error"] == "already_called" and "already called by" in loser["message"]
    with app_session(app) as s:
        assert s.query(ListCall).filter(ListCall.closed_at.is_(None)).count() == 1


def test_both_call_someone_for_the_one_free_seat(app, managers):
    _room(app)
    a, b = managers
    first, second = _add(a, 11), _add(a, 12)
    results = race(lambda: a.post(f"/api/waitlists/entries/{first}/call", json={"table_number": 1, "seat_number": 3}),
                   lambda: b.post(f"/api/waitlists/entries/{second}/call",
                                  json={"table_number": 1, "seat_number": 3, "reason": "first one is not here"}))
    loser = one_winner(results, 201)
    assert loser["error"] in ("seat_held", "not_first")
    with app_session(app) as s:
        assert s.query(ListCall).filter(ListCall.closed_at.is_(None)).count() == 1


def test_both_seat_the_same_called_player(app, managers):
    _room(app)
    a, b = managers
    entry = _add(a, 11)
    assert a.post(f"/api/waitlists/entries/{entry}/call", json={"table_number": 1}).status_code == 201
    results = race(lambda: a.post(f"/api/waitlists/entries/{entry}/seat", json={"buy_in": 20_000}),
                   lambda: b.post(f"/api/waitlists/entries/{entry}/seat", json={"buy_in": 30_000}))
    loser = one_winner(results, 201)
    assert loser["error"] in ("entry_closed",) and "already seated" in loser["message"]
    with app_session(app) as s:
        seated = s.query(SeatAssignment).filter_by(player_id=11).all()
        assert len(seated) == 1 and seated[0].left_at is None


def test_one_removes_while_the_other_calls(app, managers):
    _room(app)
    a, b = managers
    entry = _add(a, 11)
    results = race(lambda: a.post(f"/api/waitlists/entries/{entry}/remove", json={"reason": "went home"}),
                   lambda: b.post(f"/api/waitlists/entries/{entry}/call", json={"table_number": 1}))
    statuses = sorted(s for s, _ in results)
    with app_session(app) as s:
        e = s.get(WaitlistEntry, entry)
        calls = s.query(ListCall).filter_by(entry_id=entry).all()
        if statuses == [200, 409]:        # removed first: the call was refused
            assert e.status == "removed" and calls == []
            assert next(b for st, b in results if st == 409)["error"] == "entry_closed"
        else:                             # called first, then removed (which cancels the call)
            assert statuses == [200, 201] and e.status == "removed" and calls[0].outcome == "cancelled"


def test_both_walk_a_player_up_to_the_same_seat(app, managers):
    _room(app)
    a, b = managers
    results = race(lambda: a.post("/api/seating/tables/1/seats/3/sit", json={"player_id": 20, "buy_in": 20_000}),
                   lambda: b.post("/api/seating/tables/1/seats/3/sit", json={"player_id": 21, "buy_in": 20_000}))
    loser = one_winner(results, 201)
    assert loser["error"] == "seat_taken"


def test_both_add_the_same_player(app, managers):
    a, b = managers
    results = race(lambda: a.post("/api/waitlists/1/entries", json={"player_id": 15}),
                   lambda: b.post("/api/waitlists/1/entries", json={"player_id": 15}))
    loser = one_winner(results, 201)
    assert loser["error"] == "already_listed"


def test_both_move_the_due_must_move_player(app, managers):
    a, b = managers
    with app_session(app) as s:
        main_id = s.query(Table).filter_by(number=1).one().id
        fill(s, s.get(Table, main_id), range(1, 11), T0 - timedelta(hours=1))
    assert a.post("/api/floor/tables/2/open", json={}).status_code == 200
    with app_session(app) as s:
        fill(s, s.query(Table).filter_by(number=2).one(), range(11, 20), T0)
        seating.leave(s, Actor.system("test"), HouseSettings(), queries.open_assignment(s, main_id, 2), "left", 0, T0)
    results = race(lambda: a.post("/api/mustmove/tables/2/move", json={"player_id": 11}),
                   lambda: b.post("/api/mustmove/tables/2/move", json={"player_id": 11}))
    loser = one_winner(results, 200)
    assert loser["error"] in ("not_seated", "not_due")
    with app_session(app) as s:
        at_main = s.query(SeatAssignment).filter_by(player_id=11, left_at=None).one()
        assert at_main.table_id == main_id and at_main.arrival == "must_move"
