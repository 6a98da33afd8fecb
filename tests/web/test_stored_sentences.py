"""What the floor keeps to show later (alerts, ban reasons, a round's timeline, held reasons, the pit's
rounds list) is said in the reader's language when read, cards shown as cards, money in the reader's
format; rows kept as English text before still read in French and German."""
from __future__ import annotations

import re
from datetime import datetime, timezone

from floor.models import Alert, DeviceFrame
from tests.conftest import app_session as db
from tests.web.test_api_rounds import _fund

CARD_CODE = re.compile(r"\b(?:[2-9TJQKA][SHDC])\b")


def _choose(login, lang):
    assert login.post("/language", data={"lang": lang, "next": "/pit", "csrf_token": login.token}).status_code == 302


def _coup(login):
    """A baccarat coup typed at the terminal: player 2D KD, banker 5C 9S... as the pit reads it."""
    assert login.post("/api/tables/10/shoe", json={}).status_code in (200, 201)
    assert login.post("/api/tables/10/round/open", json={}).status_code == 201
    for spot, amount in (("player", 10_000), ("tie", 5_000)):
        resp = login.post("/api/tables/10/bets", json={"spot": spot, "amount": amount, "seat": 1})
        assert resp.status_code == 201, resp.get_json()
    assert login.post("/api/tables/10/round/close", json={}).status_code == 200
    for card in ("2D", "5C", "TH", "9S", "KD", "3H"):
        assert login.post("/api/tables/10/round/card", json={"card": card}).status_code == 200


def test_the_pits_rounds_and_a_timeline_in_german_and_french(app, client, login):
    login("pitboss")
    _coup(login)
    _choose(login, "de")
    rounds = client.get("/api/pit/rounds?limit=5").get_json()
    assert rounds[0]["result"] == "Bank gewinnt 2-4"
    tl = client.get(f"/api/pit/rounds/{rounds[0]['id']}/timeline").get_json()
    labels = {(t["from_label"], t["to_label"]) for t in tl["transfers"]}
    assert ("Jetons am Platz", "im Spiel") in labels and ("im Spiel", "Tischkasse") in labels
    _choose(login, "fr")
    assert client.get("/api/pit/rounds?limit=5").get_json()[0]["result"] == "banquier gagne 2-4"
    tl = client.get(f"/api/pit/rounds/{rounds[0]['id']}/timeline").get_json()
    assert ("jetons de la place", "en jeu") in {(t["from_label"], t["to_label"]) for t in tl["transfers"]}


def test_a_device_frame_kept_as_english_text_reads_in_the_readers_language(app, client, login):
    login("pitboss")
    _coup(login)
    rid = client.get("/api/pit/rounds?limit=1").get_json()[0]["id"]
    with db(app) as s:       # the frames a shoe sent, their summaries as the rounds keep them
        for summary in ("coup start", "card JH from shoe to player1", "shoe locked"):
            s.add(DeviceFrame(device="shoe", table_id=4, round_id=rid, raw=b"x", summary=summary,
                              arrived_at=datetime.now(timezone.utc)))
        s.commit()
    _choose(login, "de")
    frames = [e["decoded"] for e in client.get(f"/api/pit/rounds/{rid}/timeline").get_json()["entries"]
              if e["type"] == "frame"]
    assert frames == ["Coup-Beginn", "Karte J♥ von Schlitten an Spieler 1", "Schlitten gesperrt"]
    _choose(login, "fr")
    frames = [e["decoded"] for e in client.get(f"/api/pit/rounds/{rid}/timeline").get_json()["entries"]
              if e["type"] == "frame"]
    assert frames == ["début du coup", "carte J♥ de sabot vers joueur 1", "sabot verrouillé"]


def test_a_ban_for_three_warnings_reads_in_the_readers_language(app, client, login):
    login("manager")
    for _ in range(3):
        resp = login.post("/api/conduct/warnings", json={"player_id": 6, "reason": "electronic_device",
                                                         "ban_confirmed": True})
        assert resp.status_code == 201, resp.get_json()
    _choose(login, "de")
    bans = client.get("/api/conduct/bans").get_json()
    assert [b["reason"] for b in bans] == ["3 Verwarnungen: muss den Pokerbereich bis zum Ende des Spieltags verlassen"]
    _choose(login, "fr")
    bans = client.get("/api/conduct/bans").get_json()
    assert bans[0]["reason"].startswith("3 avertissements : doit quitter l'espace poker")


def test_an_alert_kept_as_english_text_before_reads_in_french_with_its_amount_formatted(app, client, login):
    with db(app) as s:      # rows from before alerts kept their template: the English sentence only
        for text in ("Table 15 has run at 4 rounds an hour for 50 minutes, below its target of 40",
                     "Table 10 round 1: void of 2085.00 by Paul Pitboss needs a second pit boss",
                     "Table 10: card JH with no round dealing; not settled",
                     "Something the catalog never knew"):
            s.add(Alert(kind="pace_below_target", severity="warning", message=text, at=datetime.now(timezone.utc)))
        s.commit()
    login("pitboss")
    _choose(login, "fr")
    said = [a["message"].replace("\u202f", " ").replace("\xa0", " ").replace("’", "'")
            for a in client.get("/api/alerts").get_json()]
    assert said[0] == "Something the catalog never knew"          # unknown: as it was kept
    assert "2'085,00 CHF" in said[2] and "Paul Pitboss" in said[2] and said[2].startswith("Table 10 coup 1")
    assert said[1].startswith("Table 10 : carte J♥")
    assert not any(CARD_CODE.search(x) for x in said)
    assert "tours" in said[3] or "coups" in said[3]
    assert "rounds an hour" not in " ".join(said)


def test_a_held_rounds_reason_reads_in_the_readers_language(app, client, login):
    from floor import rounds
    from floor.errors import Msg
    from tests.floor.rounds.helpers import HOUSE, tid
    with db(app) as session:
        table = tid(session, 12)
        rounds.open_betting(session, rounds.core.SYSTEM, table, datetime.now(timezone.utc), house=HOUSE)
        rounds.device_fault(session, table, Msg("wheel lost (no status line for {seconds} s mid-round)", seconds=6))
        session.commit()
    login("pitboss")
    _choose(login, "de")
    held = [r for r in client.get("/api/pit/rounds?limit=5").get_json() if r["status"] == "held"]
    assert held and "Kessel" in held[0]["held_reason"] and "wheel lost" not in held[0]["held_reason"]
