"""Languages through the real API and pages: a person's choice, a terminal's pin, the house default;
refusals from the domain said in the reader's language with money and times in the house's formats."""
from __future__ import annotations

from datetime import datetime, timezone

from babel.numbers import format_decimal

from floor import rounds
from floor.errors import Conflict, Money
from tests.floor.rounds.helpers import HOUSE, tid
from tests.conftest import app_session as db
from tests.web.test_api_rounds import _fund


def _choose(login, lang):
    resp = login.post("/language", data={"lang": lang, "next": "/pit", "csrf_token": login.token})
    assert resp.status_code == 302
    return resp


def test_a_french_pit_boss_gets_french_refusals_with_money_in_the_house_format(app, client, login):
    login("pitboss")
    _choose(login, "fr")
    _fund(login, 2, 100_000)
    early = login.post("/api/tables/12/bets", json={"spot": "red", "amount": 1_000, "player_id": 2})
    assert early.status_code == 409
    assert early.get_json()["error"] == "betting_closed"                 # the code stays the same
    assert early.get_json()["message"] == "rien ne va plus à la table 12"
    with db(app) as session:
        rounds.open_betting(session, rounds.core.SYSTEM, tid(session, 12), datetime.now(timezone.utc), house=HOUSE)
    over = login.post("/api/tables/12/bets", json={"spot": "red", "amount": 60_000, "player_id": 2})
    assert over.status_code == 409 and over.get_json()["error"] == "over_maximum"
    message = over.get_json()["message"]
    assert message.startswith("le maximum de la table par case est ")
    assert "CHF" in message and "cents" not in message and "500,00" in message.replace("\u202f", "").replace("'", "")
    # The same refusal for an English colleague stays English.
    other = app.test_client()
    from tests.conftest import Login
    en = Login(other)
    en("pitboss2")
    again = en.post("/api/tables/12/bets", json={"spot": "red", "amount": 60_000, "player_id": 2})
    assert again.get_json()["message"].startswith("the table maximum per spot is CHF")


def test_the_persons_choice_is_kept_with_his_account_and_audited(app, client, login):
    login("manager")
    _choose(login, "de")
    page = client.get("/floor").get_data(as_text=True)
    assert '<html lang="de">' in page and "Wartelisten" in page and "Abmelden" in page
    from floor.models import AuditRecord, Staff
    with db(app) as session:
        assert session.query(Staff).filter_by(username="manager").one().language == "de"
        assert session.query(AuditRecord).filter_by(action="staff.language").count() == 1
    client.post("/logout", data={"csrf_token": login.token})
    login("manager")                                   # a new session, the same choice
    assert "Wartelisten" in client.get("/floor").get_data(as_text=True)


def test_a_terminal_is_pinned_by_its_address_and_a_persons_choice_wins(app, client, login):
    # The board's TV: ?lang=fr once pins this terminal (a cookie), before and after any login.
    login_page = client.get("/login?lang=fr").get_data(as_text=True)
    assert "Connexion du personnel" in login_page
    assert "Connexion du personnel" in client.get("/login").get_data(as_text=True)
    login("display")
    assert "Listes d'attente" in client.get("/board").get_data(as_text=True)
    # Someone who chose German sees German on this terminal; ?lang=auto unpins it.
    login("manager")
    _choose(login, "de")
    assert "Wartelisten" in client.get("/floor").get_data(as_text=True)
    client.get("/login?lang=auto")
    client.post("/logout", data={"csrf_token": login.token})
    assert "Staff login" in client.get("/login").get_data(as_text=True)


def test_the_house_language_is_the_default(app_config, tmp_path):
    from app import create_app
    from tests.conftest import make_config
    cfg = make_config(app_config["app"]["database_url"], tmp_path, house={"language": "de"})
    c = create_app(cfg).test_client()
    assert "Personal-Anmeldung" in c.get("/login").get_data(as_text=True)
    assert "Staff login" in c.get("/login?lang=en").get_data(as_text=True)


