"""Playing on by hand in a real browser, in German: the wheel of table 12 is lost; the pit boss
switches the table to entry by hand, the dealer keys the number on the terminal's keypad, nothing
settles until a floor manager confirms on the floor tablet, then the round pays what the rules say
and its timeline says it was entered by hand."""
from __future__ import annotations

from sqlalchemy import create_engine, func, select
from sqlalchemy.orm import Session

from floor.models import Round, Settlement
from floor.tables import table_by_number
from tests.e2e.conftest import shot



def test_a_table_whose_wheel_is_lost_plays_on_by_hand_with_a_second_person(page_as, sqlite_url):
    engine = create_engine(sqlite_url, connect_args={"timeout": 30})

    # the pit boss switches table 12 to entry by hand
    pit = page_as("pitboss")
    pit.goto("/pit?lang=de")
    row = pit.locator("#entry-tables li[data-table='12']")
    row.locator("[data-action=play-by-hand]").click()
    row.locator("[data-reason=lost]").wait_for()
    shot(pit, "hand_pit_switch_reason_de")
    row.locator("[data-reason=lost]").click()
    pit.wait_for_selector("#entry-tables li[data-table='12'] .badge.by-hand")
    assert "Eingabe von Hand" in pit.locator("#entry-tables li[data-table='12']").inner_text()
    shot(pit, "hand_pit_switched_de")

    # the dealer's terminal shows the keypad; a bet on 17 at seat 3; no more bets; the dealer keys 17
    dealer = page_as("dealer", table=12)
    dealer.goto("/dealer/12?lang=de")
    dealer.wait_for_selector("#live-dot.on")
    dealer.wait_for_selector("#hand-panel:not([hidden])")
    assert "Eingabe von Hand" in dealer.locator("#hand-banner").inner_text()
    dealer.click("#btn-open")
    dealer.wait_for_selector(".round-status.betting")
    dealer.select_option("#bet-form select[name=seat]", "3")
    dealer.select_option("#spot-select", "straight")
    dealer.select_option("#numbers-select", label="17")
    dealer.fill("#bet-form input[name=amount]", "10")
    dealer.click("#bet-form button[type=submit]")
    dealer.wait_for_selector("#bets tr")
    with Session(engine) as s:
        table = table_by_number(s, 12).id
    dealer.click("#btn-close")
    dealer.wait_for_selector(".round-status.locked")
    dealer.click("#hand-pad [data-number='17']")
    dealer.wait_for_selector("#hand-pad [data-action=send-number]:has-text('17')")
    shot(dealer, "hand_dealer_keypad_de")
    dealer.click("#hand-pad [data-action=send-number]")
    dealer.wait_for_selector("#hand-keyed:not([hidden])")
    assert "Zahl 17 eingegeben von Dan Dealer" in dealer.locator("#hand-keyed").inner_text()
    shot(dealer, "hand_dealer_keyed_de")
    with Session(engine) as s:
        r = s.execute(select(Round).where(Round.table_id == table).order_by(Round.id.desc()).limit(1)).scalar_one()
        rid = r.id
        assert r.status == "locked" and r.result is None
        assert s.execute(select(func.count(Settlement.id)).where(Settlement.round_id == rid)).scalar_one() == 0
    assert dealer.locator(".round-status").inner_text() != "abgerechnet"

    # a floor manager confirms on the floor tablet; the round settles and pays 35 to 1
    manager = page_as("manager")
    manager.goto("/floor?lang=de")
    item = manager.locator(f"#keyed-rounds li[data-round='{rid}']")
    item.wait_for()
    assert "Dan Dealer" in item.inner_text()
    shot(manager, "hand_manager_confirm_de")
    item.locator("[data-action=confirm-hand]").click()
    manager.wait_for_selector(f"#keyed-rounds li[data-round='{rid}']", state="detached")
    dealer.wait_for_selector(".round-status.settled")
    assert dealer.locator("#paid-total").inner_text() == "360.00"
    shot(dealer, "hand_dealer_settled_de")
    with Session(engine) as s:
        r = s.get(Round, rid)
        assert r.status == "settled" and r.result["number"] == 17
        assert r.result["hand_entry"] == {"keyed_by": ["Dan Dealer"], "confirmed_by": "Marc Manager"}
        assert s.execute(select(Settlement.returned).where(Settlement.round_id == rid)).scalar_one() == 36_000

    # the round's timeline says it was entered by hand, by whom and who confirmed
    manager.goto(f"/pit/rounds/{rid}?lang=de")
    manager.wait_for_selector("#tl-facts:has-text('von Hand eingegeben')")
    assert "bestätigt von Marc Manager" in manager.locator("#tl-facts").inner_text()
    manager.wait_for_selector("text=von Hand eingegeben")
    shot(manager, "hand_timeline_de")
    engine.dispose()


