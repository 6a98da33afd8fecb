"""Poker hand ranks: full 5-card enumeration, differential tests against pokerkit, Six Plus orders."""
import random
from collections import Counter
from itertools import combinations

import pytest
from pokerkit import Label, OmahaEightOrBetterLowHand, OmahaHoldemHand, StandardHighHand

from floor.games.base import GameInputError
from floor.games.cards import Card, deck, parse_cards
from floor.games.poker import HandRank, five_card_rank, hand_rank, low_rank

LABEL = {
    Label.HIGH_CARD: "high_card", Label.ONE_PAIR: "pair", Label.TWO_PAIR: "two_pair",
    Label.THREE_OF_A_KIND: "three_of_a_kind", Label.STRAIGHT: "straight", Label.FLUSH: "flush",
    Label.FULL_HOUSE: "full_house", Label.FOUR_OF_A_KIND: "four_of_a_kind",
    Label.STRAIGHT_FLUSH: "straight_flush",
}


def pk(cards) -> str:
    """pokerkit spells cards rank then lower-case suit: 'As', 'Td'."""
    return "".join(str(c)[0] + str(c)[1].lower() for c in cards)


def sign(x) -> int:
    return (x > 0) - (x < 0)


# --- the full 5-card enumeration, through the hold'em code path we ship --------------------

@pytest.mark.slow
def test_all_2598960_five_card_hands():
    cards = tuple(deck())
    values = Counter(hand_rank("holdem", five[:2], five[2:]).value for five in combinations(cards, 5))
    by_category = Counter()
    for value, n in values.items():
        by_category[HandRank(value).category] += n
    assert sum(by_category.values()) == 2_598_960
    assert by_category == {
        "straight_flush": 40, "four_of_a_kind": 624, "full_house": 3_744, "flush": 5_108,
        "straight": 10_200, "three_of_a_kind": 54_912, "two_pair": 123_552, "pair": 1_098_240,
        "high_card": 1_302_540,
    }
    assert len(values) == 7_462  # distinct five-card hand values


@pytest.mark.slow
def test_all_376992_six_plus_hands():
    cards = tuple(c for c in deck() if c.rank >= 6)
    counts = Counter(hand_rank("sixplus", five[:2], five[2:]).category for five in combinations(cards, 5))
    assert counts == {
        "straight_flush": 24, "four_of_a_kind": 288, "flush": 480, "full_house": 1_728,
        "three_of_a_kind": 16_128, "straight": 6_120, "two_pair": 36_288, "pair": 193_536,
        "high_card": 122_400,
    }


# --- differential tests against pokerkit -------------------------------------------------------

def deals(seed, n, hole, board, players, ranks=None, suits="SHDC"):
    """Random deals; a reduced deck (few ranks or suits) forces the rare hands to come up."""
    rng = random.Random(seed)
    cards = [c for c in deck() if (ranks is None or c.rank in ranks) and c.suit in suits]
    for _ in range(n):
        drawn = rng.sample(cards, board + hole * players)
        yield drawn[:board], [drawn[board + hole * i: board + hole * (i + 1)] for i in range(players)]


DECKS = [  # (seed, deals, ranks, suits)
    (1, 400, None, "SHDC"),
    (2, 150, {14, 2, 3, 4, 5, 6, 7}, "SHDC"),        # wheels, small straights, full houses
    (3, 150, {10, 11, 12, 13, 14, 9}, "SHDC"),      # broadway straights, quads
    (4, 150, None, "SH"),                            # flushes and straight flushes
]


@pytest.mark.parametrize("seed,n,ranks,suits", DECKS)
def test_holdem_matches_pokerkit(seed, n, ranks, suits):
    players = 4 if suits == "SHDC" and ranks is None else 3
    for board, holes in deals(seed, n, 2, 5, players, ranks, suits):
        ours = [hand_rank("holdem", h, board) for h in holes]
        theirs = [StandardHighHand.from_game(pk(h), pk(board)) for h in holes]
        for o, t in zip(ours, theirs):
            assert o.category == LABEL[t.entry.label], (board, holes)
        for i, j in combinations(range(players), 2):
            assert sign(ours[i].value - ours[j].value) == \
                (theirs[i] > theirs[j]) - (theirs[i] < theirs[j]), (board, holes[i], holes[j])