def test_an_error_the_catalogs_do_not_know_is_shown_in_english(app):
    from floor.web import i18n
    with app.test_request_context("/?lang=fr"):
        assert i18n.say(Conflict("a sentence {n} no catalog has", n=3).msg) == "a sentence 3 no catalog has"
        known = Conflict("the table minimum per spot is {min_bet}", min_bet=Money(12_345))
        assert i18n.error_message(known).startswith("le minimum de la table par case est 123")
        # vocabulary codes and times: words and the house's 24-hour clock
        assert i18n.say("table {table} is {status}", table=4, status="closed") == "la table 4 est fermée"
        evening = datetime(2026, 7, 1, 21, 5, tzinfo=timezone.utc)      # 23:05 in Zurich (summer)
        assert i18n.clock(evening) == "23:05"
    with app.test_request_context("/?lang=de"):
        assert i18n.money(123_450) in ("CHF 1'234.50", "CHF\xa01'234.50", "CHF 1’234.50", "CHF\xa01’234.50")
        assert i18n.term("floor_manager") == "Saalchef"
        assert i18n.number(1234.5) in ("1'234.5", "1’234.5") and i18n.number(12.0) == "12"
    with app.test_request_context("/?lang=fr"):
        assert i18n.number(12.5) == "12,5"          # a visit's minutes on a French pit boss's page


def test_a_live_alert_reaches_the_tablet_with_its_money_in_the_house_format(app, login, socket_client):
    # One emit reaches every tablet: it is said in the house's language, money formatted, never as the
    # bare "1200.00" of the log; a page that reloads its alerts says them in its reader's language.
    from floor import alerts
    from floor.actors import Actor
    from floor.errors import Msg
    login("manager")
    tablet = socket_client()
    with db(app) as s:
        alerts.raise_alert(s, Actor.system("test"), "ruling_pending",
                           Msg("Table {table} round {round}: {kind} of {amount} by {who} needs a second pit boss",
                               table=12, round=3, kind="void", amount=Money(120_000), who="Petra Pitboss"))
        s.commit()
    got = [e["args"][0] for e in tablet.get_received("/live") if e["name"] == "alert"]
    assert [a["message"] for a in got] == [
        "Table 12 round 3: void of CHF\xa01'200.00 by Petra Pitboss needs a second pit boss"]


def test_why_a_round_is_held_is_said_in_the_readers_language(app, client, login):
    # The device says why in English for the log; the pit boss reading the alert in French reads French.
    from floor.errors import Msg
    with db(app) as session:
        table = tid(session, 12)
        r = rounds.open_betting(session, rounds.core.SYSTEM, table, datetime.now(timezone.utc), house=HOUSE)
        number = r.number
        rounds.device_fault(session, table, Msg("wheel lost (no status line for {seconds} s mid-round)", seconds=6))
        session.commit()
    login("pitboss")
    _choose(login, "fr")
    said = [a["message"] for a in client.get("/api/alerts").get_json() if a["kind"] == "round_held"]
    assert said == [f"Table 12 coup {number} retenu : appareil : cylindre perdu (aucune ligne d'état depuis 6 s "
                    "en cours de partie)"]
    _choose(login, "en")
    said = [a["message"] for a in client.get("/api/alerts").get_json() if a["kind"] == "round_held"]
    assert said == [f"Table 12 round {number} held: device: wheel lost (no status line for 6 s mid-round)"]


def test_a_pages_embedded_alerts_are_said_in_the_readers_language(app, client, login):
    # The console's first view comes with the page (its embedded JSON), not from the API: the same
    # words, money in the reader's format.
    import json
    import re

    from floor import alerts
    from floor.actors import Actor
    from floor.errors import Msg
    with db(app) as s:
        alerts.raise_alert(s, Actor.system("test"), "ruling_pending",
                           Msg("Table {table} round {round}: {kind} of {amount} by {who} needs a second pit boss",
                               table=10, round=1, kind="void", amount=Money(208_500), who="Paul Pitboss"))
        s.commit()
    login("pitboss")
    for lang, said in (("de", "Tisch 10 Coup 1: Annullierung über CHF 2'085.00 von Paul Pitboss braucht einen "
                               "zweiten Tischchef"),
                       ("fr", "Table 10 coup 1 : annulation de 2'085,00 CHF par Paul Pitboss")):
        _choose(login, lang)
        page = client.get("/pit").get_data(as_text=True)
        data = json.loads(re.search(r'<script id="initial-data" type="application/json">(.*?)</script>',
                                    page, re.S).group(1))
        message = data["alerts"][0]["message"].replace("\xa0", " ").replace("\u202f", " ").replace("’", "'")
        assert message.startswith(said), message


