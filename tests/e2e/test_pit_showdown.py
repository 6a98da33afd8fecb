"""The poker showdown tool in a browser: enter a disputed hand, read the pots, record the ruling."""
from tests.e2e.conftest import shot


def test_pit_boss_lays_out_a_hand_and_records_a_ruling(page_as):
    page = page_as("pitboss")
    page.goto("/pit/showdown")
    page.fill("input[name=hand_ref]", "1-77")
    page.fill("input[name=board1]", "AS KH 7D 2C 9S")
    rows = page.locator("#seat-rows tr")
    for i, (hole, put_in) in enumerate([("AH AD", "100"), ("KS KC", "300"), ("QH JH", "300")]):
        rows.nth(i).locator("[name=hole]").fill(hole)
        rows.nth(i).locator("[name=put_in]").fill(put_in)
    page.click("#showdown button[type=submit]")
    page.wait_for_selector("#result:not([hidden])")
    # Money in the house currency, as the language writes it (en-CH: "CHF 300.00").
    assert page.locator("#pots li").all_inner_texts() == ["Main pot: CHF\xa0300.00 — seats 1, 2, 3",
                                                          "Side pot 1: CHF\xa0400.00 — seats 2, 3"]
    assert "300.00" in page.locator("#won li[data-seat='1']").inner_text()
    assert "400.00" in page.locator("#won li[data-seat='2']").inner_text()
    assert page.locator("#won li[data-seat='1'] .pcard").count() == 2
    page.fill("#reason", "side pot pushed to the wrong seat")
    page.click("#record")
    page.wait_for_selector("#rulings li[data-ruling]")
    assert "seat 1 wins CHF\xa0300.00" in page.locator("#rulings li").first.inner_text()
    shot(page, "pit-showdown")
