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


def test_a_ban_for_refusing_to_move_keeps_its_message_and_reads_in_french_and_german(app, client, login):
    from floor.actors import Actor
    from floor.models import Table
    from floor.poker import queries, seating
    from floor.settings import HouseSettings
    from tests.floor.poker_helpers import T0, fill, open_mm
    with db(app) as s:      # main (table 1) full, table 2 its must-move table; a seat opens at main
        main = s.execute(select(Table).where(Table.number == 1)).scalar_one()
        fill(s, main, range(1, 11), T0)
        open_mm(s, now=T0)
        fill(s, s.execute(select(Table).where(Table.number == 2)).scalar_one(), range(11, 21), T0)
        seating.leave(s, Actor.system("test"), HouseSettings(), queries.open_assignment(s, main.id, 3), "left", 0, T0)
    login("manager")
    for player, typed in ((11, "wants to stay"), (12, "")):
        resp = login.post("/api/mustmove/tables/2/refuse", json={"player_id": player, "reason": typed})
        assert resp.status_code == 200, resp.get_json()
    with db(app) as s:
        kept = {b.player_id: (b.reason_msg, b.reason) for b in s.execute(select(Ban)).scalars()}
    assert kept[11] == ({"template": "refused to move from table {from_table} to table {to_table} (must-move): {note}",
                         "params": {"from_table": 2, "to_table": 1, "note": "wants to stay"}},
                        "refused to move from table 2 to table 1 (must-move): wants to stay")
    assert kept[12][0]["template"] == "refused to move from table {from_table} to table {to_table} (must-move)"
    for lang, said in (("fr", ["a refusé de passer de la table 2 à la table 1 (must-move)",
                               "a refusé de passer de la table 2 à la table 1 (must-move) : wants to stay"]),
                       ("de", ["hat den Wechsel von Tisch 2 an Tisch 1 verweigert (Must-Move)",
                               "hat den Wechsel von Tisch 2 an Tisch 1 verweigert (Must-Move): wants to stay"])):
        _choose(login, lang)
        assert sorted(b["reason"] for b in client.get("/api/conduct/bans").get_json()) == said


def test_a_round_voided_by_a_ruling_says_why_in_french_and_german(app, client, login):
    from tests.web import roulette_rounds
    rid = roulette_rounds.held(app, {"red": 2_000}, 4)
    login("pitboss")
    made = login.post(f"/api/pit/rounds/{rid}/rulings", json={"kind": "void", "reason": "ball jumped out"})
    assert made.status_code == 201 and made.get_json()["state"] == "applied", made.get_json()
    ruling = made.get_json()["id"]
    with db(app) as s:
        settlement = s.execute(select(Settlement).where(Settlement.round_id == rid)).scalar_one()
        assert settlement.reason_msg == {"template": "ruling {ruling}: {reason}",
                                         "params": {"ruling": ruling, "reason": "ball jumped out"}}
    for lang, said in (("fr", f"décision {ruling} : ball jumped out"), ("de", f"Entscheid {ruling}: ball jumped out")):
        _choose(login, lang)
        assert client.get(f"/api/pit/rounds/{rid}/timeline").get_json()["round"]["settlement"]["reason"] == said


def test_a_settled_round_voided_by_a_ruling_says_why_beside_its_transfers_in_french_and_german(app, client, login):
    from tests.web import roulette_rounds
    rid = roulette_rounds.held(app, {"red": 2_000}, 4, settle_on=1)      # red won: voided, the money goes back
    login("pitboss")
    made = login.post(f"/api/pit/rounds/{rid}/rulings", json={"kind": "void", "reason": "dealer error"})
    assert made.status_code == 201 and made.get_json()["state"] == "applied", made.get_json()
    ruling = made.get_json()["id"]
    for lang, said in (("fr", f"décision {ruling} : dealer error"), ("de", f"Entscheid {ruling}: dealer error")):
        _choose(login, lang)
        tl = client.get(f"/api/pit/rounds/{rid}/timeline").get_json()
        memos = [x["memo"] for x in tl["transfers"] if x["kind"] == "correction"]
        memos += [e["memo"] for e in tl["entries"] if e["type"] == "transfer" and e["kind"] == "correction"]
        assert memos and set(memos) == {said}


def test_what_a_device_line_refuses_and_a_device_fault_read_in_french_and_german(app, client, login):
    from devices.dispatch import RoundsDispatch
    from devices.protocols import scan
    from devices.scanner import CardInNoise, ScannerDecoder
    from devices.shoe import SeqReused, ShoeDecoder, encode_card
    from devices.wheel import FLAG_FAULT, WheelStatus
    from floor import device_health
    now = datetime.now(timezone.utc)
    [lost] = [e for e in ScannerDecoder().feed(b"#%&x!" * 10 + b"SA\r\n", now=0) if isinstance(e, CardInNoise)]
    shoe = ShoeDecoder()        # a SEQ used again with new content: refused
    shoe.feed(encode_card(1, "player", 1, "3H"))
    [reused] = [e for e in shoe.feed(encode_card(1, "player", 2, "9D")) if isinstance(e, SeqReused)]
    fault, _beat, _watch = scan("wheel", [WheelStatus(4, 3, None, FLAG_FAULT, 25.0, 0)])
    with db(app) as s:
        dispatch = RoundsDispatch(lambda: s, HOUSE)
        dispatch.event(s, tid(s, 14), "scanner-14", "scanner", lost, now)
        dispatch.event(s, tid(s, 10), "shoe-10", "shoe", reused, now)
        device_health.record(s, "wheel-12", {"kind": "wheel", "table": "12", "state": "running", "connected": True,
                                             "lost": False, "fault": fault}, tid(s, 12), now)
        s.commit()
    login("pitboss")
    for lang, noise, seq, broken in (
            ("fr", "Table 14 : carte A♠ après du bruit sur la ligne : pas lue",
             "Table 10 : SEQ '1' répété avec un autre contenu : pas une nouvelle trame",
             "défaut capteur/moteur/codeur (indicateur 4)"),
            ("de", "Tisch 14: Karte A♠ nach Leitungsstörung: nicht gelesen",
             "Tisch 10: SEQ '1' mit neuem Inhalt wiederholt: kein neuer Frame", "Sensor-/Motor-/Encoder-Fehler (Flag 4)")):
        _choose(login, lang)
        messages = [a["message"] for a in client.get("/api/alerts").get_json()]
        assert noise in messages and seq in messages, messages
        assert any(m.endswith(broken) for m in messages), messages
