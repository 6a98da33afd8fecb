"""The baccarat engine alone: cards and the shoe's result in, outcomes out."""
from datetime import datetime, timedelta, timezone

from floor.games.cards import Card
from floor.rounds.engines.baccarat import (
    Accept,
    CoupState,
    Dealt,
    Hold,
    Refuse,
    Repeat,
    Result,
    ShoeSays,
    Stray,
    Waiting,
    step,
)

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)
# Player 3H 9D 9H = 1, Banker 6D QH = 6: the Player drew, the Banker stood; Banker wins
COUP = [("player", 1, "3H"), ("banker", 1, "6D"), ("player", 2, "9D"), ("banker", 2, "QH"), ("player", 3, "9H")]


def run(state, events, now=T0):
    out = []
    for e in events:
        state, more = step(state, e, now)
        out += more
    return state, out


def shoe(target, index, code):
    return Dealt(Card.parse(code), "shoe", target, index)


def test_a_shoe_coup_waits_for_the_shoes_result_and_agrees():
    state, out = run(CoupState("dealing", decks=8), [shoe(*c) for c in COUP])
    assert [type(o) for o in out] == [Accept] * 5 + [Waiting]
    assert [o.target for o in out[:5]] == ["player", "banker", "player", "banker", "player"]
    state, out = run(state, [ShoeSays("banker", False, False)])
    [result] = out
    assert isinstance(result, Result) and result.result["winner"] == "banker"
    assert result.result["player"] == ["3H", "9D", "9H"] and state.status == "result"
    assert run(state, [ShoeSays("banker", False, False)])[1] == []   # the same G again: one result


def test_the_shoes_result_must_agree_with_the_cards_and_come_last():
    state, _ = run(CoupState("dealing", decks=8), [shoe(*c) for c in COUP])
    state2, out = run(state, [ShoeSays("player", False, False)])
    assert out == [Hold("the shoe says player, the cards say banker",
                        {"shoe": {"winner": "player", "player_pair": False, "banker_pair": False},
                         "host": {"winner": "banker", "player_pair": False, "banker_pair": False}})]
    assert state2.status == "held"
    _, out = run(CoupState("dealing", decks=8), [shoe(*c) for c in COUP[:3]] + [ShoeSays("banker", False, False)])
    assert out[-1] == Hold("the shoe gave a result before the coup was complete",
                           {"winner": "banker", "player_pair": False, "banker_pair": False})


def test_scanner_cards_go_where_the_tableau_says_and_settle_without_a_shoe():
    cards = [Dealt(Card.parse(code), "scanner") for _, _, code in COUP]
    _, out = run(CoupState("dealing"), cards)
    assert isinstance(out[-1], Result) and out[-1].result["winner"] == "banker"


def test_a_misdeal_a_skipped_place_and_a_repeat():
    _, out = run(CoupState("dealing", decks=8), [shoe("player", 1, "3H"), shoe("player", 2, "9D")])
    assert isinstance(out[1], Refuse) and out[2] == Hold("misdeal: card 9D to player, the tableau wants banker")
    _, out = run(CoupState("dealing", decks=8), [shoe("player", 1, "3H"), shoe("banker", 1, "6D"),
                                                  shoe("player", 3, "9D")])
    assert out[-1] == Hold("misdeal: card 9D to player 3, the tableau wants player 2")
    state, out = run(CoupState("dealing", decks=8), [shoe("player", 1, "3H"), shoe("banker", 1, "6D"),
                                                      shoe("player", 1, "3H")])
    assert out[-1] == Repeat(Card.parse("3H")) and len(state.cards) == 2


def test_a_locked_shoe_and_an_impossible_card_hold_the_coup():
    state, out = run(CoupState("dealing", decks=8, locked=True), [shoe("player", 1, "3H")])
    assert out == [Refuse(Card.parse("3H"), "player", "the shoe reports itself locked", True),
                   Hold("card 3H dealt while the shoe reports itself locked", {"card": "3H"})]
    assert state.status == "held" and state.cards == ()
    _, out = run(CoupState("dealing", decks=1, counts={"3H": 1}), [shoe("player", 1, "3H")])
    assert [type(o) for o in out] == [Refuse, Stray, Hold]
    _, out = run(CoupState("betting", decks=8), [shoe("player", 1, "3H")])   # bets still open
    assert [type(o) for o in out] == [Refuse, Stray] and out[1].kind == "card_no_round"


def test_a_result_with_no_coup_is_alerted_unless_it_repeats_the_last_one():
    last = {"result": {"winner": "tie", "player_pair": False, "banker_pair": False}, "status": "settled", "at": T0}
    g = ShoeSays("tie", False, False)
    assert run(CoupState(None, last=last), [g], T0 + timedelta(seconds=10))[1] == []
    [stray] = run(CoupState(None, last=last), [g], T0 + timedelta(seconds=31))[1]
    assert stray.kind == "result_without_no_more_bets"
    state, out = run(CoupState("betting"), [g])
    assert [type(o) for o in out] == [Stray, Hold] and state.status == "held"
