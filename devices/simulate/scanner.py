"""A serial card scanner reading blackjack and Casino Hold'em deals in deal order (DEVICES.md §3).

Blackjack (European, no hole card): one card to each seat, the dealer's up card, a second card to
each seat, hits by a simple policy, then the dealer's cards to 17. Casino Hold'em: two cards to
each seat and to the dealer in turn, the flop, the turn and the river. Faults: noise, double read
(the same card again within the duplicate window), silence, unplug and replug.
"""
from __future__ import annotations

from floor.games.cards import Card, shoe as new_shoe
from devices.scanner import encode_card
from devices.simulate.base import Simulator


def bj_total(cards: list[Card]) -> int:
    total = sum(11 if c.rank == 14 else min(c.rank, 10) for c in cards)
    aces = sum(c.rank == 14 for c in cards)
    while total > 21 and aces:
        total, aces = total - 10, aces - 1
    return total


def wants_hit(hand: list[Card], dealer_up: Card) -> bool:
    """Simple policy: hit below 12, and below 17 against a dealer 7 or higher."""
    total = bj_total(hand)
    up = 11 if dealer_up.rank == 14 else min(dealer_up.rank, 10)
    return total < 12 or (total < 17 and up >= 7)


class ScannerSimulator(Simulator):
    kind = "scanner"
    TIMINGS = {"card": 0.8, "between": 5.0}

    def __init__(self, end, *, game: str = "blackjack", seats: int = 3, decks: int = 6,
                 prefix: bytes = b"", suffix: bytes = b"", timings: dict | None = None,
                 silence_s: float = 3.0, **kw) -> None:
        super().__init__(end, **kw)
        if game not in ("blackjack", "holdem"):
            raise ValueError("game is blackjack or holdem")
        self.game, self.seats, self.decks = game, seats, decks
        self.prefix, self.suffix = prefix, suffix
        self.timings = {**self.TIMINGS, **(timings or {})}
        self.silence_s = silence_s
        self.deals: list[list[str]] = []  # cards of each deal in scan order, for tests
        self._cards: list[Card] = []

    def draw(self) -> Card:
        # blackjack reshuffles at a deck from the end; Casino Hold'em starts each hand on a new deck
        if not self._cards or (self.game == "blackjack" and len(self._cards) < 52):
            self._cards = new_shoe(self.decks if self.game == "blackjack" else 1, self.rng)
        return self._cards.pop()

    def read(self, card: Card, faults: set[str]) -> bool:
        if not self.sleep(self.timings["card"]):
            return False
        self.deals[-1].append(str(card))
        data = encode_card(card, self.prefix, self.suffix)
        if "double_read" in faults and len(self.deals[-1]) == 2:
            data += data  # the card passes over the reader twice in a few milliseconds
        if "noise" in faults and len(self.deals[-1]) == 3:
            data = self.noise() + data
        if "unplug" in faults and len(self.deals[-1]) == 4:
            self.unplug_for(self.unplug_s)
        if "silence" in faults and len(self.deals[-1]) == 4:
            self._stop.wait(self.silence_s)
        return self.send(data)

    def run(self) -> None:
        while not self.stopped:
            faults = self.round_faults()
            self.deals.append([])
            if self.game == "holdem":
                self._cards = []  # Casino Hold'em: a fresh single deck every hand
                self.holdem(faults)
            else:
                self.blackjack(faults)
            self.sleep(self.timings["between"])

    def blackjack(self, faults: set[str]) -> None:
        hands: list[list[Card]] = [[] for _ in range(self.seats)]
        dealer: list[Card] = []
        for seat in range(self.seats):
            hands[seat].append(self.draw())
            self.read(hands[seat][-1], faults)
        dealer.append(self.draw())
        self.read(dealer[0], faults)
        for seat in range(self.seats):
            hands[seat].append(self.draw())
            self.read(hands[seat][-1], faults)
        for hand in hands:
            while bj_total(hand) < 21 and wants_hit(hand, dealer[0]) and not self.stopped:
                hand.append(self.draw())
                self.read(hand[-1], faults)
        while bj_total(dealer) < 17 and not self.stopped:
            dealer.append(self.draw())
            self.read(dealer[-1], faults)

    def holdem(self, faults: set[str]) -> None:
        for _ in range(2):
            for _seat in range(self.seats + 1):  # the dealer is last in each turn
                self.read(self.draw(), faults)
        for _ in range(5):  # flop, turn, river
            self.read(self.draw(), faults)