def test_baccarat_cards_keyed_on_the_keypad_settle_after_a_pit_boss_confirms(page_as, sqlite_url):
    """In French: the shoe of table 10 is refused; the dealer keys the coup card by card on the
    keypad; a pit boss confirms on the pit console; the banker bet is paid less its commission."""
    from floor.actors import Actor
    from floor.models import Staff
    from floor.rounds import hand
    engine = create_engine(sqlite_url, connect_args={"timeout": 30})
    with Session(engine) as s:
        boss = s.execute(select(Staff).where(Staff.username == "pitboss")).scalar_one()
        hand.switch(s, Actor(boss.name, boss.role, "pit-1", boss.id), table_by_number(s, 10).id, True,
                    "sabot : trames refusées")
        s.commit()
    dealer = page_as("dealer", table=10)
    dealer.goto("/dealer/10?lang=fr")
    dealer.wait_for_selector("#live-dot.on")
    dealer.wait_for_selector("#hand-panel:not([hidden])")
    assert "Saisie à la main" in dealer.locator("#hand-banner").inner_text()
    dealer.click("#btn-shoe")
    dealer.wait_for_selector("#shoe-info:has-text('1')")
    dealer.click("#btn-open")
    dealer.wait_for_selector(".round-status.betting")
    dealer.select_option("#spot-select", "banker")
    dealer.fill("#bet-form input[name=amount]", "20")
    dealer.click("#bet-form button[type=submit]")
    dealer.wait_for_selector("#bets tr")
    dealer.click("#btn-close")
    dealer.wait_for_selector(".round-status.dealing")
    for n, card in enumerate(("2H", "7S", "3D", "KC", "8C"), start=1):   # player 3, banker 7: banker wins
        dealer.click(f"#hand-pad [data-rank='{card[0]}']")
        dealer.click(f"#hand-pad [data-suit='{card[1]}']")
        if n == 5:
            shot(dealer, "hand_dealer_card_keypad_fr")
        dealer.click("#hand-pad [data-action=send-card]")
        dealer.wait_for_function(f"document.querySelectorAll('#round-view .pcard').length >= {n}")
    dealer.wait_for_selector("#hand-keyed:not([hidden])")
    assert dealer.locator(".round-status.dealing").count() == 1        # nothing settles yet
    shot(dealer, "hand_dealer_cards_keyed_fr")

    pit = page_as("pitboss")
    pit.goto("/pit?lang=fr")
    item = pit.locator("#keyed-rounds li.keyed-round")
    item.wait_for()
    assert "Banquier gagne" in item.inner_text() and "Dan Dealer" in item.inner_text()
    shot(pit, "hand_pit_confirm_cards_fr")
    item.locator("[data-action=confirm-hand]").click()
    item.wait_for(state="detached")
    dealer.wait_for_selector(".round-status.settled")
    assert dealer.locator("#paid-total").inner_text() == "39,00"          # 20.00 back, 19.00 won after 5 % (in French)
    engine.dispose()


