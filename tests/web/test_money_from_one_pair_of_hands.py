"""No money appears from one person's hands on any path: tried as a hostile floor manager and a
hostile cashier would, through HTTP, on both databases. A guarantee is bounded and approved by a
second person before it can cost the house anything; cash at a tournament desk is cash at the cage
(the same count per player and gaming day, the same threshold, the same pit boss); twenty payouts of
exactly the threshold are one payout and nineteen requests; the books always balance."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import func, select

from floor import ledger
from floor.actors import Actor
from floor.models import Transfer
from floor.settings import HouseSettings
from floor.tournaments import eliminations
from tests.conftest import Login, app_session
from tests.floor.tournaments.helpers import players, tables
from tests.money import staff

HOUSE = HouseSettings()
THRESHOLD = HOUSE.cashier_two_person_cents
BASE = {"name": "Sunday Million", "game_id": 1, "buy_in": 10_000, "fee": 1_500, "structure": "daily_turbo",
        "seats_per_table": 10, "final_table_size": 9, "table_numbers": [41, 42]}


@pytest.fixture
def field(app):
    with app_session(app) as s:
        tables(s, (41, 42))
        return players(s, 12)


def _books(app) -> tuple[int, dict[int, int]]:
    with app_session(app) as s:
        balances = {pid: ledger.player_balance(s, pid) for pid in range(1, 13)}
        return s.scalar(select(func.count(Transfer.id))), balances


def _ok(app):
    with app_session(app) as s:
        assert ledger.check(s).ok


def _as(app, username: str) -> Login:
    who = Login(app.test_client())
    who(username)
    return who


@pytest.mark.parametrize("guarantee", [10_000_000_000, HOUSE.max_amount_cents + 1])
def test_a_guarantee_past_the_house_maximum_is_refused(app, field, guarantee):
    manager = _as(app, "manager")
    r = manager.post("/api/tournaments", json=BASE | {"guarantee": guarantee})
    assert r.status_code == 400 and r.get_json()["field"] == "guarantee", r.get_json()


@pytest.mark.parametrize("values", [{"bounty_kind": "knockout", "bounty": 100_000_000},
                                    {"buy_in": 60_000_000, "fee": 50_000_000},
                                    {"fee": 100_000_001}])
def test_an_entry_past_the_house_maximum_is_refused(app, field, values):
    """A knockout bounty of 1,000,000.00 (or an entry of more than the maximum) cannot be set up."""
    manager = _as(app, "manager")
    r = manager.post("/api/tournaments", json=BASE | values)
    assert r.status_code == 400 and r.get_json()["field"] in ("buy_in", "fee", "bounty"), r.get_json()


def test_a_guarantee_above_the_threshold_waits_for_a_pit_boss_and_one_manager_creates_no_money(app, field):
    manager = _as(app, "manager")
    t = manager.post("/api/tournaments", json=BASE | {"guarantee": 50_000_000, "buy_in": 1, "fee": 0}).get_json()
    for p in field[:2]:
        assert manager.post(f"/api/tournaments/{t['id']}/entries",
                            json={"player_id": p, "paid_with": "cash"}).status_code == 201
    before = _books(app)
    r = manager.post(f"/api/tournaments/{t['id']}/start")
    assert r.status_code == 409 and r.get_json()["error"] == "two_person_rule", r.get_json()
    assert _books(app) == before
    # he cannot approve it himself (the route is a pit boss's), nor can another floor manager
    assert manager.post(f"/api/tournaments/{t['id']}/guarantee/approve").status_code == 403
    assert _as(app, "manager2").post(f"/api/tournaments/{t['id']}/guarantee/approve").status_code == 403
    boss = _as(app, "pitboss")
    r = boss.post(f"/api/tournaments/{t['id']}/guarantee/approve")
    assert r.status_code == 200 and r.get_json()["guarantee_approved_by"] == "Paul Pitboss", r.get_json()
    assert manager.post(f"/api/tournaments/{t['id']}/start").status_code == 200
    entries = manager.client.get(f"/api/tournaments/{t['id']}").get_json()["entries"]
    with app_session(app) as s:   # hours later, late registration over: the bust ends it and pays the places
        out = eliminations.bust(s, staff(s, "manager"), HOUSE, t["id"], [{"entry_id": entries[0]["id"],
                                                                          "chips_at_start": 100}],
                                [entries[1]["id"]], now=datetime.now(timezone.utc) + timedelta(hours=12))
        assert out["finished"]
        s.commit()
    # the approved overlay paid the places, no more than the guarantee
    after = _books(app)[1]
    assert sum(after.values()) - sum(before[1].values()) == 50_000_000
    _ok(app)


def test_the_one_who_set_a_guarantee_up_cannot_approve_it(app, field):
    boss = _as(app, "pitboss")   # a pit boss may not create tournaments: the check is in the domain
    with app_session(app) as s:
        from floor.tournaments import setup
        creator = staff(s, "pitboss")
        t = setup.create(s, creator, HOUSE, BASE | {"guarantee": 5_000_000, "table_numbers": []})
        s.commit()
        tid = t.id
    r = boss.post(f"/api/tournaments/{tid}/guarantee/approve")
    assert r.status_code == 403 and r.get_json()["error"] == "own_request", r.get_json()


def test_cash_at_a_tournament_desk_above_the_threshold_is_refused_and_moves_nothing(app, field):
    manager = _as(app, "manager")
    t = manager.post("/api/tournaments", json=BASE | {"buy_in": 100_000_000 - 1_500}).get_json()
    before = _books(app)
    r = manager.post(f"/api/tournaments/{t['id']}/entries", json={"player_id": field[0], "paid_with": "cash"})
    assert r.status_code == 409 and r.get_json()["error"] == "two_person_rule", r.get_json()
    assert _books(app) == before
    assert manager.client.get(f"/api/tournaments/{t['id']}").get_json()["entries"] == []


def test_desk_cash_and_cage_cash_count_together_per_player_and_gaming_day(app, field):
    """900,000 at the cage, then a 200,000 entry in cash at the desk: together above the threshold."""
    cashier = _as(app, "cashier")
    assert cashier.post(f"/api/cashier/players/{field[3]}/credit", json={"amount": 900_000}).status_code == 200
    manager = _as(app, "manager")
    t = manager.post("/api/tournaments", json=BASE | {"buy_in": 198_500}).get_json()
    before = _books(app)
    r = manager.post(f"/api/tournaments/{t['id']}/entries", json={"player_id": field[3], "paid_with": "cash"})
    assert r.status_code == 409 and r.get_json()["error"] == "two_person_rule", r.get_json()
    assert _books(app) == before
    # another player's entry is his own count
    assert manager.post(f"/api/tournaments/{t['id']}/entries",
                        json={"player_id": field[4], "paid_with": "cash"}).status_code == 201
    # and the cage sees the desk's cash: 200,000 more for the second player waits for a pit boss
    r = cashier.post(f"/api/cashier/players/{field[4]}/credit", json={"amount": THRESHOLD - 100_000})
    assert r.status_code == 202 and r.get_json()["pending"]["state"] == "pending", r.get_json()


@pytest.mark.parametrize("way", ["credit", "debit"])
def test_twenty_payouts_of_exactly_the_threshold_by_one_cashier_are_one_payout_and_nineteen_requests(app, field, way):
    player = field[5]
    if way == "debit":
        with app_session(app) as s:
            from tests.money import cash_in
            cash_in(s, player, 20 * THRESHOLD // 1)   # approved at the cage: counted for no one alone
            s.commit()
    before = _books(app)
    cashier = _as(app, "cashier")
    answers = [cashier.post(f"/api/cashier/players/{player}/{way}", json={"amount": THRESHOLD}) for _ in range(20)]
    assert [a.status_code for a in answers] == [200] + [202] * 19, [a.get_json() for a in answers][:2]
    moved = _books(app)[1][player] - before[1][player]
    assert moved == (THRESHOLD if way == "credit" else -THRESHOLD)
    pending = cashier.client.get("/api/cashier/requests").get_json()
    assert len(pending) == 19 and {p["amount"] for p in pending} == {THRESHOLD}
    # one request approved by a second pit boss moves; it counts towards no one's total alone
    boss = _as(app, "pitboss2")
    assert boss.post(f"/api/cashier/requests/{pending[0]['id']}/approve", json={}).status_code == 200
    assert _books(app)[1][player] - before[1][player] == 2 * (moved)
    _ok(app)


def test_one_cashier_spreading_cash_over_many_players_meets_his_own_days_threshold(session):
    """Per person and gaming day: each player under the threshold, the cashier's day above his."""
    house = HouseSettings(actor_day_two_person_cents=3 * THRESHOLD)
    cashier = staff(session, "cashier")
    at = datetime(2026, 3, 14, 20, 0, tzinfo=timezone.utc)
    answers = [ledger.credit(session, cashier, pid, THRESHOLD, at=at, house=house) for pid in (1, 2, 3, 4)]
    assert [a.pending is None for a in answers] == [True, True, True, False]
    assert ledger.player_balance(session, 4) == 0
    # the next gaming day counts afresh
    later = datetime(2026, 3, 15, 20, 0, tzinfo=timezone.utc)
    assert ledger.credit(session, cashier, 4, THRESHOLD, at=later, house=house).pending is None


