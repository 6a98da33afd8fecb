"""A listed player's pass: a token bound to his own entries, kept only as its sha256, ending with the
gaming day, with his last list, or when the floor withdraws it; his answer and his leaving audited."""
from __future__ import annotations

import hashlib
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import event

from floor import notify
from floor.actors import Actor
from floor.errors import Conflict, NotFound
from floor.models import AuditRecord, ListCall, PlayerPass
from floor.poker import pass_feed, passes, queries, seating, waitlist
from tests.floor.poker_helpers import HOUSE, NLH, PLO, T0, fill, manager, table


def _listed(session, *pids, game=NLH):
    m = manager(session)
    return [waitlist.add(session, m, game, pid, T0 + timedelta(minutes=k)) for k, pid in enumerate(pids)]


def test_a_pass_is_a_long_random_token_kept_only_as_its_hash(session):
    _listed(session, 11)
    issued = passes.issue(session, manager(session), HOUSE, 11, T0)
    assert len(issued.token) >= 22                             # 128 bits or more, url-safe
    row = session.get(PlayerPass, issued.pass_.id)
    assert row.token_hash == hashlib.sha256(issued.token.encode()).hexdigest()
    assert issued.token not in {row.token_hash, row.issued_by_name}
    assert passes.holder(session, issued.token, T0).id == row.id
    # a gaming day ends at 06:00 in Zurich: the pass issued at 19:00 works until then, not after
    assert passes.holder(session, issued.token, T0 + timedelta(hours=10, minutes=59)).id == row.id
    with pytest.raises(passes.PassEnded) as exc:
        passes.holder(session, issued.token, T0 + timedelta(hours=11))
    assert exc.value.code == "pass_expired" and exc.value.status == 410
    with pytest.raises(NotFound):
        passes.holder(session, issued.token[:-1] + ("A" if issued.token[-1] != "A" else "B"), T0)
    rec = session.query(AuditRecord).filter_by(action="pass.issue").one()
    assert rec.subject == "player:11" and issued.token not in (rec.after or "")


def test_only_a_listed_player_gets_one_and_a_new_one_withdraws_the_old(session):
    with pytest.raises(Conflict) as exc:
        passes.issue(session, manager(session), HOUSE, 11, T0)
    assert exc.value.code == "not_listed"
    _listed(session, 11)
    first = passes.issue(session, manager(session), HOUSE, 11, T0)
    second = passes.issue(session, manager(session), HOUSE, 11, T0 + timedelta(minutes=1))
    with pytest.raises(passes.PassEnded) as exc:
        passes.holder(session, first.token, T0 + timedelta(minutes=2))
    assert exc.value.code == "pass_revoked"
    assert passes.holder(session, second.token, T0 + timedelta(minutes=2)).id == second.pass_.id
    passes.revoke(session, manager(session), 11, T0 + timedelta(minutes=3))
    with pytest.raises(passes.PassEnded) as exc:
        passes.holder(session, second.token, T0 + timedelta(minutes=4))
    assert exc.value.code == "pass_revoked"
    with pytest.raises(Conflict) as exc:
        passes.revoke(session, manager(session), 11, T0 + timedelta(minutes=5))
    assert exc.value.code == "no_pass"
    assert session.query(AuditRecord).filter_by(action="pass.revoke").count() == 1


def test_his_page_shows_his_lists_places_and_waits_and_nobody_else(session):
    a, b = _listed(session, 11, 12)
    _listed(session, 12, game=PLO)
    issued = passes.issue(session, manager(session), HOUSE, 12, T0)
    v = passes.view(session, HOUSE, issued.pass_, T0 + timedelta(minutes=5))
    assert [(x.game.id, x.place, x.waiting, x.status) for x in v.lists] == [(NLH, 2, 2, "waiting"), (PLO, 1, 1, "waiting")]
    board = {bl.game.id: bl for bl in waitlist.board(session, HOUSE, T0 + timedelta(minutes=5)).lists}
    assert v.lists[0].estimated_wait_minutes == board[NLH].entries[1].estimated_wait_minutes
    assert v.lists[0].estimated_wait_range == board[NLH].entries[1].estimated_wait_range
    # the one ahead is taken off: he is first
    waitlist.remove(session, manager(session), a.id, "went home", T0 + timedelta(minutes=6))
    v = passes.view(session, HOUSE, issued.pass_, T0 + timedelta(minutes=7))
    assert [(x.game.id, x.place) for x in v.lists] == [(NLH, 1), (PLO, 1)]
    # another player's entry is not reachable from his pass: the same 404 as one that never was
    with pytest.raises(NotFound):
        passes.take_off(session, issued.pass_, 999_999, T0)


