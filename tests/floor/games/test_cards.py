import random

import pytest

from floor.games.cards import Card, InvalidCard, parse_cards, shoe


@pytest.mark.parametrize("text,rank,suit,printed", [
    ("AS", 14, "S", "AS"), ("10H", 10, "H", "TH"), ("Td", 10, "D", "TD"),
    ("2c", 2, "C", "2C"), (" kh ", 13, "H", "KH"),
])
def test_parse_and_print(text, rank, suit, printed):
    card = Card.parse(text)
    assert (card.rank, card.suit, str(card)) == (rank, suit, printed)


@pytest.mark.parametrize("text", ["", "A", "1S", "11H", "AX", "ASS", "10", None, 5])
def test_parse_refuses_non_cards(text):
    with pytest.raises(InvalidCard):
        Card.parse(text)


def test_shoe_holds_every_card_once_per_deck():
    cards = shoe(8, random.Random(1))
    assert len(cards) == 416
    assert all(cards.count(c) == 8 for c in set(cards))
    assert len(set(cards)) == 52


def test_parse_cards_string():
    assert [str(c) for c in parse_cards("AS, 10h 2c")] == ["AS", "TH", "2C"]
