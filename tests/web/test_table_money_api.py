"""The table's money through the API, route by route as the money rules are walked: each signature
by its own account, a dealer terminal bound to its table, absurd counts and amounts refused with a
4xx that loses nothing, a receipt tapped twice at once moving the chips once, and the shift report's
handle, drop, win and hold."""
from __future__ import annotations

import threading

import pytest
from sqlalchemy import func, select

from floor import ledger
from floor.models import Transfer
from tests.conftest import Login, app_session

T = "/api/tables/12"


def who(app, username, dealer_table=None) -> Login:
    one = Login(app.test_client())
    if dealer_table is None:
        one(username)
    else:
        one.dealer(dealer_table, username=username, pin={"dealer": "1234", "dealer2": "2345"}[username])
    return one


def tray(app) -> int:
    with app_session(app) as s:
        return ledger.balance(s, ledger.table_account(s, _tid(s), "tray"))


def _tid(s) -> int:
    from floor.tables import table_by_number
    return table_by_number(s, 12).id


def transfers(app, kind) -> int:
    with app_session(app) as s:
        return s.execute(select(func.count(Transfer.id)).where(Transfer.kind == kind)).scalar_one()


def test_a_count_needs_a_second_person(app):
    dealer, boss, boss2 = who(app, "dealer", 12), who(app, "pitboss"), who(app, "pitboss2")
    made = dealer.post(f"{T}/counts", json={"kind": "opening", "chips": {"10000": 100, "2500": 40}})
    assert made.status_code == 201 and made.get_json()["total"] == 1_100_000 and not made.get_json()["verified"]
    cid = made.get_json()["id"]
    assert dealer.post(f"{T}/counts/{cid}/verify", json={}).status_code == 403        # a dealer
    own = boss.post(f"{T}/counts", json={"kind": "interim", "chips": {"100": 1}}).get_json()["id"]
    resp = boss.post(f"{T}/counts/{own}/verify", json={})
    assert resp.status_code == 403 and resp.get_json()["error"] == "own_count"
    assert boss2.post(f"{T}/counts/{own}/verify", json={}).status_code == 200
    assert boss.post(f"{T}/counts/{cid}/verify", json={}).status_code == 200
    assert boss2.post(f"{T}/counts/{cid}/verify", json={}).status_code == 409
    assert boss.post(f"/api/tables/10/counts/{cid}/verify", json={}).status_code == 404   # not table 10's
    sheet = boss.client.get(f"{T}/money").get_json()
    assert [c["count"]["verified_by_name"] for c in sheet["counts"]] == ["Paul Pitboss", "Petra Pitboss"]
    assert sheet["counts"][1]["difference"] == 100 - 1_100_000


@pytest.mark.parametrize("chips", [{"10000": -1}, {"10000": 1.5}, {"10000": True}, {"2000": 1}, {"x" * 13: 1},
                                   {"10000": 10**9}, {}, [], "5", {str(d): 1 for d in range(1, 30)}])
def test_absurd_counts_are_4xx_and_write_nothing(app, chips):
    dealer = who(app, "dealer", 12)
    for url, kind in ((f"{T}/counts", "opening"), (f"{T}/slips", "fill")):
        resp = dealer.post(url, json={"kind": kind, "chips": chips})
        assert resp.status_code == 400, resp.get_json()
        assert resp.get_json()["error"] in ("bad_input", "validation_error", "invalid_game_input")
    assert dealer.client.get(f"{T}/money").get_json()["counts"] == []
    assert dealer.client.get(f"{T}/money").get_json()["slips"] == []


@pytest.mark.parametrize("amount", [-100, 0, 10.5, True, "100", 10**12, 2**63])
def test_absurd_buy_ins_are_4xx(app, amount):
    dealer = who(app, "dealer", 12)
    resp = dealer.post(f"{T}/buy-ins", json={"amount": amount, "method": "cash", "seat": 1})
    assert resp.status_code == 400
    assert dealer.client.get(f"{T}/money").get_json()["buy_ins"] == []


def test_a_dealer_terminal_works_only_its_own_table(app):
    dealer = who(app, "dealer", 12)
    for url, body in ((f"/api/tables/10/counts", {"kind": "opening", "chips": {"100": 1}}),
                      (f"/api/tables/10/slips", {"kind": "fill", "chips": {"100": 1}}),
                      (f"/api/tables/10/buy-ins", {"amount": 100})):
        resp = dealer.post(url, json=body)
        assert resp.status_code == 403 and resp.get_json()["error"] == "wrong_table"
    boss = who(app, "pitboss")
    serial = boss.post("/api/tables/10/slips", json={"kind": "fill", "chips": {"100": 1}}).get_json()["serial"]
    who(app, "cashier").post(f"/api/slips/{serial}/issue", json={})
    assert dealer.post(f"{T}/slips/{serial}/receive", json={}).status_code == 404          # table 10's slip
    assert dealer.post(f"/api/tables/10/slips/{serial}/receive", json={}).status_code == 403