def test_an_approver_of_the_wrong_role_or_the_asker_himself_is_refused(session):
    cashier, boss = staff(session, "cashier"), staff(session, "pitboss")
    made = ledger.credit(session, cashier, 2, 2 * THRESHOLD, house=HOUSE).pending
    for who, code in ((cashier, "own_request"), (staff(session, "admin"), "approver_role"),
                      (staff(session, "manager"), "approver_role")):
        with pytest.raises(ledger.NotAllowed) as refused:
            ledger.approve_cash(session, who, made.id, house=HOUSE)
        assert refused.value.code == code
    assert ledger.player_balance(session, 2) == 0
    ledger.approve_cash(session, boss, made.id, house=HOUSE)
    assert ledger.player_balance(session, 2) == 2 * THRESHOLD


def test_a_dealer_or_a_floor_manager_cannot_take_cash_at_the_cage_in_the_domain(session):
    for who in (Actor("d", "dealer", "t", None), staff(session, "manager")):
        with pytest.raises(ledger.NotAllowed) as refused:
            ledger.credit(session, who, 1, 100, house=HOUSE)
        assert refused.value.code == "money_role"


def _running(app, manager: Login, field, n: int, **values) -> tuple[int, list[dict]]:
    """A tournament of ``n`` players paid in cash at the desk, started, late registration over."""
    t = manager.post("/api/tournaments", json=BASE | values).get_json()
    for p in field[:n]:
        assert manager.post(f"/api/tournaments/{t['id']}/entries",
                            json={"player_id": p, "paid_with": "cash"}).status_code == 201
    assert manager.post(f"/api/tournaments/{t['id']}/start").status_code == 200
    with app_session(app) as s:   # the clock hours on: late registration is over
        from floor.models import Tournament
        row = s.get(Tournament, t["id"])
        row.started_at = row.started_at - timedelta(hours=12)
        s.commit()
    return t["id"], [e for e in manager.client.get(f"/api/tournaments/{t['id']}").get_json()["entries"]]