def test_on_my_way_and_taking_himself_off_are_his_own_and_audited(session):
    main = table(session, 1)
    fill(session, main, range(1, 11), T0 - timedelta(hours=1))
    a, b = _listed(session, 11, 12)
    _listed(session, 11, game=PLO)
    mine = passes.issue(session, manager(session), HOUSE, 11, T0)
    theirs = passes.issue(session, manager(session), HOUSE, 12, T0)
    with pytest.raises(NotFound):                          # b's entry, from a's pass
        passes.on_my_way(session, mine.pass_, b.id, T0)
    with pytest.raises(NotFound):
        passes.take_off(session, mine.pass_, b.id, T0)
    with pytest.raises(Conflict) as exc:                   # not called yet
        passes.on_my_way(session, mine.pass_, a.id, T0)
    assert exc.value.code == "not_called"
    seating.leave(session, Actor.system("dealer terminal"), HOUSE, queries.open_assignment(session, main.id, 4),
                  "left", 0, T0 + timedelta(minutes=1))
    call = waitlist.call(session, manager(session), HOUSE, a.id, main, 4, T0 + timedelta(minutes=2))
    v = passes.view(session, HOUSE, mine.pass_, T0 + timedelta(minutes=2))
    called = [x for x in v.lists if x.entry_id == a.id][0]
    assert called.status == "called" and (called.call.table, called.call.seat) == (1, 4)
    assert called.call.expires_at == call.expires_at and called.call.on_my_way_at is None
    passes.on_my_way(session, mine.pass_, a.id, T0 + timedelta(minutes=3))
    passes.on_my_way(session, mine.pass_, a.id, T0 + timedelta(minutes=4))     # a second tap changes nothing
    assert session.get(ListCall, call.id).on_my_way_at == T0 + timedelta(minutes=3)
    rec = session.query(AuditRecord).filter_by(action="waitlist.on_my_way").one()
    assert (rec.role, rec.terminal, rec.subject) == ("player", f"pass:{mine.pass_.id}", "player:11")
    # he takes himself off the PLO list: his NLH call stays, his pass too
    plo = [x for x in v.lists if x.game.id == PLO][0]
    passes.take_off(session, mine.pass_, plo.entry_id, T0 + timedelta(minutes=5))
    rec = session.query(AuditRecord).filter_by(action="waitlist.remove").one()
    assert (rec.role, rec.terminal) == ("player", f"pass:{mine.pass_.id}")
    assert passes.holder(session, mine.token, T0 + timedelta(minutes=6))
    # seated from his last list: the pass has done its work
    waitlist.seat(session, manager(session), HOUSE, a.id, 50_000, now=T0 + timedelta(minutes=6))
    with pytest.raises(passes.PassEnded) as exc:
        passes.holder(session, mine.token, T0 + timedelta(minutes=7))
    assert exc.value.code == "pass_done"
    # the other player's pass is untouched; taken off his last list, his ends too
    assert passes.holder(session, theirs.token, T0 + timedelta(minutes=7))
    passes.take_off(session, theirs.pass_, b.id, T0 + timedelta(minutes=8))
    with pytest.raises(passes.PassEnded):
        passes.holder(session, theirs.token, T0 + timedelta(minutes=9))


def _counting(monkeypatch):
    """How many times the lists are worked out (the real function, counted)."""
    calls = []
    real = waitlist.lists

    def lists(*args, **kwargs):
        calls.append(kwargs.get("game_ids"))
        return real(*args, **kwargs)
    monkeypatch.setattr(waitlist, "lists", lists)
    return calls


