from devices.shoe import CardDealt, CardDrawn, CoupStart, CutCard, ShoeError, ShoeResult
from devices.shoe_rules import (
    CardAccepted,
    CardRejected,
    CoupOpened,
    CoupResult,
    LastCoup,
    ShoeFinished,
    ShoeHold,
    ShoeRules,
)
from floor.games.cards import Card


def run(rules, *events):
    return [o for e in events for o in rules.feed(e)]


def deal(*pairs):
    """('player', 'AS'), ('banker', 'KD'), … in order, with their indexes."""
    counts = {"player": 0, "banker": 0}
    events = []
    for target, code in pairs:
        counts[target] += 1
        events.append(CardDealt(target, counts[target], Card.parse(code)))
    return events


NATURAL = deal(("player", "4S"), ("banker", "2D"), ("player", "5H"), ("banker", "3C"))  # 9 v 5


def test_a_coup_is_numbered_and_its_result_computed_by_the_host():
    out = run(ShoeRules(), CardDrawn(Card.parse("7H")), CoupStart(), *NATURAL, ShoeResult("player", False, False))
    assert out[0] == CardAccepted(1, None, "burn", 1, Card.parse("7H"))
    assert out[1] == CoupOpened(1, 1)
    assert [type(o) for o in out[2:6]] == [CardAccepted] * 4
    assert out[-1] == CoupResult(1, 1, "player", False, False)


def test_a_disagreeing_shoe_result_holds_the_coup():
    out = run(ShoeRules(), CoupStart(), *NATURAL, ShoeResult("banker", False, False))
    assert out[-1] == ShoeHold(1, 1, "the shoe's result disagrees with the cards")


def test_cards_outside_a_coup_out_of_order_or_impossible_are_rejected():
    rules = ShoeRules(decks=1)
    out = run(rules, CardDealt("player", 1, Card.parse("2S")))
    assert out == [CardRejected(1, None, Card.parse("2S"), "no coup dealing")]
    out = run(rules, CoupStart(), *NATURAL, CardDealt("banker", 3, Card.parse("8C")))  # overdraw
    assert isinstance(out[-2], CardRejected) and out[-1] == ShoeHold(1, 1, "card out of order")
    out = run(rules, ShoeResult("player", False, False))
    assert out == []  # held coups are not settled by the device
    out = run(rules, CoupStart(), CardDealt("player", 1, Card.parse("4S")))  # 4S already dealt from one deck
    assert out[-2].reason == "more than 1 copies in the shoe"


def test_cut_card_makes_the_coup_in_progress_the_last_one():
    rules = ShoeRules()
    out = run(rules, CoupStart(), *NATURAL[:2], CutCard(), *NATURAL[2:], ShoeResult("player", False, False))
    assert LastCoup(1, 1) in out and out[-1] == ShoeFinished(1)
    out = run(rules, CoupStart(), CardDealt("player", 1, Card.parse("9C")))
    assert out[0].reason.startswith("coup after the last coup")
    assert out[1].reason.startswith("shoe finished")
    rules.new_shoe()
    assert run(rules, CoupStart()) == [CoupOpened(2, 1)]


def test_errors_mid_coup_and_forced_quit_hold():
    assert run(ShoeRules(), CoupStart(), ShoeError(2))[-1] == ShoeHold(1, 1, "shoe error 2")
    assert run(ShoeRules(), CoupStart(), *NATURAL, ShoeResult("quit", False, False))[-1].reason == "forced quit"
