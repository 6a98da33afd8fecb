"""The pit in a real browser: the timeline of a coup dealt by a simulated shoe through the real device
path (pty, reader, bridge, rounds), a mis-read card corrected from the timeline, the console live
(a held round, a void waiting for a second pit boss approved from another tablet), the shift report."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import requests
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session, sessionmaker

from devices.dispatch import RoundsDispatch
from devices.simulate.shoe import ShoeSimulator
from floor import ledger, rounds
from floor.actors import Actor
from floor.games import baccarat
from floor.games.cards import Card, deck
from floor.models import DeviceFrame, Round, Transfer
from floor.rounds import bets
from floor.settings import HouseSettings
from floor.tables import table_by_number
from tests.devices.helpers import PtyLine, wait_until
from tests.e2e.conftest import shot
from tests.servers import browser_login
from tests.money import cash_in

HOUSE = HouseSettings()

CAGE = Actor("Cleo Cashier", "cashier", "cage-1")
REMOTE = Actor("remote", "admin", "api:web-front")


def _play_a_coup_through_the_shoe(engine, tmp_path) -> tuple[int, dict]:
    """Open betting with three bets, then let a simulated shoe deal the coup over a pty."""
    with Session(engine) as s:
        table = table_by_number(s, 10).id
        rounds.new_shoe(s, Actor("Dan Dealer", "dealer", "table-10-terminal"), table, house=HOUSE)
        cash_in(s, 3, 20_000, house=HOUSE)
        s.commit()
        r = rounds.open_betting(s, Actor("Dan Dealer", "dealer", "table-10-terminal"), table, house=HOUSE)
        s.commit()
        rid = r.id
        for spot, amount in (("player", 1_000), ("banker", 2_000), ("tie", 1_000)):
            bets.place(s, REMOTE, table, spot=spot, amount=amount, player_id=3, house=HOUSE)
        s.commit()
    factory = sessionmaker(bind=engine, expire_on_commit=False)
    with PtyLine(factory, tmp_path, "shoe", 10, RoundsDispatch(factory, HOUSE)) as line:
        sim = line.play(ShoeSimulator, seed=11, speed=10.0)

        def ended():
            with Session(engine) as s:
                r = s.get(Round, rid)
                return r if r.status in ("settled", "voided", "held") else None
        r = wait_until(ended, what="the coup ended")
    assert r.status == "settled", r.held_reason
    return rid, sim.coups[0]


def _a_misread(coup: dict) -> tuple[int, str, str]:
    """A card of the coup that, read as another, changes the winner but not how many cards are dealt."""
    dealt = []
    p, b = list(coup["player"]), list(coup["banker"])
    shoe_order = [p[0], b[0], p[1], b[1]] + p[2:] + b[2:]   # P B P B, the player's third, the banker's third
    real = baccarat.play(shoe_order)
    assert real.winner == coup["result"][0]
    for step in range(1, len(shoe_order) + 1):
        for card in deck():
            cards = list(shoe_order)
            cards[step - 1] = str(card)
            try:
                other = baccarat.play(cards)
            except Exception:
                continue
            if other.cards_used == len(cards) and other.winner not in (real.winner, "tie"):
                dealt.append((step, str(card), other.winner))
    assert dealt, coup
    return dealt[0]


def test_the_timeline_of_a_coup_dealt_by_a_simulated_shoe(page_as, sqlite_url, tmp_path):
    engine = create_engine(sqlite_url, connect_args={"timeout": 30})
    rid, coup = _play_a_coup_through_the_shoe(engine, tmp_path)
    with Session(engine) as s:
        frames = s.execute(select(DeviceFrame).where(DeviceFrame.round_id == rid)).scalars().all()
        assert any(f.summary.startswith("card ") for f in frames)
        balance_after_coup = ledger.player_balance(s, 3)

    page = page_as("pitboss")
    page.goto(f"/pit/rounds/{rid}")
    page.wait_for_selector("#layout-view .bac-hand")
    # The cards laid out as dealt, with pictures, the same the shoe dealt.
    for side in ("player", "banker"):
        shown = page.locator(f"#layout-view .bac-hand[data-side={side}] .pcard").evaluate_all("els => els.map(e => e.dataset.card)")
        assert shown == coup[side]
    assert page.locator("#replay-view .verdict.ok").first.inner_text().startswith("✓ Matches")
    # Every frame as received, decoded alongside; bets with who and from where; transfers.
    frame_rows = page.locator("#timeline-table tr.row-frame")
    assert frame_rows.count() >= len(coup["player"]) + len(coup["banker"]) + 2
    assert "<ETX>" in frame_rows.first.locator("code.raw").inner_text()                # control bytes by name
    assert page.locator("#timeline-table tr.row-frame:has-text('coup start')").count() == 1
    assert page.locator("#bets-table tbody tr").count() == 3
    assert "api:web-front" in page.locator("#bets-table tbody tr").first.inner_text()
    assert page.locator("#transfers-table tbody tr").count() >= 6
    shot(page, "pit_timeline")

    # The filters hide and show a kind of row.
    page.click(".chip[data-filter=frame]")
    assert page.locator("#timeline-table tr.row-frame").count() == 0
    page.click(".chip[data-filter=frame]")

    # A mis-read card: the pit boss taps it, says what it was, and the coup is re-settled.
    step, real, winner = _a_misread(coup)
    page.click("button[data-kind=correct]")
    page.click(f"#layout-view .tl-card[data-step='{step}']")
    page.fill("input[name=real_card]", real)
    page.fill("#ruling-form input[name=reason]", "the shoe misread the card; checked on the layout")
    page.click("button[data-action=rule]")
    page.wait_for_selector("#tl-corrected:not([hidden]) .tl-card.corrected")
    assert real in page.locator("#corrected-view .tl-card.corrected .pcard").get_attribute("data-card")
    assert page.locator("#corrected-view .result-line").inner_text() == f"{winner.capitalize()} wins"
    assert page.locator("#rulings-list li.ruling.applied").count() == 1
    assert page.locator("#transfers-table tr.correction").count() >= 1
    shot(page, "pit_timeline_corrected")
    with Session(engine) as s:
        stakes = {"player": 1_000, "banker": 2_000, "tie": 1_000}
        coup_now = baccarat.play([Card.parse(c) for c in s.get(Round, rid).result["cards"]])
        assert coup_now.winner == coup["result"][0]                     # the settled result row is kept
        corrected = [c for c in (s.execute(select(Transfer).where(Transfer.round_id == rid, Transfer.kind == "correction"))
                                 .scalars())]
        assert corrected
        expected = 20_000 - sum(stakes.values()) + {"player": 2_000, "banker": 3_900, "tie": 0}[winner]
        assert ledger.player_balance(s, 3) == expected != balance_after_coup
        assert ledger.check(s).ok
    engine.dispose()


def test_the_console_live_and_the_shift_report(page_as, live_server, sqlite_url):
    engine = create_engine(sqlite_url, connect_args={"timeout": 30})
    t = datetime.now(timezone.utc) - timedelta(minutes=10)
    with Session(engine) as s:
        table = table_by_number(s, 12).id
        cash_in(s, 2, 200_000, house=HOUSE)
        s.commit()
        for spin, number in ((30, 17), (31, 0)):
            rounds.wheel_status(s, table, 2, spin, (), t, house=HOUSE); s.commit()
            bets.place(s, REMOTE, table, spot="red", amount=5_000, player_id=2, at=t + timedelta(seconds=1), house=HOUSE); s.commit()
            rounds.wheel_status(s, table, 4, spin, (), t + timedelta(seconds=5), house=HOUSE); s.commit()
            out = rounds.wheel_number(s, table, spin, number, t + timedelta(seconds=9)); s.commit()
            out = rounds.wheel_status(s, table, 5, spin, (), t + timedelta(seconds=9.1), winning=number, house=HOUSE); s.commit()
            rounds.settle(s, out.settle, house=HOUSE); s.commit()
            t += timedelta(minutes=1)
    page = page_as("pitboss")
    page.wait_for_selector("#live-dot.on")
    page.wait_for_selector("#recent-rounds tbody tr[data-round]")
    assert page.locator("#recent-rounds tbody tr[data-round]").count() == 2
    assert page.locator(".held-list .empty").count() == 1

    # A wheel fault while the console is open (made here, in another process than the server: the
    # page is told to look again, as the server's own socket event would).
    with Session(engine) as s:
        rounds.wheel_status(s, table, 2, 40, (), t, house=HOUSE); s.commit()
        for spot in ("black", "even", "high"):
            bets.place(s, REMOTE, table, spot=spot, amount=40_000, player_id=2, at=t + timedelta(seconds=1), house=HOUSE)
        s.commit()
        rounds.wheel_status(s, table, 4, 40, (), t + timedelta(seconds=5), house=HOUSE); s.commit()
        rounds.wheel_status(s, table, 4, 40, {"fault"}, t + timedelta(seconds=6), house=HOUSE); s.commit()
        held = rounds.last_round(s, table).id
    page.evaluate("window.__marker = 1")
    page.evaluate("window.__pit.reloadHeld(); window.__pit.loadRounds(); window.__pit.loadGlance()")
    page.wait_for_selector(f".held-round[data-round='{held}']")
    assert "1,200.00 at stake" in page.locator(".held-round .facts").inner_text().replace("'", ",")

    # The other pit boss voids it from his tablet: 1 200.00 is above the threshold, so it waits,
    # and this console offers the approval, live (the server's ruling.changed event).
    other = requests.Session()
    token = browser_login(other, live_server.url, "pitboss2")
    resp = other.post(f"{live_server.url}/api/pit/rounds/{held}/rulings", headers={"X-CSRFToken": token},
                      json={"kind": "void", "reason": "wheel sensor fault, ball not detected"})
    assert resp.status_code == 201 and resp.json()["state"] == "pending"
    item = page.locator(f".pending-ruling[data-ruling='{resp.json()['id']}']")
    item.wait_for()
    assert "Petra Pitboss" in item.inner_text()
    assert "waits for a second pit boss" in page.locator(".held-round .waiting").inner_text()
    shot(page, "pit_console")
    item.locator("input[name=answer]").fill("seen on camera")
    # Approving moves the money at once: the tap asks first, saying what moves; "Cancel" moves nothing.
    item.locator("button[data-action=approve]").click()
    ask = page.locator("dialog.confirm-dialog[open]")
    assert "1,200.00" in ask.inner_text().replace("'", ",").replace("’", ",")
    ask.locator("[data-action=cancel]").click()
    page.wait_for_selector("dialog.confirm-dialog", state="detached")
    with Session(engine) as s:
        assert s.get(Round, held).status == "held"
    assert item.is_visible()
    item.locator("button[data-action=approve]").click()
    page.locator("dialog.confirm-dialog[open] [data-action=confirm]").click()
    page.wait_for_selector(".held-list .empty")
    page.wait_for_selector("#pending-rulings .empty")
    assert page.evaluate("window.__marker") == 1
    with Session(engine) as s:
        assert s.get(Round, held).status == "voided"
        assert ledger.player_balance(s, 2) == 200_000 - 10_000          # red lost on 17 and on 0; the void refunded
    # The pit boss who proposed cannot approve his own (from the API: 403).
    page.wait_for_function("document.querySelector('#shift-glance dd') !== null")

    page.goto("/pit/shift")
    row = page.locator("#shift-table tr[data-table='12']")
    cells = row.locator("td").all_inner_texts()
    assert cells[1] == "2" and cells[2] == "1" and cells[3].startswith("1")     # played, voided, held
    assert cells[5] == "1'300.00"                                               # drop: 2 x 50 + 3 x 400
    assert cells[9] == "100.00"                                                # red lost twice (17 is black)
    shot(page, "pit_shift_report")
    page.emulate_media(media="print")
    shot(page, "pit_shift_report_print")
    page.emulate_media(media="screen")
    csv = page.request.get("/pit/shift.csv")
    assert csv.ok and "Total" in csv.text()

    from floor.poker import conduct
    from floor.settings import HouseSettings
    with Session(engine) as s:
        from floor.models import Staff
        staff = s.execute(select(Staff).where(Staff.username == "manager")).scalar_one()
        manager = Actor(staff.name, staff.role, "floor-tablet-1", staff.id)
        w = conduct.give_warning(s, manager, 7, "electronic_device", HouseSettings(), note="phone on the table", table_id=1)
        conduct.give_warning(s, manager, 8, "cards_shown_early", HouseSettings(), table_id=1)
        conduct.ban_player(s, manager, HouseSettings(), 9, "abusive to the dealer", datetime.now(timezone.utc) + timedelta(hours=4))
        s.commit()
        warning_id = w.warning.id
    page.goto("/pit/conduct")
    page.wait_for_selector("#bans-table tbody tr[data-ban]")
    row = page.locator(f"#warnings-table tr[data-warning='{warning_id}']")
    assert "phone on the table" in row.inner_text()
    row.locator("button[data-action=lift]").click()
    row.locator("input[name=lift-reason]").fill("it was his work pager")
    row.locator("button[data-action=confirm-lift]").click()
    page.wait_for_selector(f"#warnings-table tr.lifted[data-warning='{warning_id}']")
    assert "it was his work pager" in page.locator(f"#warnings-table tr[data-warning='{warning_id}']").inner_text()
    shot(page, "pit_conduct")
    engine.dispose()
