"""A shift on a live table through the pages, in a real browser: the opening count entered at the
dealer terminal and verified by the pit boss on his tablet, two fills and a credit requested at the
table, issued by the cage and received at the table, buy-ins recorded, roulette spins settled through
the rounds, the drop counted by the cashier and verified by the pit, the closing count verified: the
pit's sheet shows win, hold and a reconciliation difference of 0.00; a second shift whose closing
count is entered 25.00 short shows -25.00."""
from __future__ import annotations

from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from floor import ledger
from floor.actors import Actor
from floor.tables import table_by_number
from tests.e2e.conftest import IPAD, shot
from tests.floor.accounting.helpers import Wheel

DAN = Actor("Dan Dealer", "dealer", "table-12-terminal")


def chips(page, counts: dict[int, int]) -> None:
    for denom, n in counts.items():
        page.fill(f"#tm-denoms input[data-denomination='{denom}']", str(n))


def count(page, kind: str, counts: dict[int, int]) -> None:
    chips(page, counts)
    page.click(f"#tm-chips [data-action=count][data-kind={kind}]")


def verify_last(pit, kind: str, n: int) -> None:
    """The pit boss verifies the newest count of ``kind`` (the ``n``-th of that kind)."""
    pit.wait_for_function(f"document.querySelectorAll('#tm-counts [data-kind={kind}]').length === {n}")
    pit.click(f"#tm-counts [data-kind={kind}].unverified [data-action=verify]")
    pit.wait_for_function(f"document.querySelectorAll('#tm-counts [data-kind={kind}].verified').length === {n}")


