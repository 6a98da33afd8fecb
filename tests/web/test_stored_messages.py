"""Sentences the floor stores to show later are kept as their template and values (not only their English),
made through the floor's own paths (a shoe dealing a card out of turn, a round voided for want of bets,
a ban for three warnings, a missed blind) and read back in the reader's French or German, through the
API and the page that shows them, cards as cards."""
from __future__ import annotations

import json
import re
from datetime import datetime, timezone

from sqlalchemy import select

from floor import rounds
from floor.models import Ban, DeviceFrame, MissedBlindTicket, Round, RoundCard, Settlement
from tests.conftest import app_session as db
from tests.floor.rounds.helpers import HOUSE, tid

CARD_CODE = re.compile(r"\b(?:[2-9TJQKA][SHDC])\b")


def _choose(login, lang):
    assert login.post("/language", data={"lang": lang, "next": "/pit", "csrf_token": login.token}).status_code == 302


def _misdeal(app, login) -> int:
    """A baccarat coup the shoe deals: player 2D, banker 5C, then 9D announced for the player's third
    card where the tableau wants his second: refused, and the round held."""
    assert login.post("/api/tables/10/shoe", json={}).status_code in (200, 201)
    assert login.post("/api/tables/10/round/open", json={}).status_code == 201
    assert login.post("/api/tables/10/round/close", json={}).status_code == 200
    with db(app) as s:
        table = tid(s, 10)
        for card, target, index in (("2D", "player", 1), ("5C", "banker", 1), ("9D", "player", 3)):
            rounds.card(s, table, card, "shoe", target, datetime.now(timezone.utc), index=index,
                        raw=f"\x02D{card}\x03".encode(), device="shoe-10", house=HOUSE)
            s.commit()
        return s.execute(select(Round.id).where(Round.table_id == table)).scalar_one()


def _page_data(client, url) -> dict:
    html = client.get(url).get_data(as_text=True)
    return json.loads(re.search(r'<script id="initial-data" type="application/json">(.*?)</script>', html, re.S).group(1))


def test_a_misdealt_card_its_frame_and_the_held_round_keep_their_message_and_read_in_french_and_german(
        app, client, login):
    login("pitboss")
    rid = _misdeal(app, login)
    with db(app) as s:      # the rows hold template and values, not just the English
        r = s.get(Round, rid)
        assert r.status == "held"
        assert r.held_msg["template"] == "misdeal: card {card} to {target} {index}, the tableau wants {expected} {place}"
        assert r.held_msg["params"]["card"] == "9D"
        refused = s.execute(select(RoundCard).where(RoundCard.round_id == rid, RoundCard.accepted.is_(False))).scalar_one()
        assert refused.reason_msg["template"] == "misdeal: the tableau wants {expected} {place}, the shoe dealt to {target} {index}"
        frame = s.execute(select(DeviceFrame).where(DeviceFrame.round_id == rid).order_by(DeviceFrame.id.desc())
                          .limit(1)).scalar_one()
        assert frame.summary_msg == {"template": "card {card} from {source} to {target}",
                                     "params": {"card": "9D", "source": "shoe", "target": "player3"}}
        assert frame.summary == "card 9D from shoe to player3"      # the English kept beside it
    seen = {}
    for lang in ("fr", "de"):
        _choose(login, lang)
        held = [x for x in client.get("/api/pit/rounds?limit=5").get_json() if x["id"] == rid][0]
        tl = client.get(f"/api/pit/rounds/{rid}/timeline").get_json()
        page = _page_data(client, f"/pit/rounds/{rid}")        # the timeline page's own data
        seen[lang] = {
            "held": {held["held_reason"], tl["round"]["held_reason"], page["round"]["held_reason"],
                     *[e["data"]["reason"] for e in tl["entries"] if e["type"] == "event" and e.get("to") == "held"]},
            "frame": {[e["decoded"] for e in x["entries"] if e["type"] == "frame"][-1] for x in (tl, page)},
            "refused": {[e["reason"] for e in x["entries"] if e["type"] == "card" and not e["accepted"]][0]
                        for x in (tl, page)}}
    assert seen["fr"] == {"held": {"maldonne : carte 9♦ à joueur 3, le tableau attend joueur 2"},
                          "frame": {"carte 9♦ de sabot vers joueur 3"},
                          "refused": {"maldonne : le tableau attend joueur 2, le sabot a donné à joueur 3"}}
    assert seen["de"] == {"held": {"Fehlgabe: Karte 9♦ an Spieler 3, das Tableau verlangt Spieler 2"},
                          "frame": {"Karte 9♦ von Schlitten an Spieler 3"},
                          "refused": {"Fehlgabe: das Tableau verlangt Spieler 2, der Schlitten gab an Spieler 3"}}