@pytest.mark.parametrize("board_size", [3, 4])
def test_flop_and_turn_ranks_match_pokerkit(board_size):
    """Fewer board cards take other code paths (6-card native call, Omaha by combinations)."""
    for variant, hole, kind in (("holdem", 2, StandardHighHand), ("omaha", 4, OmahaHoldemHand)):
        for board, holes in deals(30 + board_size, 150, hole, board_size, 3):
            ours = [hand_rank(variant, h, board) for h in holes]
            theirs = [kind.from_game(pk(h), pk(board)) for h in holes]
            for o, t in zip(ours, theirs):
                assert o.category == LABEL[t.entry.label], (board, holes)
            for i, j in combinations(range(3), 2):
                assert sign(ours[i].value - ours[j].value) == (theirs[i] > theirs[j]) - (theirs[i] < theirs[j])


@pytest.mark.parametrize("seed,n,ranks,suits", [(11, 150, None, "SHDC"), (12, 60, None, "SH"),
                                                 (13, 60, {14, 13, 12, 11, 10, 9, 8, 7}, "SHDC")])
def test_omaha_high_matches_pokerkit(seed, n, ranks, suits):
    for board, holes in deals(seed, n, 4, 5, 3, ranks, suits):
        ours = [hand_rank("omaha", h, board) for h in holes]
        theirs = [OmahaHoldemHand.from_game(pk(h), pk(board)) for h in holes]
        for o, t in zip(ours, theirs):
            assert o.category == LABEL[t.entry.label], (board, holes)
        for i, j in combinations(range(3), 2):
            assert sign(ours[i].value - ours[j].value) == (theirs[i] > theirs[j]) - (theirs[i] < theirs[j])
        assert hand_rank("omaha_hilo", holes[0], board) == ours[0]


@pytest.mark.parametrize("seed,n,ranks", [(21, 200, None), (22, 200, {14, 2, 3, 4, 5, 6, 7, 8, 9, 13})])
def test_omaha_low_matches_pokerkit(seed, n, ranks):
    qualifying = 0
    for board, holes in deals(seed, n, 4, 5, 3, ranks):
        ours = [low_rank(h, board) for h in holes]
        theirs = []
        for h in holes:
            try:
                theirs.append(OmahaEightOrBetterLowHand.from_game(pk(h), pk(board)))
            except ValueError:
                theirs.append(None)
        assert [o is None for o in ours] == [t is None for t in theirs], (board, holes)
        live = [i for i in range(3) if ours[i] is not None]
        qualifying += len(live)
        for i, j in combinations(live, 2):
            # ours: smaller wins; pokerkit: greater is stronger
            assert (ours[i] < ours[j]) == (theirs[i] > theirs[j]), (board, holes[i], holes[j])
            assert (ours[i] == ours[j]) == (theirs[i] == theirs[j])
    assert qualifying > 50  # the test really compared lows


def test_pure_five_card_code_agrees_with_shipped_order():
    """The Six Plus evaluator's shared code, run with the standard order, orders hands like phevaluator."""
    rng = random.Random(5)
    cards = deck()
    hands = [rng.sample(cards, 5) for _ in range(3000)]
    hands += [list(parse_cards(h)) for h in ("AS 2D 3C 4H 5S", "6S 2D 3C 4H 5S", "AS KS QS JS TS")]
    for h in hands:
        assert five_card_rank(h).category == hand_rank("holdem", h[:2], h[2:]).category
    pure = sorted(hands, key=lambda h: five_card_rank(h).value)
    shipped = sorted(hands, key=lambda h: hand_rank("holdem", h[:2], h[2:]).value)
    assert [five_card_rank(h).value for h in pure] == [five_card_rank(h).value for h in shipped]