def test_a_fill_signed_through_and_a_double_tap_receipt_moves_the_chips_once(app):
    dealer, cage, boss = who(app, "dealer", 12), who(app, "cashier"), who(app, "pitboss")
    before = tray(app)
    slip = dealer.post(f"{T}/slips", json={"kind": "fill", "chips": {"10000": 5}}).get_json()
    serial = slip["serial"]
    assert slip["state"] == "requested" and slip["table"] == 12
    assert [s["serial"] for s in cage.client.get("/api/slips").get_json()] == [serial]
    assert dealer.post(f"/api/slips/{serial}/issue", json={}).status_code == 403           # not the cage
    assert dealer.post(f"{T}/slips/{serial}/receive", json={}).get_json()["error"] == "slip_not_issued"
    assert cage.post(f"/api/slips/{serial}/issue", json={}).status_code == 200
    assert cage.post(f"/api/slips/{serial}/issue", json={}).status_code == 409
    assert tray(app) == before                                                             # not received yet
    answers = []
    barrier = threading.Barrier(2)

    def tap(client):
        barrier.wait()
        answers.append(client.post(f"{T}/slips/{serial}/receive", json={}).status_code)
    threads = [threading.Thread(target=tap, args=(c,)) for c in (dealer, boss)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [200, 409]
    assert tray(app) == before + 50_000 and transfers(app, "fill") == 1
    resp = boss.post(f"/api/slips/{serial}/cancel", json={"reason": "too late"})
    assert resp.status_code == 409 and resp.get_json()["error"] == "slip_received"
    got = boss.client.get(f"/api/slips/{serial}").get_json()
    assert (got["issued_by_name"], got["state"]) == ("Cleo Cashier", "received")
    with app_session(app) as s:
        assert ledger.check(s).ok


def test_a_slip_is_cancelled_with_a_reason_and_keeps_its_serial(app):
    dealer, cage = who(app, "dealer", 12), who(app, "cashier")
    a = dealer.post(f"{T}/slips", json={"kind": "credit", "chips": {"50000": 1}}).get_json()["serial"]
    assert dealer.post(f"{T}/slips/{a}/cancel", json={"reason": ""}).status_code == 400
    assert dealer.post(f"{T}/slips/{a}/cancel", json={}).status_code == 400
    assert cage.post(f"/api/slips/{a}/cancel", json={"reason": "sent by mistake"}).status_code == 200
    assert dealer.post(f"{T}/slips/{a}/cancel", json={"reason": "again"}).status_code == 409
    b = dealer.post(f"{T}/slips", json={"kind": "fill", "chips": {"100": 1}}).get_json()["serial"]
    assert b == a + 1
    assert transfers(app, "table_credit") == 0


def test_the_drop_is_counted_by_two_people(app):
    dealer, cage, boss = who(app, "dealer", 12), who(app, "cashier"), who(app, "pitboss")
    assert dealer.post(f"{T}/buy-ins", json={"amount": 30_000, "method": "cash", "seat": 2}).status_code == 201
    day = dealer.client.get(f"{T}/money").get_json()["day"]
    assert dealer.post(f"{T}/drop", json={"day": "2024-01-01", "total": 1}).status_code == 403
    made = cage.post(f"{T}/drop", json={"day": _today(app), "total": 30_000})
    assert made.status_code == 201
    did = made.get_json()["id"]
    assert cage.post(f"/api/drop-counts/{did}/verify", json={}).get_json()["error"] == "own_count"
    assert cage.post(f"{T}/drop", json={"day": _today(app), "total": 1}).status_code == 409
    assert boss.post(f"/api/drop-counts/{did}/verify", json={}).status_code == 200
    day = boss.client.get(f"{T}/money").get_json()["day"]
    assert (day["recorded_drop"], day["counted_drop"], day["drop_difference"]) == (30_000, 30_000, 0)
    for bad in ({"day": "yesterday", "total": 1}, {"day": _today(app), "total": -1}, {"day": _today(app), "total": 1.5}):
        assert cage.post(f"{T}/drop", json=bad).status_code == 400


def _today(app) -> str:
    from datetime import datetime, timezone

    from floor.gaming_day import gaming_day
    h = app.config["HOUSE"]
    return gaming_day(datetime.now(timezone.utc), h.timezone, h.gaming_day_rollover).isoformat()


def test_the_shift_report_says_handle_and_shows_drop_win_and_hold(app):
    dealer, boss, cage = who(app, "dealer", 12), who(app, "pitboss"), who(app, "cashier")
    cid = dealer.post(f"{T}/counts", json={"kind": "opening", "chips": {"10000": 100}}).get_json()["id"]
    boss.post(f"{T}/counts/{cid}/verify", json={})
    dealer.post(f"{T}/buy-ins", json={"amount": 20_000})
    serial = dealer.post(f"{T}/slips", json={"kind": "fill", "chips": {"10000": 3}}).get_json()["serial"]
    cage.post(f"/api/slips/{serial}/issue", json={})
    dealer.post(f"{T}/slips/{serial}/receive", json={})
    # no round played: the tray holds 1,000,000 - 20,000 + 30,000; the closing count finds 5,000 more
    cid = dealer.post(f"{T}/counts", json={"kind": "closing", "chips": {"10000": 101, "2500": 2}}).get_json()["id"]
    assert boss.post(f"{T}/counts/{cid}/verify", json={}).status_code == 200
    fig = boss.client.get("/api/pit/shift?table_number=12").get_json()
    [row] = fig["tables"]
    assert "handle" in row and row["handle"] == 0
    assert (row["drop"], row["fills"], row["win"], row["hold"], row["difference"]) == (20_000, 30_000, 5_000, 2_500, 5_000)
    csv = boss.client.get("/pit/shift.csv?table=12").get_data(as_text=True)
    head, line = csv.splitlines()[:2]
    assert "Handle" in head and ",Drop," in head and "Hold %" in head
    assert line.endswith("200.00,300.00,0.00,50.00,25.00,0.00,50.00")
    alerts = boss.client.get("/api/alerts").get_json()
    assert any(a["kind"] == "table_reconciliation" and "50.00" in a["message"] for a in alerts)


def test_slips_requested_at_once_get_consecutive_serials_and_a_count_is_verified_once(app):
    tablets = [who(app, "dealer", 12), who(app, "pitboss"), who(app, "manager"), who(app, "pitboss2")]
    barrier = threading.Barrier(len(tablets))
    serials = []

    def ask(t):
        barrier.wait()
        resp = t.post(f"{T}/slips", json={"kind": "fill", "chips": {"100": 1}})
        assert resp.status_code == 201, resp.get_json()
        serials.append(resp.get_json()["serial"])
    threads = [threading.Thread(target=ask, args=(t,)) for t in tablets]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(serials) == list(range(min(serials), min(serials) + 4))

    cid = tablets[0].post(f"{T}/counts", json={"kind": "opening", "chips": {"100": 1}}).get_json()["id"]
    answers = []
    barrier2 = threading.Barrier(3)

    def verify(t):
        barrier2.wait()
        answers.append(t.post(f"{T}/counts/{cid}/verify", json={}).status_code)
    threads = [threading.Thread(target=verify, args=(t,)) for t in tablets[1:]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [200, 409, 409]


def test_a_fill_above_the_threshold_waits_for_its_second_person_route_by_route(app):
    dealer, cage, boss, boss2 = who(app, "dealer", 12), who(app, "cashier"), who(app, "pitboss"), who(app, "pitboss2")
    big = {"100000": app.config["HOUSE"].slip_two_person_cents // 100_000 + 1}
    serial = dealer.post(f"{T}/slips", json={"kind": "fill", "chips": big}).get_json()["serial"]
    assert cage.post(f"/api/slips/{serial}/issue", json={}).status_code == 200
    before = tray(app)
    alone = dealer.post(f"{T}/slips/{serial}/receive", json={})
    assert alone.status_code == 409 and alone.get_json()["error"] == "two_person_rule"
    assert tray(app) == before and transfers(app, "fill") == 0
    assert dealer.post(f"/api/slips/{serial}/approve", json={}).status_code == 403      # a dealer approves nothing
    assert cage.post(f"/api/slips/{serial}/approve", json={}).status_code == 403        # nor the cage
    assert boss.post(f"/api/slips/{serial}/approve", json={}).status_code == 200
    assert boss2.post(f"/api/slips/{serial}/approve", json={}).status_code == 409
    same = boss.post(f"{T}/slips/{serial}/receive", json={})                            # the approver receiving it
    assert same.status_code == 403 and same.get_json()["error"] == "own_request"
    assert dealer.post(f"{T}/slips/{serial}/receive", json={}).status_code == 200
    assert tray(app) == before + app.config["HOUSE"].slip_two_person_cents + 100_000
    own = boss.post(f"{T}/slips", json={"kind": "credit", "chips": big}).get_json()["serial"]
    resp = boss.post(f"/api/slips/{own}/approve", json={})
    assert resp.status_code == 403 and resp.get_json()["error"] == "own_request"


def test_a_dealer_who_takes_the_table_is_asked_for_a_count_where_the_house_counts_at_each_change(app):
    from dataclasses import replace
    app.config["HOUSE"] = replace(app.config["HOUSE"], count_at_dealer_change=True)
    first = who(app, "dealer", 12)
    assert first.post(f"{T}/counts", json={"kind": "opening", "chips": {"10000": 100}}).status_code == 201
    assert first.client.get(f"{T}/money").get_json()["count_due"] is None
    second = who(app, "dealer2", 12)                     # logging in at the table, she relieves him
    due = second.client.get(f"{T}/money").get_json()["count_due"]
    assert due is not None and due["dealer_name"] == "Dora Dealer"
    assert second.post(f"{T}/counts", json={"kind": "interim", "chips": {"10000": 100}}).status_code == 201
    assert second.client.get(f"{T}/money").get_json()["count_due"] is None