def test_a_round_voided_for_want_of_bets_keeps_its_reason_and_reads_in_french_and_german(app, client, login):
    login("pitboss")
    assert login.post("/api/tables/14/round/open", json={}).status_code == 201
    assert login.post("/api/tables/14/round/close", json={}).status_code == 200     # no bet: voided
    with db(app) as s:
        rid = s.execute(select(Round.id).where(Round.table_id == tid(s, 14))).scalar_one()
        settlement = s.execute(select(Settlement).where(Settlement.round_id == rid)).scalar_one()
        assert (settlement.outcome, settlement.reason, settlement.reason_msg) == \
            ("voided", "no bets", {"template": "no bets", "params": {}})
    for lang, words in (("fr", "aucune mise"), ("de", "keine Einsätze")):
        _choose(login, lang)
        tl = client.get(f"/api/pit/rounds/{rid}/timeline").get_json()
        page = _page_data(client, f"/pit/rounds/{rid}")
        for x in (tl, page):
            assert x["round"]["settlement"]["reason"] == words
            assert [e["reason"] for e in x["entries"] if e["type"] == "settlement"] == [words]
            assert [e["data"]["reason"] for e in x["entries"] if e["type"] == "event" and e.get("to") == "voided"] == [words]


def test_a_ban_for_three_warnings_keeps_its_message_and_reads_in_french_and_german(app, client, login):
    login("manager")
    for _ in range(3):
        resp = login.post("/api/conduct/warnings", json={"player_id": 6, "reason": "electronic_device",
                                                         "ban_confirmed": True})
        assert resp.status_code == 201, resp.get_json()
    with db(app) as s:
        ban = s.execute(select(Ban).where(Ban.player_id == 6)).scalar_one()
        assert ban.reason_msg == {"template": "{count} warnings: must leave the poker area for the rest of the "
                                              "gaming day", "params": {"count": 3}}
        assert ban.reason == "3 warnings: must leave the poker area for the rest of the gaming day"
    _choose(login, "de")
    assert [b["reason"] for b in client.get("/api/conduct/bans").get_json()] == \
        ["3 Verwarnungen: muss den Pokerbereich bis zum Ende des Spieltags verlassen"]
    _choose(login, "fr")
    [said] = [b["reason"] for b in client.get("/api/conduct/bans").get_json()]
    assert said.startswith("3 avertissements : doit quitter l'espace poker") and "warnings" not in said


def test_a_ban_a_person_typed_stays_as_typed(app, client, login):
    login("manager")
    resp = login.post("/api/conduct/bans", json={"player_id": 6, "reason": "no bets", "until": "2099-01-01T00:00:00Z"})
    assert resp.status_code == 201, resp.get_json()
    with db(app) as s:
        assert s.execute(select(Ban.reason_msg).where(Ban.player_id == 6)).scalar_one() is None


def test_a_missed_blind_ticket_keeps_its_reason_and_reads_in_french_and_german(app, client, login):
    from floor.actors import Actor
    from floor.models import Table
    from floor.poker import seating
    from floor.settings import HouseSettings
    with db(app) as s:
        table = s.execute(select(Table).where(Table.number == 1)).scalar_one()
        for number, player in {1: 1, 2: 2, 3: 3, 4: 4}.items():
            seating.sit(s, Actor.system("test"), HouseSettings(), table, number, player, 50_000)
    login.dealer(1)
    login.post("/api/poker/tables/1/hands", json={})
    login.post("/api/poker/tables/1/seats/3/away", json={})
    for _ in range(3):                                 # the small blind passes seat 3, then the big
        assert login.post("/api/poker/tables/1/hands", json={}).status_code in (200, 201)
    with db(app) as s:
        kept = s.execute(select(MissedBlindTicket.id, MissedBlindTicket.reason, MissedBlindTicket.reason_msg)
                         .where(MissedBlindTicket.seat_number == 3).order_by(MissedBlindTicket.id)).all()
    assert [(k.reason, k.reason_msg) for k in kept] == [
        ("small blind passed while away", {"template": "small blind passed while away", "params": {}}),
        ("big blind passed while away", {"template": "big blind passed while away", "params": {}})]
    for lang, said in (("fr", ["petite blind passée pendant son absence", "grosse blind passée pendant son absence"]),
                       ("de", ["Small Blind während der Abwesenheit verpasst", "Big Blind während der Abwesenheit verpasst"])):
        shown = {t["id"]: t["reason"] for t in client.get(f"/api/poker/tables/1?lang={lang}").get_json()["tickets"]}
        assert shown and all(shown[k.id] == said[i] for i, k in enumerate(kept) if k.id in shown)