# --- named hands ---------------------------------------------------------------------------

def rank(variant, hole, board):
    return hand_rank(variant, parse_cards(hole), parse_cards(board))


@pytest.mark.parametrize("better,worse", [
    (("AS AH", "AD AC 2S 3D 4H"), ("KS KH", "KD KC AS 3D 4H")),       # quad aces > quad kings
    (("AS 2D", "3C 4H 5S KD KC"), ("KS QD", "3C 4H 5S KD KC")),       # wheel beats two pair
    (("6S 2D", "3C 4H 5S KD QC"), ("AS 2D", "3C 4H 5S KD QC")),       # 6-high straight > wheel
    (("AS KD", "QC JH TS 2D 3C"), ("KS KH", "QC JH TS 2D 3C")),       # broadway beats trips
    (("AS 9S", "7S 6S 8C 5D 2S"), ("9D 4H", "7S 6S 8C 5D 2S")),       # flush beats a straight
    (("AS 9D", "AD 9S 7S 7D 2S"), ("AC 7C", "AD 9S 7S 5D 2S")),       # one of each pair vs set
    (("AS 9D", "AC KH 7S 5D 3C"), ("AH 8D", "AC KH 7S 5D 3C")),       # kicker decides
])
def test_holdem_orderings(better, worse):
    assert rank("holdem", *better) > rank("holdem", *worse)


def test_equal_hands_tie_and_board_plays():
    assert rank("holdem", "2S 3D", "AC KH QS JD TC") == rank("holdem", "4H 5C", "AC KH QS JD TC")
    assert rank("holdem", "AS 2D", "AC KH 7S 5D 3C").category == "pair"


def test_omaha_uses_exactly_two_hole_cards():
    board = "KH QH JH TH 5S"
    assert rank("holdem", "AH 2C", board).category == "straight_flush"
    # A-K-Q-J-T would take one hole card and four board cards: in Omaha the ace plays with K-Q-J and a 4
    assert rank("omaha", "AH 2C 3C 4D", board).category == "high_card"
    assert rank("omaha", "AH 9H 3C 4D", board).category == "flush"            # A-Q-J-T-9 of hearts
    assert rank("omaha", "9H 8H 3C 4D", board).category == "straight_flush"   # 8-9 with Q-J-T
    assert rank("omaha", "AH 9H 3C 4D", board) < rank("omaha", "9H 8H 3C 4D", board)
    # four spades on board, one in hand: no flush in Omaha
    assert rank("omaha", "AS 7C 7D 2H", "KS QS 9S 3S 8D").category == "pair"
    assert rank("holdem", "AS 7C", "KS QS 9S 3S 8D").category == "flush"


@pytest.mark.parametrize("better,worse", [
    (("7S 7H", "7D KC QS 9D 8H"), ("TS JD", "7D KC QS 9D 8H")),        # trips beat a straight
    (("6S 6H", "6D AC KS 9D 8H"), ("TS JD", "QC KH AS 6D 7C")),        # even the lowest trips beat broadway
])
def test_six_plus_trips_beat_straight(better, worse):
    assert rank("sixplus", *better) > rank("sixplus", *worse)
    assert rank("sixplus", *better).category == "three_of_a_kind"
    assert rank("sixplus", *worse).category == "straight"
    # and the same cards under hold'em rules order the other way
    assert rank("holdem", *better) < rank("holdem", *worse)