def _statements(session):
    counted = []
    engine = session.get_bind()
    listen = lambda *args: counted.append(args[2])    # noqa: E731
    event.listen(engine, "before_cursor_execute", listen)
    return counted, lambda: event.remove(engine, "before_cursor_execute", listen)


def test_the_views_of_many_passes_work_out_their_lists_once_and_match_each_view(session, monkeypatch):
    main = table(session, 1)
    fill(session, main, range(1, 11), T0 - timedelta(hours=1))
    pids = list(range(11, 19))
    _listed(session, *pids)
    _listed(session, 12, 15, game=PLO)
    issued = {pid: passes.issue(session, manager(session), HOUSE, pid, T0) for pid in pids}
    seating.leave(session, manager(session), HOUSE, queries.open_assignment(session, main.id, 4), "left", 0, T0)
    first = queries.open_entries(session, NLH)[0]
    waitlist.call(session, manager(session), HOUSE, first.id, main, 4, T0 + timedelta(minutes=1))
    now = T0 + timedelta(minutes=2)
    one_by_one = {i.pass_.id: passes.view(session, HOUSE, i.pass_, now) for i in issued.values()}
    calls = _counting(monkeypatch)
    ids = [i.pass_.id for i in issued.values()]
    together = passes.views(session, HOUSE, ids, now)
    assert len(calls) == 1 and calls[0] == {NLH, PLO}
    assert together == one_by_one
    assert [x.place for x in together[issued[15].pass_.id].lists] == [5, 2]
    assert together[issued[11].pass_.id].lists[0].call.seat == 4
    # each is his own: no entry of another player in any view
    for pid, i in issued.items():
        mine = {e.id for e in queries.open_entries_of_player(session, pid)}
        assert {x.entry_id for x in together[i.pass_.id].lists} == mine
    # eight passes cost no more statements than two: the lists are the work, not the passes
    few_ids = ids[:2] + [issued[15].pass_.id]
    session.expire_all()
    counted, stop = _statements(session)
    passes.views(session, HOUSE, few_ids, now)
    few = len(counted)
    session.expire_all()
    counted.clear()
    passes.views(session, HOUSE, ids, now)
    stop()
    assert len(counted) == few, counted


def test_a_committed_change_sends_each_pass_its_own_state_worked_out_once(session, monkeypatch):
    now = datetime.now(timezone.utc)
    m = manager(session)
    entries = [waitlist.add(session, m, NLH, pid, now - timedelta(minutes=10 - k)) for k, pid in enumerate((11, 12, 13))]
    other = waitlist.add(session, m, PLO, 14, now)
    pass_of = {pid: passes.issue(session, m, HOUSE, pid, now).pass_.id for pid in (11, 12, 13, 14)}
    session.commit()
    sent = []
    notify.set_emitter(lambda ev, payload, room: sent.append((ev, payload, room)))
    passes.push_with(HOUSE)
    try:
        calls = _counting(monkeypatch)
        waitlist.remove(session, m, entries[0].id, "went home")      # his last list: his pass ends
        assert sent == []                                              # nothing before the commit
        session.commit()
        # a change rolled back sends nothing
        waitlist.remove(session, m, entries[1].id, "went home")
        session.rollback()
    finally:
        notify.set_emitter(None)
        passes.push_with(None)
    assert len(calls) == 1 and calls[0] == {NLH}
    to = {room: payload for ev, payload, room in sent if ev == pass_feed.EVENT}
    assert set(to) == {pass_feed.room(pass_of[p]) for p in (11, 12, 13)}    # not 14's: his list did not change
    ended = to[pass_feed.room(pass_of[11])]
    assert isinstance(ended, passes.PassEnded) and ended.code == "pass_done"
    for pid, place in ((12, 1), (13, 2)):
        state = to[pass_feed.room(pass_of[pid])]
        assert state == passes.view(session, HOUSE, session.get(PlayerPass, pass_of[pid]), state.at)
        assert [(x.entry_id, x.place, x.waiting) for x in state.lists] == [(entries[pid - 11].id, place, 2)]
    assert other.closed_at is None
