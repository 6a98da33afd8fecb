"""A 30-player, three-table tournament in a real browser, from late registration to a deal at four:
late entries with drawn seats, re-entries, two out on one hand, balancing moves, a table broken, the
final table, the clock on the TV board moving by the scheduler's timer, an ICM deal agreed player by
player. Seats, places and every payout are checked against the pure rules; the ledger balances."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import create_engine, update
from sqlalchemy.orm import Session

from floor import ledger
from floor.games import tournament as rules
from floor.models import Player, Timer, Tournament, TournamentMove, TournamentPause
from floor.tournaments import clock, core, registration
from tests.e2e.conftest import shot, stop_after_pages, watch
from tests.floor.tournaments.helpers import HOUSE, manager, players, tables, tournament
from tests.servers import Server


@pytest.fixture
def scheduled_server(request, sqlite_url, tmp_path):
    """The app with its scheduler, so the clock's timers fire as they would on the floor."""
    server = Server(sqlite_url, tmp_path / "instance", FLOOR_APP_RUN_SCHEDULER="true").wait()
    yield server
    stop_after_pages(request, server)


def _db(url):
    engine = create_engine(url)
    return engine, Session(engine)


def _arrange(url) -> tuple[int, list[int]]:
    """27 players seated at three tables, the clock started 20 minutes ago (level 2)."""
    engine, s = _db(url)
    now = datetime.now(timezone.utc)
    tables(s)
    ids = players(s, 30)
    t = tournament(s, bounty_kind="knockout", bounty=2_000, max_reentries=1)
    m = manager(s)
    for p in ids[:27]:
        registration.register(s, m, HOUSE, t.id, p, "cash", now - timedelta(minutes=40))
    clock.start(s, m, t.id, now - timedelta(minutes=20))
    clock.tick(s, t.id, now)
    s.commit()
    tid = t.id
    s.close()
    engine.dispose()
    return tid, ids


def _state(url, tid):
    engine, s = _db(url)
    t = s.get(Tournament, tid)
    return engine, s, t


def _register(page, player_id, name):
    # the player picker: part of the name, then one tap on the player
    page.fill("#tn-player", name)
    page.wait_for_selector(f".tn-register .search-results[data-query='{name}'] button[data-player='{player_id}']")
    page.click(f".tn-register button[data-player='{player_id}']")
    try:
        page.wait_for_selector(f"#tn-receipt:has-text('{name}')")
    except Exception:
        print("TOASTS", page.evaluate("document.getElementById('toasts')?.innerText"))
        raise
    return page.inner_text("#tn-receipt")


def _bust(page, out: dict[int, int], winner: int):
    for entry_id, chips in out.items():
        page.check(f".tn-out[value='{entry_id}']")
        page.fill(f".tn-chips[data-entry='{entry_id}']", str(chips))
    page.click(f".tn-winner[data-entry='{winner}']")
    for entry_id in out:
        page.wait_for_selector(f"tr[data-entry='{entry_id}'][data-status='out']")


def _make_moves(page):
    # one move at a time, named by its id: a live redraw may reorder or add moves between two looks
    while page.locator("li[data-move] button").count():
        move = page.locator("li[data-move]").first.get_attribute("data-move")
        page.locator(f"li[data-move='{move}'] button").click()
        page.wait_for_selector(f"li[data-move='{move}']", state="detached")