def test_six_plus_flush_beats_full_house():
    flush = rank("sixplus", "AS 6S", "9S 8S 7D 7H TS")
    full = rank("sixplus", "7C 9D", "9S 8S 7D 7H TS")
    assert (flush.category, full.category) == ("flush", "full_house")
    assert flush > full
    # the best full house loses to the worst flush
    assert rank("sixplus", "AS AD", "AH KS KD 6C 7C") < rank("sixplus", "6S 7S", "8S 9S JS KD QC")
    assert rank("sixplus", "6S 7S", "8S 9S JS KD QC").category == "flush"
    assert rank("sixplus", "AS AD", "AH AC KD 6C 7C") > rank("sixplus", "AS 6S", "7S 8S JS KD QC")  # quads


def test_six_plus_ace_plays_low_below_six():
    low_straight = rank("sixplus", "AS 6D", "7C 8H 9S KD QC")
    assert low_straight.category == "straight"
    assert low_straight < rank("sixplus", "6S TD", "7C 8H 9S KD QC")   # 6-to-10 is higher
    assert low_straight > rank("sixplus", "AS AD", "7C 8H KS KD QC")   # two pair is lower
    assert rank("sixplus", "AS 6S", "7S 8S 9S KD QC").category == "straight_flush"
    assert rank("sixplus", "AS 6S", "7S 8S 9S KD QC") < rank("sixplus", "6S 7S", "8S 9S TS KD QC")
    # wrap-arounds are not straights
    assert rank("sixplus", "KS AD", "6C 7H 8S QD TC").category == "high_card"
    assert rank("sixplus", "AS KD", "QC JH TS 7D 6C") > rank("sixplus", "AS 6D", "7C 8H 9S KD QC")


def test_six_plus_refuses_small_cards():
    with pytest.raises(GameInputError, match="36-card"):
        rank("sixplus", "AS 5D", "7C 8H 9S KD QC")


def test_low_rank_named_hands():
    assert low_rank(parse_cards("4H 5D KC KS"), parse_cards("AS 2D 3C KH QS")) == (5, 4, 3, 2, 1)
    assert low_rank(parse_cards("4H KD QC JS"), parse_cards("AS 2D 3C 7H 6S")) is None   # one low in hand
    assert low_rank(parse_cards("3H 4D 5C 6S"), parse_cards("AS 2D KC QH JS")) is None   # two low on board
    assert low_rank(parse_cards("AH AD 9C 9S"), parse_cards("2S 3D 4C KH QS")) is None   # paired low cards
    eight_seven = low_rank(parse_cards("8H 7D KC KS"), parse_cards("AS 2D 3C KH QS"))
    eight_six = low_rank(parse_cards("8H 6D KC KS"), parse_cards("AS 2D 3C KH QS"))
    assert eight_six < eight_seven == (8, 7, 3, 2, 1)
    # a pair on board does not spoil the low: 7-5-3-2-A
    assert low_rank(parse_cards("AH 2C 9S 9D"), parse_cards("3C 3D 5H 7S KS")) == (7, 5, 3, 2, 1)


@pytest.mark.parametrize("variant,hole,board,match", [
    ("holdem", "AS", "2C 3D 4H 5S 9D", "hole cards"),
    ("holdem", "AS KS QS", "2C 3D 4H 5S 9D", "hole cards"),
    ("omaha", "AS KS", "2C 3D 4H 5S 9D", "hole cards"),
    ("holdem", "AS KS", "2C 3D", "board"),
    ("holdem", "AS KS", "2C 3D 4H 5S 9D TD", "board"),
    ("holdem", "AS KS", "AS 3D 4H 5S 9D", "twice"),
    ("stud", "AS KS", "2C 3D 4H 5S 9D", "variant"),
])
def test_impossible_hands_refused(variant, hole, board, match):
    with pytest.raises(GameInputError, match=match):
        hand_rank(variant, hole, board)


def test_deterministic_and_accepts_codes():
    a = hand_rank("holdem", "AS KS", "QS JS TS 2C 3D")
    b = hand_rank("holdem", [Card.parse("AS"), Card.parse("KS")], ["QS", "JS", "TS", "2C", "3D"])
    assert a == b and a.category == "straight_flush" and a.value == 7462