def test_one_floor_manager_recording_every_agreement_to_a_deal_pays_nothing(app, field):
    manager = _as(app, "manager")
    tid, entries = _running(app, manager, field, 3)
    with app_session(app) as s:   # one out: two left, both in the money
        eliminations.bust(s, staff(s, "manager"), HOUSE, tid, [{"entry_id": entries[0]["id"], "chips_at_start": 100}],
                          [entries[1]["id"]])
        s.commit()
    left = [entries[1]["id"], entries[2]["id"]]
    d = manager.post(f"/api/tournaments/{tid}/deals", json={"method": "chip_chop", "save": 0,
                                                           "stacks": [{"entry_id": left[0], "chips": 40_000},
                                                                      {"entry_id": left[1], "chips": 20_000}]})
    assert d.status_code == 201, d.get_json()
    deal = d.get_json()["id"]
    before = _books(app)
    for e in left:
        r = manager.post(f"/api/tournaments/{tid}/deals/{deal}/agree", json={"entry_id": e})
        assert r.status_code == 200, r.get_json()
    assert r.get_json()["status"] == "agreed"
    assert _books(app) == before, "one floor manager paid a deal"
    own = manager.post(f"/api/tournaments/{tid}/deals/{deal}/approve")
    assert own.status_code == 403 and own.get_json()["error"] == "own_request"
    assert _as(app, "cashier").post(f"/api/tournaments/{tid}/deals/{deal}/approve").status_code == 403
    assert _books(app) == before
    paid = _as(app, "pitboss").post(f"/api/tournaments/{tid}/deals/{deal}/approve")
    assert paid.status_code == 200 and paid.get_json()["status"] == "paid", paid.get_json()
    assert paid.get_json()["approved_by"] == "Paul Pitboss"
    after = _books(app)[1]
    assert sum(after.values()) - sum(before[1].values()) == sum(paid.get_json()["amounts"]) == 3 * 10_000
    _ok(app)


