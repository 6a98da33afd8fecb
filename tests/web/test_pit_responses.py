"""The pit's responses match their documented schemas field by field (schemathesis checks each body
against the OpenAPI document): timelines of a corrected coup, a corrected blackjack round and a
held spin whose void waits for a second pit boss, the rulings, the shift figures, the conduct
review, the pace, the hourly win/loss, a wheel, and the poker hands and rulings of the showdown tool."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import select

from floor import pit, rounds, staff
from floor.actors import Actor
from floor.models import Staff
from floor.poker import conduct
from floor.rounds import bets
from floor.games.poker import RakeSettings
from floor.settings import HouseSettings
from tests.conftest import app_session
from tests.floor.rounds.helpers import DEALER, at, event, fund, tid
from tests.web import roulette_rounds

HOUSE = HouseSettings()
# Player 2H 3D + 8C = 3, Banker 7S KC = 7: banker wins; the fifth card was really a 4C (player 9).
COUP = [("player", "2H"), ("banker", "7S"), ("player", "3D"), ("banker", "KC"), ("player", "8C")]


def _conforms(app, headers: dict, cases: list[tuple]) -> list:
    """Each (path template, method, path parameters[, body[, query]]): called for real, its body
    checked against the OpenAPI document; the bodies."""
    import schemathesis
    from schemathesis.specs.openapi.checks import response_schema_conformance
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    bodies = []
    for path, method, params, *rest in cases:
        body, query = (rest + [None, None])[:2]
        case = schema[path][method].Case(path_parameters=params, **({"body": body} if body is not None else {}),
                                         **({"query": query} if query else {}))
        response = case.call(headers=headers)
        assert response.status_code == 200, (path, response.status_code, response.text[:300])
        case.validate_response(response, checks=[response_schema_conformance], headers=headers)
        bodies.append(response.json())
    return bodies


def _held_spin(app, stakes: dict[str, int], player_id: int, spin: int, minutes_ago: int) -> int:
    """A roulette round at table 12 held by a wheel fault (as ``roulette_rounds.held``, on its own spin)."""
    t = datetime.now(timezone.utc) - timedelta(minutes=minutes_ago)
    with app_session(app) as s:
        table = tid(s, 12)
        fund(s, player_id, 500_000)
        rounds.wheel_status(s, table, 2, spin, (), t, house=HOUSE)
        s.commit()
        for spot, amount in stakes.items():
            bets.place(s, roulette_rounds.WHEEL, table, spot=spot, amount=amount, player_id=player_id,
                       at=t + timedelta(seconds=1), house=HOUSE)
        s.commit()
        rounds.wheel_status(s, table, 4, spin, (), t + timedelta(seconds=5), house=HOUSE)
        s.commit()
        rounds.wheel_status(s, table, 4, spin, {"fault"}, t + timedelta(seconds=6), house=HOUSE)   # fault flag: held
        s.commit()
        return rounds.last_round(s, table).id


def _boss(s, username: str) -> Actor:
    b = s.execute(select(Staff).where(Staff.username == username)).scalar_one()
    return Actor(b.name, b.role, f"pit-{username}", b.id)


def _corrected_coup(s) -> int:
    table = tid(s, 10)
    rounds.new_shoe(s, DEALER, table, at(0), house=HOUSE)
    s.commit()
    fund(s, 5, 20_000)
    r = rounds.open_betting(s, DEALER, table, at(1), house=HOUSE)
    s.commit()
    for spot, amount in {"player": 1_000, "banker": 2_000}.items():
        bets.place(s, DEALER, table, spot=spot, amount=amount, player_id=5, at=at(2), house=HOUSE)
    s.commit()
    event(s, rounds.coup_start, table, at(5), raw=b"\x02S0\x03", device="shoe-10")
    for i, (target, card) in enumerate(COUP):
        event(s, rounds.card, table, card, "shoe", target, at(6 + i), raw=b"\x02D" + card.encode() + b"\x03",
              device="shoe-10", house=HOUSE)
    event(s, rounds.shoe_result, table, "banker", False, False, at(20), raw=b"\x02G1\x03", device="shoe-10")
    pit.rule(s, _boss(s, "pitboss"), r.id, "correct", "the fifth card was a 4C", {"replace": {"5": "4C"}},
             at=at(100), house=HOUSE)
    s.commit()
    return r.id


def _corrected_blackjack(s) -> int:
    table = tid(s, 14)
    rounds.open_betting(s, DEALER, table, at(200), house=HOUSE)
    bets.place(s, DEALER, table, spot="bet", amount=1_000, seat=2, at=at(201), house=HOUSE)
    s.commit()
    rounds.close_betting(s, DEALER, table, at(205))
    s.commit()
    for i, card in enumerate(("TH", "6S", "9D", "TC")):
        event(s, rounds.card, table, card, "scanner", None, at(206 + i), house=HOUSE)
    event(s, rounds.decide, DEALER, table, 2, "stand", at(211), house=HOUSE)
    event(s, rounds.card, table, "5H", "scanner", None, at(212), house=HOUSE)
    r = rounds.last_round(s, table)
    pit.rule(s, _boss(s, "pitboss"), r.id, "correct", "the dealer's draw was a 2", {"replace": {"6": "2H"}},
             at=at(300), house=HOUSE)
    s.commit()
    return r.id


def _poker_hand_and_ruling(s, boss: Actor) -> None:
    from floor.pit import showdown
    from floor.poker import table as poker_table
    from tests.floor.poker_helpers import T0 as P0
    from tests.floor.poker_helpers import fill
    from tests.floor.poker_helpers import table as poker_table_by_number
    t = poker_table_by_number(s, 1)
    fill(s, t, [1, 2, 3, 4], seats=[2, 4, 6, 8])
    poker_table.place_button(s, boss, t, 4, "start", now=P0)
    hand = poker_table.new_hand(s, boss, t, HOUSE, now=P0 + timedelta(minutes=5))
    s.commit()
    seats = [showdown.SeatHand(seat, hole, 1_000) for seat, hole in zip((6, 8, 2, 4), ("AS AD", "KS KD", "QS QD", "JS JD"))]
    showdown.record_ruling(s, boss, t, f"#{hand.number}", "holdem", seats, ["2C 7D 9H TC 3S"], 0, "chips to the wrong seat",
                          RakeSettings())


def test_the_pits_responses_match_their_documented_schemas(app):
    small = _held_spin(app, {"red": 1_000}, 3, 70, 10)
    with app_session(app) as s:
        first, second = _boss(s, "pitboss"), _boss(s, "pitboss2")
        waiting = pit.rule(s, first, small, "void", "ball jumped out", house=HouseSettings(dispute_two_person_cents=1))
        s.commit()
        pit.reject(s, second, waiting.id, "the camera shows a fair spin")          # an approval entry
        pit.rule(s, first, small, "void", "the ball did jump out", house=HOUSE)    # then voided
        s.commit()
    big = _held_spin(app, {"red": 40_000, "odd": 40_000, "low": 40_000}, 2, 71, 5)
    with app_session(app) as s:
        coup, blackjack = _corrected_coup(s), _corrected_blackjack(s)
        pit.rule(s, first, big, "void", "wheel sensor fault", house=HOUSE)           # waits for a second pit boss
        warning = conduct.give_warning(s, first, 3, "electronic_device", HOUSE, note="phone at the table").warning
        s.flush()
        conduct.lift_warning(s, first, warning.id, "his pager for work")
        conduct.ban_player(s, first, HOUSE, 4, "abusive to the dealer", datetime.now(timezone.utc) + timedelta(hours=3))
        _poker_hand_and_ruling(s, first)
        token = staff.create_token(s, Actor.system("test"), "admin", "pit schemas")
        s.commit()
    headers = {"Authorization": f"Bearer {token}"}
    bodies = _conforms(app, headers, [
        ("/api/pit/rounds/{round_id}/timeline", "GET", {"round_id": coup}),
        ("/api/pit/rounds/{round_id}/timeline", "GET", {"round_id": blackjack}),
        ("/api/pit/rounds/{round_id}/timeline", "GET", {"round_id": big}),
        ("/api/pit/rounds/{round_id}/timeline", "GET", {"round_id": small}),
        ("/api/pit/rulings", "GET", {}),
        ("/api/pit/shift", "GET", {}),
        ("/api/pit/conduct", "GET", {}),
        ("/api/pit/pace/day", "GET", {}),
        ("/api/pit/win-loss/hourly", "GET", {}),
        ("/api/pit/wheels/{table_number}", "GET", {"table_number": 12}),
        ("/api/tables/{table_number}/seated", "GET", {"table_number": 12}),
        ("/api/pit/ratings/visits", "GET", {}),
        ("/api/pit/poker/hands", "GET", {}, None, {"table_number": 1}),
        ("/api/pit/poker/linked-rulings", "GET", {}),
        ("/api/pit/poker/rulings", "GET", {}),
        ("/api/pit/poker/showdown", "POST", {}, {"table_number": 1, "seats": [
            {"seat": 2, "hole": "AS AD", "put_in": 1_000}, {"seat": 4, "hole": "KS KD", "put_in": 500, "folded": True},
            {"seat": 6, "hole": "QS QD", "put_in": 1_000}], "boards": ["2C 7D 9H TC 3S"]}),
    ])
    assert len(bodies) == 16
    coup_tl, blackjack_tl, big_tl, small_tl = bodies[:4]
    # what was checked is what a pit boss reads: every kind of entry, corrected layouts, a pending ruling
    kinds = {e["type"] for tl in bodies[:4] for e in tl["entries"]}
    assert kinds == {"frame", "card", "event", "bet", "transfer", "settlement", "ruling", "approval"}
    fifth = coup_tl["corrected_layout"]["player"][2]
    assert (fifth["card"], fifth["corrected"], fifth["was"]) == ("4C", True, "8C")
    assert blackjack_tl["decisions"][0]["action"] == "stand" and blackjack_tl["corrected_layout"]["dealer_total"] == 18
    assert big_tl["pending"]["state"] == "pending" and small_tl["rulings"][0]["approval"]["decision"] == "rejected"
    assert bodies[6]["warnings"][0]["lift_reason"] == "his pager for work" and bodies[6]["bans"][0]["state"] == "in_force"
    assert bodies[12][0]["seats"] and bodies[13][0]["hand"]["number"] == bodies[12][0]["number"]