def test_a_blackjack_round_keyed_on_the_keypad_settles_after_a_second_person_confirms(page_as, sqlite_url):
    """In French: the card scanner of table 14 is faulty; the dealer keys each card on the keypad and
    taps the seat's decision; nothing settles until a floor manager confirms on the floor tablet (the
    dealer who keyed cannot); then the seat that stood on 20 against the dealer's bust is paid 1 to 1."""
    from floor.actors import Actor
    from floor.models import Staff
    from floor.rounds import hand
    engine = create_engine(sqlite_url, connect_args={"timeout": 30})
    with Session(engine) as s:
        boss = s.execute(select(Staff).where(Staff.username == "pitboss")).scalar_one()
        table = table_by_number(s, 14).id
        hand.switch(s, Actor(boss.name, boss.role, "pit-1", boss.id), table, True, "scanner de cartes défaillant")
        s.commit()
    dealer = page_as("dealer", table=14)
    dealer.goto("/dealer/14?lang=fr")
    dealer.wait_for_selector("#live-dot.on")
    dealer.wait_for_selector("#hand-panel:not([hidden])")
    assert "Saisie à la main" in dealer.locator("#hand-banner").inner_text()
    dealer.click("#btn-open")
    dealer.wait_for_selector(".round-status.betting")
    dealer.select_option("#bet-form select[name=seat]", "2")
    dealer.fill("#bet-form input[name=amount]", "20")
    dealer.click("#bet-form button[type=submit]")
    dealer.wait_for_selector("#bets tr")
    dealer.click("#btn-close")
    dealer.wait_for_selector(".round-status.dealing")

    def key(card: str, n: int) -> None:
        dealer.click(f"#hand-pad [data-rank='{card[0]}']")
        dealer.click(f"#hand-pad [data-suit='{card[1]}']")
        dealer.click("#hand-pad [data-action=send-card]")
        dealer.wait_for_function(f"document.querySelectorAll('#round-view .pcard').length >= {n}")

    for n, card in enumerate(("TH", "6S", "KD", "TC"), start=1):     # seat 2, dealer up, seat 2, hole card
        key(card, n)
    dealer.wait_for_selector("#decisions [data-action=stand]")
    shot(dealer, "hand_dealer_blackjack_decision_fr")
    dealer.click("#decisions [data-action=stand]")
    dealer.wait_for_selector("#decisions [data-action=stand]", state="detached")
    key("9H", 5)                                                      # the dealer draws to 25: bust
    dealer.wait_for_selector("#hand-keyed:not([hidden])")
    assert "Dan Dealer" in dealer.locator("#hand-keyed").inner_text()
    shot(dealer, "hand_dealer_blackjack_keyed_fr")
    with Session(engine) as s:
        r = s.execute(select(Round).where(Round.table_id == table).order_by(Round.id.desc()).limit(1)).scalar_one()
        rid = r.id
        assert r.status == "dealing" and r.result is None
        assert s.execute(select(func.count(Settlement.id)).where(Settlement.round_id == rid)).scalar_one() == 0

    manager = page_as("manager")
    manager.goto("/floor?lang=fr")
    item = manager.locator(f"#keyed-rounds li[data-round='{rid}']")
    item.wait_for()
    assert "Dan Dealer" in item.inner_text()
    shot(manager, "hand_manager_confirm_blackjack_fr")
    item.locator("[data-action=confirm-hand]").click()
    manager.wait_for_selector(f"#keyed-rounds li[data-round='{rid}']", state="detached")
    dealer.wait_for_selector(".round-status.settled")
    assert dealer.locator("#paid-total").inner_text() == "40,00"          # 20.00 back and 20.00 won
    with Session(engine) as s:
        r = s.get(Round, rid)
        assert r.status == "settled"
        assert r.result["hand_entry"] == {"keyed_by": ["Dan Dealer"], "confirmed_by": "Marc Manager"}
        assert s.execute(select(Settlement.returned).where(Settlement.round_id == rid)).scalar_one() == 4_000
    engine.dispose()