def test_thirty_players_to_a_deal_at_four(browser, scheduled_server, sqlite_url):
    tid, ids = _arrange(sqlite_url)

    def page_as(username):
        ctx = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=scheduled_server.url)
        page = ctx.new_page()
        watch(page)
        page.set_default_timeout(60_000)
        page.goto("/login")
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", "floorman-demo")
        page.click("button[type=submit]")
        page.wait_for_load_state("networkidle")
        return page

    board = page_as("display")
    board.goto(f"/tournaments/{tid}/clock")
    board.wait_for_selector("#live-dot.on")
    board.wait_for_selector(".tc-level[data-level='2']")
    assert "27 of 27" in board.inner_text(".tc-players")

    floor = page_as("manager")
    floor.goto("/tournaments")
    floor.wait_for_selector("#live-dot.on")
    floor.wait_for_selector(".tn-clock")

    # late registration: three players, each seated by a recorded draw at a short table
    engine, s, t = _state(sqlite_url, tid)
    names = {p.id: p.name for p in s.query(Player).filter(Player.id.in_(ids))}
    s.close()
    for p in ids[27:]:
        assert "table" in _register(floor, p, names[p])
    with floor.expect_popup() as popup:
        floor.get_by_role("link", name="Print the receipt").click()
    receipt = popup.value
    receipt.wait_for_selector(".tr-receipt")
    assert names[ids[29]] in receipt.inner_text(".tr-player") and "Table 4" in receipt.inner_text(".tr-seat")
    shot(receipt, "tournament-receipt")
    receipt.close()
    board.wait_for_function("document.querySelector('.tc-players .tc-value').textContent.startsWith('30')")
    engine, s, t = _state(sqlite_url, tid)
    assert sorted(len(r) for r in core.layout(s, t).values()) == [10, 10, 10]
    s.close()

    # two busts and their re-entries at the desk
    for k in (0, 12):
        engine, s, t = _state(sqlite_url, tid)
        seated = core.entries(s, t, "seated")
        victim = seated[k]
        mate = next(e for e in seated if e.table_id == victim.table_id and e.id != victim.id)
        s.close()
        _bust(floor, {victim.id: 4_000}, mate.id)
        _make_moves(floor)
        assert "re-entry 1" in _register(floor, victim.player_id, names[victim.player_id])

    # the evening moves on: late registration (levels 1-6 and the break) is over; the scheduler's
    # timer moves the board to the level in play
    with engine.begin() as c:
        c.execute(update(Tournament).where(Tournament.id == tid)
                  .values(started_at=datetime.now(timezone.utc) - timedelta(minutes=112)))
        c.execute(update(Timer).where(Timer.key == f"tournament:{tid}:clock", Timer.status == "pending")
                  .values(due_at=datetime.now(timezone.utc)))
    board.wait_for_selector(".tc-level[data-level='7']")
    shot(board, "tournament-clock")

    # two out on one hand: the bigger stack at the start of the hand finishes higher
    engine, s, t = _state(sqlite_url, tid)
    seated = core.entries(s, t, "seated")
    a = seated[0]
    b, w = [e for e in seated if e.table_id == a.table_id and e.id != a.id][:2]
    left = len(seated)
    s.close()
    _bust(floor, {a.id: 9_000, b.id: 15_000}, w.id)
    _make_moves(floor)
    engine, s, t = _state(sqlite_url, tid)
    assert (core.entry(s, t, a.id).place, core.entry(s, t, b.id).place) == (left, left - 1)
    assert core.entry(s, t, w.id).bounties_won == 4_000
    s.close()

    # the dealer terminal of the fullest table: the clock's blinds; he records a bust there and the
    # floor tablet follows live (no reload)
    engine, s, t = _state(sqlite_url, tid)
    layout = core.layout(s, t)
    n = max(layout, key=lambda k: (len(layout[k]), k))
    victim, mate = [layout[n][seat] for seat in sorted(layout[n])][:2]
    s.close()
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=scheduled_server.url)
    dealer = ctx.new_page()
    dealer.set_default_timeout(60_000)
    dealer.goto(f"/dealer/{n}/login")
    dealer.fill("input[name=username]", "dealer")
    dealer.fill("input[name=pin]", "1234")
    dealer.click("button[type=submit]")
    dealer.wait_for_selector("#live-dot.on")
    assert "Level 7" in dealer.inner_text(".tn-clock h2")
    floor.evaluate("window.__marker = 7")
    dealer.check(f".tn-out[value='{victim}']")
    dealer.fill(f".tn-chips[data-entry='{victim}']", "2500")
    dealer.select_option("#td-winner", str(mate))
    dealer.get_by_role("button", name="Record the players out on this hand").click()
    dealer.wait_for_selector(f"tr[data-entry='{victim}']", state="detached")
    floor.wait_for_selector(f"tr[data-entry='{victim}'][data-status='out']")
    assert floor.evaluate("window.__marker") == 7
    shot(dealer, "tournament-dealer")
    _make_moves(floor)

    broken = final = False
    while True:
        engine, s, t = _state(sqlite_url, tid)
        layout = core.layout(s, t)
        assert max(map(len, layout.values())) - min(map(len, layout.values())) <= 1
        if len(core.entries(s, t, "seated")) == 4:
            break
        n = max(layout, key=lambda k: (len(layout[k]), k))
        victim = layout[n][min(layout[n])]
        mate = next(e for seat, e in sorted(layout[n].items()) if e != victim)
        place = len(core.entries(s, t, "seated"))
        s.close()
        _bust(floor, {victim: 1_000}, mate)
        engine, s, t = _state(sqlite_url, tid)
        e = core.entry(s, t, victim)
        pays = core.payouts(s, t, HOUSE.tournament_payout_unit)
        assert e.place == place and e.prize == (pays[place - 1] if place <= len(pays) else 0)
        moves = s.query(TournamentMove).filter_by(tournament_id=tid).all()
        broken |= any(m.reason == "break" for m in moves)
        final |= any(m.reason == "final_table" for m in moves)
        s.close()
        _make_moves(floor)
    assert broken and final
    assert list(layout) == [43]
    shot(floor, "tournament-final-table")

    # a deal at four by ICM, paid once all four agree
    engine, s, t = _state(sqlite_url, tid)
    four = core.entries(s, t, "seated")
    prizes = list(core.payouts(s, t, HOUSE.tournament_payout_unit)[:4])
    s.close()
    stacks = dict(zip((e.id for e in four), (310_000, 200_000, 150_000, 80_000)))
    for entry_id, chips in stacks.items():
        floor.fill(f".tn-chips[data-entry='{entry_id}']", str(chips))
    floor.select_option("#tn-deal-method", "icm")
    floor.get_by_role("button", name="Compute the deal").click()
    floor.wait_for_selector(".tn-deal tr[data-entry]")
    expected = rules.icm(list(stacks.values()), prizes)
    shown = floor.locator(".tn-deal .tn-amount").all_inner_texts()
    assert len(shown) == 4
    shot(floor, "tournament-deal")
    for entry_id in stacks:
        floor.locator(f".tn-deal tr[data-entry='{entry_id}'] button").click()
        floor.wait_for_selector(f".tn-deal tr[data-entry='{entry_id}'] button", state="detached")
    floor.wait_for_selector(".tn-clock[data-status='finished']")

    engine, s, t = _state(sqlite_url, tid)
    assert t.status == "finished"
    got = [core.entry(s, t, i).prize for i in stacks]
    assert got == expected and sum(got) == sum(prizes)
    everyone = core.entries(s, t)
    assert sum(e.prize for e in everyone) == 32 * 10_000
    assert sum(e.bounties_won for e in everyone) == 32 * 2_000
    assert ledger.balance(s, core.account(s, t, "prize_pool")) == 0
    assert ledger.balance(s, core.account(s, t, "fees")) == 32 * 1_500
    assert ledger.check(s).ok
    assert s.query(TournamentPause).count() == 0
    s.close()
    engine.dispose()

    floor.goto(f"/tournaments/{tid}/results")
    assert floor.locator(".tr-standings tbody tr").count() == 32
    shot(floor, "tournament-results")
