"""Live games in a real browser: the dealer terminal plays a blackjack, a roulette and a baccarat
round; the board shows roulette history and baccarat roads; the pit voids a held round."""
from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from floor import ledger, rounds
from floor.actors import Actor
from floor.rounds import bets
from floor.settings import HouseSettings
from floor.tables import table_by_number
from tests.e2e.conftest import TV, shot
from tests.money import cash_in

HOUSE = HouseSettings()

T = datetime.now(timezone.utc) - timedelta(hours=1)
DEVICE = Actor.device("test-device")


def _db(sqlite_url):
    return create_engine(sqlite_url, connect_args={"timeout": 30})


def _event(s, fn, *args, **kw):
    out = fn(s, *args, **kw)
    s.commit()
    if out is not None and out.settle:
        rounds.settle(s, out.settle, house=HOUSE)
        s.commit()
    return out


def _spin(s, table, spin, number, t):
    _event(s, rounds.wheel_status, table, 2, spin, (), t, house=HOUSE)
    _event(s, rounds.wheel_status, table, 4, spin, (), t + timedelta(seconds=5), house=HOUSE)
    _event(s, rounds.wheel_number, table, spin, number, t + timedelta(seconds=9))
    _event(s, rounds.wheel_status, table, 5, spin, (), t + timedelta(seconds=9.1), winning=number, house=HOUSE)


def test_dealer_terminal_plays_blackjack_with_decisions(page_as):
    page = page_as("dealer", table=14)
    page.wait_for_selector("#live-dot.on")
    page.click("#btn-open")
    page.wait_for_selector(".round-status.betting")
    page.select_option("#bet-form select[name=seat]", "2")
    page.fill("#bet-form input[name=amount]", "20")
    page.click("#bet-form button[type=submit]")
    page.wait_for_selector("#bets tr")
    page.select_option("#bet-form select[name=seat]", "5")
    page.fill("#bet-form input[name=amount]", "50")
    page.click("#bet-form button[type=submit]")
    page.wait_for_selector("#bets tr:nth-child(2)")
    assert page.locator("#timer").is_visible()
    page.click("#btn-close")
    page.wait_for_selector(".round-status.dealing")
    for card in ("TH", "KD", "6S", "6D", "9C", "TC"):   # seat 2, seat 5, dealer up, seat 2, seat 5, hole
        page.fill("#card-form input[name=card]", card)
        page.click("#card-form button[type=submit]")
        page.wait_for_function(f"document.querySelectorAll('#round-view .pcard').length >= {['TH','KD','6S','6D','9C','TC'].index(card) + 1}")
    page.wait_for_selector(".seat-box.active[data-seat='2']")
    assert "Seat 2 to decide" in page.locator(".next-line").inner_text()
    assert page.locator(".dealer-box .pcard.back").count() == 1          # the hole card stays hidden
    shot(page, "dealer_blackjack_decision")
    page.click("#decisions button[data-action=stand]")
    page.wait_for_selector(".seat-box.active[data-seat='5']")
    page.click("#decisions button[data-action=stand]")
    page.wait_for_selector(".next-line:has-text('dealer')")
    page.fill("#card-form input[name=card]", "9H")                      # dealer 16 + 9: bust
    page.click("#card-form button[type=submit]")
    page.wait_for_selector(".round-status.settled")
    assert page.locator("#paid-total").inner_text() == "140.00"
    shot(page, "dealer_blackjack_settled")


def test_dealer_terminal_shows_a_roulette_spin_and_the_board_its_history(page_as, sqlite_url):
    engine = _db(sqlite_url)
    rng = random.Random(5)
    with Session(engine) as s:
        table = table_by_number(s, 12).id
        for i in range(14):
            _spin(s, table, 100 + i, rng.randint(0, 36), T + timedelta(minutes=i))
        _event(s, rounds.wheel_status, table, 2, 120, (), T + timedelta(minutes=30), house=HOUSE)
        cash_in(s, 1, 50_000, house=HOUSE)
        bets.place(s, Actor("api", "admin", "api"), table, spot="straight", numbers=[17], amount=1_000, player_id=1, house=HOUSE)
        s.commit()
    page = page_as("dealer", table=12)
    page.wait_for_selector(".round-status.betting")
    page.select_option("#spot-select", "red")
    page.fill("#bet-form input[name=amount]", "25")
    page.click("#bet-form button[type=submit]")
    page.select_option("#spot-select", "split")
    page.select_option("#numbers-select", label="17-20")
    page.fill("#bet-form input[name=amount]", "10")
    page.click("#bet-form button[type=submit]")
    page.wait_for_selector("#bets tr:nth-child(3)")
    with Session(engine) as s:
        t = T + timedelta(minutes=31)
        _event(s, rounds.wheel_status, table, 4, 120, (), t, house=HOUSE)
        _event(s, rounds.wheel_number, table, 120, 17, t + timedelta(seconds=4))
        _event(s, rounds.wheel_status, table, 5, 120, (), t + timedelta(seconds=4.1), winning=17, house=HOUSE)
    page.evaluate("window.__terminal.refresh()")
    page.wait_for_selector(".round-status.settled")
    assert page.locator(".wheel-result .ball.big").inner_text() == "17"
    assert page.locator("#paid-total").inner_text() == "540.00"           # 17 straight 360 + split 180; red lost
    shot(page, "dealer_roulette")

    with Session(engine) as s:                                            # a baccarat shoe for the roads
        bac = table_by_number(s, 10).id
        rounds.new_shoe(s, DEVICE, bac, house=HOUSE)
        s.commit()
        deck = [c for c in "2H 7S 3D KC 8C 9S 9H KD QC 4D 5C 6H 2S TD JH 3C 8S 7D AH AC 5S 6D 4C 9D".split()]
        coup_cards = [deck[i:i + 6] for i in range(0, 24, 6)] * 3
        for n, cards in enumerate(coup_cards):
            rounds.open_betting(s, DEVICE, bac, house=HOUSE)
            s.commit()
            rounds.close_betting(s, DEVICE, bac)
            s.commit()
            from floor.games import baccarat
            used = baccarat.play(cards).cards_used
            for c in cards[:used]:
                _event(s, rounds.card, bac, c, "scanner", house=HOUSE)
    engine.dispose()
    board = page_as("display", device=TV)     # the TV: both live games fit on one page
    board.goto("/board")
    board.wait_for_selector(".bg-panel.roulette .last-numbers .ball")
    board.wait_for_selector(".bg-panel.baccarat .bead-plate .cell")
    assert board.locator(".bg-panel.roulette .last-numbers .ball").count() == 15
    assert board.locator(".bg-panel.roulette .last-numbers .ball").first.inner_text() == "17"
    assert board.locator(".bg-panel.baccarat .bead-plate .cell").count() == 12
    shot(board, "board_games")