def test_a_pit_boss_cannot_cancel_alone(app, field):
    manager = _as(app, "manager")
    tid, entries = _running(app, manager, field, 3)
    boss = _as(app, "pitboss")
    stacks = [{"entry_id": e["id"], "chips": 20_000} for e in entries]
    before = _books(app)
    r = boss.post(f"/api/tournaments/{tid}/cancel", json={"reason": "fire alarm", "stacks": stacks, "rule": "refund"})
    assert r.status_code == 202 and r.get_json()["pending"] and r.get_json()["shares"] == [], r.get_json()
    assert _books(app) == before
    detail = boss.client.get(f"/api/tournaments/{tid}").get_json()
    assert detail["status"] == "running" and detail["cancel_request"]["requested_by"] == "Paul Pitboss"
    own = boss.post(f"/api/tournaments/{tid}/cancel/approve")
    assert own.status_code == 403 and own.get_json()["error"] == "own_request"
    assert _as(app, "admin").post(f"/api/tournaments/{tid}/cancel/approve").status_code == 403
    assert _books(app) == before
    done = _as(app, "pitboss2").post(f"/api/tournaments/{tid}/cancel/approve")
    assert done.status_code == 200 and done.get_json()["approved_by"] == "Petra Pitboss", done.get_json()
    assert [s["total"] for s in done.get_json()["shares"]] == [11_500] * 3
    assert sum(_books(app)[1].values()) - sum(before[1].values()) == 3 * 11_500
    assert _as(app, "pitboss2").post(f"/api/tournaments/{tid}/cancel/approve").status_code == 409
    _ok(app)


def test_a_cancellation_turned_down_moves_nothing(app, field):
    manager = _as(app, "manager")
    t = manager.post("/api/tournaments", json=BASE).get_json()
    assert manager.post(f"/api/tournaments/{t['id']}/entries",
                        json={"player_id": field[0], "paid_with": "cash"}).status_code == 201
    before = _books(app)
    assert manager.post(f"/api/tournaments/{t['id']}/cancel", json={"reason": "no field"}).status_code == 202
    r = _as(app, "pitboss").post(f"/api/tournaments/{t['id']}/cancel/reject", json={"reason": "we wait an hour"})
    assert r.status_code == 200 and r.get_json()["cancel_request"] is None and r.get_json()["status"] == "registering"
    assert _as(app, "pitboss").post(f"/api/tournaments/{t['id']}/cancel/approve").status_code == 409
    assert _books(app) == before


def test_two_payouts_to_one_player_at_once_count_each_other(app, session):
    """A cashier and a pit boss each credit the threshold to the same player at the same moment: the
    second counts the first (row lock; SQLite's write lock), so one moves and one waits."""
    import threading

    from sqlalchemy.orm import Session

    from floor.web.extensions import db
    engine = db.engine
    barrier = threading.Barrier(2)
    results, errors = [], []

    people = {u: staff(session, u) for u in ("cashier", "pitboss")}
    session.commit()

    def credit(username: str):
        try:
            barrier.wait()
            with Session(engine) as s:
                out = ledger.credit(s, people[username], 6, THRESHOLD, house=HOUSE)
                s.commit()
                results.append("waits" if out.pending is not None else "moved")
        except Exception as e:   # shown by the assertion below
            errors.append(e)

    threads = [threading.Thread(target=credit, args=(u,)) for u in ("cashier", "pitboss")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    assert sorted(results) == ["moved", "waits"]
    session.expire_all()
    assert ledger.player_balance(session, 6) == THRESHOLD
    assert ledger.check(session).ok
