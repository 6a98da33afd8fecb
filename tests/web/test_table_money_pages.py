"""The table's money pages open for the roles that use them, and only for them."""
from __future__ import annotations

import pytest

from tests.conftest import Login
from tests.web.test_table_money_api import who


@pytest.mark.parametrize("user,path,status", [
    ("pitboss", "/pit/tables/12/money", 200), ("cashier", "/pit/tables/12/money", 200),
    ("cashier", "/cage", 200), ("pitboss", "/cage", 200), ("manager", "/cage", 403),
    ("display", "/pit/tables/12/money", 403), ("manager", "/dealer/12/money", 200),
])
def test_each_page_opens_for_its_roles(app, user, path, status):
    one = Login(app.test_client())
    one(user)
    resp = one.client.get(path)
    assert resp.status_code == status
    if status == 200:
        assert b'id="tm-data"' in resp.data


def test_a_dealer_terminal_opens_only_its_own_tables_chips(app):
    dealer = who(app, "dealer", 12)
    assert dealer.client.get("/dealer/12/money").status_code == 200
    assert dealer.client.get("/dealer/10/money").status_code == 403
    assert b"/dealer/12/money" in dealer.client.get("/dealer/12").data


def test_a_slip_prints_with_its_table_chips_total_and_names(app):
    dealer, cage = who(app, "dealer", 12), who(app, "cashier")
    serial = dealer.post("/api/tables/12/slips", json={"kind": "fill", "chips": {"10000": 3, "2500": 2}}).get_json()["serial"]
    cage.post(f"/api/slips/{serial}/issue", json={})
    page = cage.client.get(f"/slips/{serial}/print").get_data(as_text=True)
    for text in (f"No. {serial}", "Table 12", "Dan Dealer", "Cleo Cashier", "350.00"):
        assert text in page, text
    assert cage.client.get("/slips/99999/print").status_code == 404


@pytest.mark.parametrize("lang,words", [("fr", ("Gain et hold", "Demander un fill", "Comptage du drop")),
                                        ("de", ("Gewinn und Hold", "Auffüllung anfordern", "Drop-Zählung"))])
def test_the_pit_sheet_speaks_french_and_german(app, lang, words):
    boss = who(app, "pitboss")
    page = boss.client.get(f"/pit/tables/12/money?lang={lang}").get_data(as_text=True)
    for word in words:
        assert word in page, word
    assert "Win and hold" not in page


def test_the_printed_shift_report_shows_handle_and_the_win_and_hold_table(app):
    boss = who(app, "pitboss")
    page = boss.client.get("/pit/shift?table=12").get_data(as_text=True)
    assert 'id="shift-chips"' in page and ">Handle<" in page and 'href="/pit/tables/12/money?day=' in page