def test_dealer_terminal_deals_a_baccarat_coup_by_hand(page_as):
    page = page_as("dealer", table=10)
    page.wait_for_selector("#live-dot.on")
    page.click("#btn-shoe")
    page.wait_for_selector("#shoe-info:has-text('Shoe 1')")
    page.click("#btn-open")
    page.wait_for_selector(".round-status.betting")
    page.select_option("#spot-select", "banker")
    page.fill("#bet-form input[name=amount]", "100")
    page.click("#bet-form button[type=submit]")
    page.select_option("#spot-select", "player")
    page.select_option("#bet-form select[name=seat]", "3")
    page.fill("#bet-form input[name=amount]", "40")
    page.click("#bet-form button[type=submit]")
    page.wait_for_selector("#bets tr:nth-child(2)")
    page.click("#btn-close")
    page.wait_for_selector(".round-status.dealing")
    for n, card in enumerate(("2H", "7S", "3D", "KC", "8C"), start=1):
        page.fill("#card-form input[name=card]", card)
        page.click("#card-form button[type=submit]")
        page.wait_for_function(f"document.querySelectorAll('#round-view .pcard').length >= {n}")
    page.wait_for_selector(".round-status.settled")
    assert "Banker wins" in page.locator(".result-line").inner_text()
    assert page.locator("#paid-total").inner_text() == "195.00"           # banker 100 + 95 (5 % commission)
    shot(page, "dealer_baccarat")


def test_the_pit_boss_voids_a_held_round(page_as, sqlite_url):
    engine = _db(sqlite_url)
    with Session(engine) as s:
        table = table_by_number(s, 12).id
        _event(s, rounds.wheel_status, table, 2, 40, (), T, house=HOUSE)
        cash_in(s, 2, 10_000, house=HOUSE)
        bets.place(s, Actor("api", "admin", "api"), table, spot="black", amount=2_000, player_id=2, house=HOUSE)
        s.commit()
        _event(s, rounds.wheel_status, table, 4, 40, (), T + timedelta(seconds=5), house=HOUSE)
        _event(s, rounds.wheel_status, table, 4, 40, {"fault"}, T + timedelta(seconds=6), house=HOUSE)
    page = page_as("pitboss")
    page.wait_for_selector(".held-round")
    assert "wheel fault" in page.locator(".held-round .reason").inner_text()
    assert "20.00 at stake" in page.locator(".held-round .facts").inner_text()
    shot(page, "pit_held")
    page.click(".held-round button[data-action=void]")                   # no reason yet: asked for one
    assert page.locator(".held-round").count() == 1
    page.fill(".held-round input[name=reason]", "wheel sensor fault")
    page.click(".held-round button[data-action=void]")
    page.wait_for_selector(".held-list .empty")
    with Session(engine) as s:
        assert ledger.player_balance(s, 2) == 10_000
    engine.dispose()


def test_in_french_the_dealers_bet_message_writes_money_as_the_bets_table_does(page_as):
    page = page_as("dealer", table=14)
    page.goto(page.url.split("?")[0] + "?lang=fr")       # this terminal, in French
    page.wait_for_selector("#live-dot.on")
    assert page.evaluate("document.documentElement.lang") == "fr"
    # every message the page shows, kept as it appears (a message leaves after a few seconds)
    page.evaluate("""() => { window.said = []; new MutationObserver(ms => ms.forEach(m => m.addedNodes.forEach(n => {
        if (n.nodeType !== 1) return;
        for (const t of [n, ...n.querySelectorAll(".toast")]) if (t.classList.contains("toast")) window.said.push(t.textContent);
        }))).observe(document.documentElement, { childList: true, subtree: true }); }""")
    page.click("#btn-open")
    page.wait_for_selector(".round-status.betting")
    page.select_option("#bet-form select[name=seat]", "2")
    page.fill("#bet-form input[name=amount]", "20")
    page.click("#bet-form button[type=submit]")
    page.wait_for_selector("#bets tr")
    page.wait_for_function("window.said.some(t => t.startsWith('Place 2'))")
    in_table = page.locator("#bets tr td.num").first.inner_text()
    [said] = [t for t in page.evaluate("window.said") if t.startswith("Place 2")]
    assert in_table == "20,00" and page.locator("#bets-total").inner_text() == in_table
    assert said.endswith(f"{in_table}\u00a0CHF"), said        # the server's French: 20,00 CHF, never 20.00 CHF
    shot(page, "dealer_bet_french")
