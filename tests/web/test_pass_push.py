"""Two players' phones on the same list, each a real Socket.IO client of a real server: when the list
changes, each is sent its own state (his place, his entry) and nothing of the other's."""
from __future__ import annotations

import json
import threading
from datetime import datetime, timedelta, timezone

import pytest
import requests
import socketio

from floor.models import Player, Table
from floor.poker import passes, waitlist
from tests.floor.poker_helpers import fill, manager
from tests.servers import Server

# starts a web process: left out of `make test-fast`, run by `make test`
pytestmark = pytest.mark.slow


def test_each_phone_is_sent_its_own_place_and_nothing_of_the_other(app, session, db_url, tmp_path):
    now = datetime.now(timezone.utc)
    m = manager(session)
    fill(session, session.query(Table).filter_by(number=1).one(), range(1, 11), now - timedelta(hours=2))
    pids = (11, 12, 13)
    entry = {pid: waitlist.add(session, m, 1, pid, now - timedelta(minutes=10 - k)).id for k, pid in enumerate(pids)}
    token = {pid: passes.issue(session, m, app.config["HOUSE"], pid, now).token for pid in (12, 13)}
    name = {pid: session.get(Player, pid).name for pid in pids}
    card = {pid: session.get(Player, pid).card_number for pid in pids}
    session.commit()
    session.close()   # on SQLite an open transaction would hold the write lock the server needs
    staff_token = app.test_cli_runner().invoke(args=["floor", "token", "create", "manager"]).output.strip()
    server = Server(db_url, tmp_path / "server")
    phones, heard, arrived = {}, {pid: [] for pid in (12, 13)}, {pid: threading.Event() for pid in (12, 13)}
    try:
        server.wait()
        for pid in (12, 13):
            phone = socketio.Client()

            def on_state(state, pid=pid):
                heard[pid].append(state)
                arrived[pid].set()
            phone.on("pass.changed", on_state, namespace="/live")
            phone.connect(server.url, namespaces=["/live"], auth={"pass": token[pid]}, transports=["websocket"],
                          wait_timeout=60)
            phones[pid] = phone
        # the first on the list is taken off: both move up one place
        r = requests.post(f"{server.url}/api/waitlists/entries/{entry[11]}/remove", json={"reason": "went home"},
                          headers={"Authorization": f"Bearer {staff_token}"}, timeout=60)
        assert r.status_code == 200, r.text
        for pid in (12, 13):
            assert arrived[pid].wait(60), f"no state reached the phone of player {pid}"
        for pid, place in ((12, 1), (13, 2)):
            [state] = heard[pid]
            assert [(x["entry_id"], x["place"], x["waiting"]) for x in state["lists"]] == [(entry[pid], place, 2)]
            asked = requests.get(f"{server.url}/api/pass/{token[pid]}", timeout=60).json()
            assert {**state, "at": None} == {**asked, "at": None}        # the state his page would ask for
            text = json.dumps(state, ensure_ascii=False)
            for other in pids:
                if other != pid:
                    assert name[other] not in text and card[other] not in text
                    assert f'"entry_id": {entry[other]}' not in text
    finally:
        for phone in phones.values():
            phone.disconnect()
        server.stop()