def test_a_pages_amounts_look_the_locale_and_pattern_up_once(app):
    """A ratings page shows hundreds of amounts: the locale and the amount's pattern are looked up
    once per language and currency, each amount still in the language's own way."""
    from floor.web import i18n
    shown = {}
    for lang in ("de", "fr", "en"):
        with app.test_request_context(f"/?lang={lang}"):
            i18n.amount(1, lang)
            looked_up = (i18n._format_locale.cache_info().misses, i18n._amount_pattern.cache_info().misses)
            shown[lang] = [i18n.amount(c, lang) for c in (1_234_567, -5, 0)]
            shown[lang] += [i18n.amount(c, lang) for c in range(500)]
            # as Babel writes it when asked afresh
            fresh = [format_decimal(c / 100, format="#,##0.00", locale=i18n.format_locale(lang))
                     for c in (1_234_567, -5, 0)]
            assert shown[lang][:3] == fresh
            assert (i18n._format_locale.cache_info().misses, i18n._amount_pattern.cache_info().misses) == looked_up
    assert shown["fr"][:3] != shown["en"][:3]          # the decimal comma


def test_a_live_update_sent_during_a_request_leaves_the_readers_language_alone(app):
    """A French manager's change publishes a live update said in the house's language (one emit,
    many readers); what his own answer says after it stays French."""
    from floor.errors import Msg
    from floor.web import i18n
    sentence = Msg("table {table} is {status}", table=4, status="closed")
    house = app.config["HOUSE"].language
    with app.test_request_context(f"/?lang={house}"):
        in_house = i18n.say(sentence)
    with app.test_request_context("/?lang=fr"):
        sent = i18n.broadcast(app, {"message": sentence})
        assert sent["message"] == in_house
        assert i18n.say(sentence) == "la table 4 est fermée" and i18n.language() == "fr"
    assert house != "fr"


def test_amounts_from_a_million_up_keep_their_swiss_group_separators(app):
    """The house's Swiss formats group with an apostrophe, which Babel alone drops from a million up
    (it reads two of them as quoting): a shift's drop of 1'234'567.89 must not read 1234567.89."""
    from floor.web import i18n
    with app.test_request_context("/?lang=de"):
        assert i18n.money(123_456_789) == "CHF\xa01'234'567.89"
        assert i18n.amount(123_456_789) == "1'234'567.89" and i18n.amount(-123_456_789) == "-1'234'567.89"
        assert i18n.amount(100_000_000_000) == "1'000'000'000.00"
        assert i18n.number(1_234_567.5) == "1'234'567.5" and i18n.hold(123_456_789) == "1'234'567.89\xa0%"
        assert i18n.amount(123_456) == "1'234.56" and i18n.amount(99) == "0.99"
    with app.test_request_context("/?lang=fr"):
        assert i18n.money(123_456_789) == "1'234'567,89\xa0CHF"
        assert i18n.money(-123_456_789) == "-1'234'567,89\xa0CHF"
        assert i18n.amount(123_456_789) == "1'234'567,89"


def test_every_alert_kind_has_its_words_in_every_language(app):
    """A kind is shown as words where alerts are counted by kind (the shift report): every kind the
    floor raises has them, said otherwise in French and German (a new kind without them fails)."""
    from flask_babel import force_locale

    from floor.models import AlertKind
    from floor.web.i18n import VOCABULARY, term
    assert [k.value for k in AlertKind if k.value not in VOCABULARY] == []
    with app.test_request_context():
        english = {k.value: term(k.value) for k in AlertKind}
        for lang in ("fr", "de"):
            with force_locale(lang):
                same = [k.value for k in AlertKind if term(k.value) == english[k.value]]
            assert same == [], lang