def test_a_shift_on_a_live_table_through_the_pages(page_as, live_server, sqlite_url):
    engine = create_engine(sqlite_url, connect_args={"timeout": 30})
    dealer = page_as("dealer", table=12)
    dealer.goto("/dealer/12/money")
    dealer.wait_for_selector("#tm-figures dd")
    pit = page_as("pitboss", device=IPAD)
    pit.goto("/pit/tables/12/money")
    pit.wait_for_selector("#tm-figures dd")

    count(dealer, "opening", {10_000: 100})                                   # 10,000.00
    verify_last(pit, "opening", 1)
    dealer.wait_for_selector("#tm-counts .verified[data-kind=opening]")       # live on the terminal

    for n, (kind, counts) in enumerate((("fill", {10_000: 10}), ("fill", {2_500: 8}), ("credit", {50_000: 1})), 1):
        chips(dealer, counts)
        dealer.click(f"#tm-chips [data-action=slip][data-kind={kind}]")
        # the form clears when its answer comes: the next slip is typed after that, as a dealer would
        dealer.wait_for_function(f"document.querySelectorAll('#tm-slips [data-state=requested]').length === {n}")
    dealer.wait_for_function("document.querySelectorAll('#tm-slips [data-state=requested]').length === 3")
    cage = page_as("cashier", device=IPAD)
    cage.goto("/cage")
    for left in (2, 1, 0):
        cage.click("#cage-queue [data-state=requested] [data-action=issue] >> nth=0")
        cage.wait_for_function(f"document.querySelectorAll('#cage-queue [data-state=requested]').length === {left}")
    shot(cage, "table-money-cage")
    for left in (2, 1, 0):
        dealer.click("#tm-slips [data-state=issued] [data-action=receive] >> nth=0")
        dealer.wait_for_function(f"document.querySelectorAll('#tm-slips [data-state=issued]').length === {left}")
    assert cage.locator("#cage-queue li").count() == 0 or cage.wait_for_selector("#cage-empty:not([hidden])")

    for n, (cash, method, seat) in enumerate((("400", "cash", "1"), ("100", "marker", "2")), 1):
        dealer.fill("#tm-buyin input[name=amount]", cash)
        dealer.select_option("#tm-buyin select[name=method]", method)
        dealer.select_option("#tm-buyin select[name=seat]", seat)
        dealer.click("#tm-buyin [data-action=buy-in]")
        dealer.wait_for_function(f"document.querySelectorAll('#tm-buyins li').length === {n}")

    with Session(engine) as s:                                                # spins settled through the rounds
        table = table_by_number(s, 12).id
        tray = ledger.table_account(s, table, "tray")
        s.commit()
        before = ledger.balance(s, tray)
        wheel = Wheel(s, table)
        for number, bets in ((17, [(1, "straight", [17], 1_000), (2, "red", None, 5_000)]),
                             (20, [(1, "black", None, 10_000), (2, "dozen", list(range(1, 13)), 2_500)])):
            wheel.spin(number, bets, dealer=DAN)
        rounds_win = ledger.balance(s, tray) - before
    assert rounds_win == -35_000 + 5_000 - 10_000 + 2_500

    cashier_sheet = page_as("cashier", device=IPAD)
    cashier_sheet.goto("/pit/tables/12/money")
    cashier_sheet.wait_for_selector("#tm-figures dd")        # the page's script has drawn it: its forms answer
    cashier_sheet.fill("#tm-drop-form input[name=total]", "500")
    cashier_sheet.click("#tm-drop-form [data-action=drop]")
    cashier_sheet.wait_for_selector("#tm-drop [data-drop]")  # the count is entered (its answer came)
    pit.wait_for_selector("#tm-drop [data-action=verify-drop]")
    pit.click("#tm-drop [data-action=verify-drop]")
    pit.wait_for_selector("#tm-drop-form[hidden]", state="attached")

    tray_now = 1_000_000 + 100_000 + 20_000 - 50_000 - 50_000 + rounds_win
    count(dealer, "closing", {100: tray_now // 100})
    verify_last(pit, "closing", 1)
    pit.wait_for_function("document.querySelector('#tm-figures [data-col=difference]').textContent === '0.00'")
    win = 50_000 + (tray_now - 1_000_000) + 50_000 - 120_000
    assert win == rounds_win
    assert pit.text_content("#tm-figures [data-col=win]") == f"-{abs(win) // 100:,}.00".replace(",", "'")
    assert pit.text_content("#tm-figures [data-col=hold]").startswith("-75")     # -375.00 / 500.00
    shot(pit, "table-money-pit-reconciled")

    count(dealer, "opening", {100: tray_now // 100})                          # the next shift
    verify_last(pit, "opening", 2)
    count(dealer, "closing", {100: tray_now // 100 - 25})                     # entered 25.00 short
    verify_last(pit, "closing", 2)
    pit.wait_for_function("document.querySelector('#tm-figures [data-col=difference]').textContent === '-25.00'")
    assert pit.text_content("#tm-shifts [data-shift='2'] [data-col=difference]").endswith("-25.00")
    shot(pit, "table-money-pit-short")
    shot(dealer, "table-money-dealer")


def test_a_new_dealer_is_asked_to_count_the_tray_in_german(browser, sqlite_template, tmp_path):
    """Where the house counts the tray at each dealer change, the dealer who takes the table sees the
    count asked on his chips page (and the pit on its sheet, live) until he has entered it."""
    from tests.conftest import template_copy
    from tests.e2e.conftest import DEALER
    from tests.servers import Server

    server = Server(template_copy(sqlite_template, tmp_path), tmp_path / "instance",
                    FLOOR_HOUSE_COUNT_AT_DEALER_CHANGE="true", FLOOR_HOUSE_LANGUAGE='"de"').wait()
    contexts = []

    def at_table(username, pin, device=DEALER):
        ctx = browser.new_context(**device, base_url=server.url, locale="de-DE")
        contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(60_000)
        page.goto("/dealer/12/login?lang=de")
        page.fill("input[name=username]", username)
        page.fill("input[name=pin]", pin)
        page.click("button[type=submit]")
        page.wait_for_load_state("networkidle")
        page.goto("/dealer/12/money")
        page.wait_for_selector("#tm-figures dd")
        return page
    try:
        dan = at_table("dealer", "1234")
        count(dan, "opening", {10_000: 100})
        dan.wait_for_selector("#tm-counts [data-kind=opening]")
        assert dan.locator("#tm-count-due").is_hidden()
        dora = at_table("dealer2", "2345")
        due = dora.locator("#tm-count-due")
        due.wait_for()
        assert "Zwischenzählung fällig: Dora Dealer" in due.inner_text()
        shot(dora, "de-count-due-at-dealer-change")
        count(dora, "interim", {10_000: 100})
        due.wait_for(state="hidden")
    finally:
        for ctx in contexts:
            ctx.close()
        server.stop()
