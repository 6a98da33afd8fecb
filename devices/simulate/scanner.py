"""A serial card scanner reading blackjack and Casino Hold'em deals in deal order (docs/protocols.md, "The card scanner").

Blackjack (European, no hole card): one card to each seat, the dealer's up card, a second card to
each seat, hits by a simple policy, then the dealer's cards by the house's rules (``rules``: on a
soft 17 he stands or draws as configured; the command line reads them from the floor's config). Casino Hold'em: two cards to
each seat and to the dealer in turn, the flop, the turn and the river. Faults: noise, double read
(the same card again within the duplicate window), silence, unplug and replug.

``on_demand=True`` deals nothing by itself: like a dealer's hand over the reader, it reads the
cards it is asked for (``deal()``: the next cards of its shoe, or given cards), one at a time with
the card timing, and ``new_hand()`` starts a hand (Casino Hold'em: a fresh deck). A test or the demo
dealer that plays the round decides how many cards go out and when.
"""
from __future__ import annotations

import queue
import threading

from devices.scanner import encode_card
from devices.simulate.base import Simulator
from floor.games import blackjack
from floor.games.cards import Card
from floor.games.cards import shoe as new_shoe


def total(cards: list[Card]) -> int:
    return blackjack.hand_value(cards)[0]


def wants_hit(hand: list[Card], dealer_up: Card) -> bool:
    """Simple policy: hit below 12, and below 17 against a dealer 7 or higher (an ace counts 11)."""
    value = total(hand)
    return value < 12 or (value < 17 and total([dealer_up]) >= 7)


class ScannerSimulator(Simulator):
    kind = "scanner"
    TIMINGS = {"card": 0.8, "between": 5.0}

    def __init__(self, end, *, game: str = "blackjack", seats: int = 3, decks: int = 6,
                 prefix: bytes = b"", suffix: bytes = b"", timings: dict | None = None,
                 silence_s: float = 3.0, on_demand: bool = False,
                 rules: blackjack.BlackjackSettings = blackjack.DEFAULT, **kw) -> None:
        super().__init__(end, **kw)
        if game not in ("blackjack", "holdem"):
            raise ValueError("game is blackjack or holdem")
        self.on_demand = on_demand
        self._requests: queue.Queue = queue.Queue()
        self._sent = threading.Condition()
        self.asked = 0   # cards asked for (on demand)
        self.sent = 0    # cards passed over the reader (every mode)
        self.game, self.seats, self.decks, self.rules = game, seats, decks, rules
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

    # --- on demand --------------------------------------------------------------------------

    def deal(self, *cards: Card | str | None, count: int = 0) -> int:
        """On demand: read these cards (a ``Card``, a code like ``"AS"``, or None for the next
        card of the shoe), then ``count`` more from the shoe. Returns how many cards have been
        asked for in all, for ``wait_sent``."""
        items = [c if c is None or isinstance(c, Card) else Card.parse(c) for c in cards] + [None] * count
        with self._sent:
            self.asked += len(items)
            asked = self.asked
        for c in items:
            self._requests.put(("card", c))
        return asked

    def new_hand(self) -> None:
        """On demand: a new hand starts (its faults are drawn; Casino Hold'em takes a fresh deck)."""
        self._requests.put(("hand", None))

    def wait_sent(self, n: int, timeout: float = 10.0) -> bool:
        """Wait until ``n`` cards in all have gone over the reader."""
        with self._sent:
            return self._sent.wait_for(lambda: self.sent >= n or self.stopped, timeout) and self.sent >= n

    @property
    def idle(self) -> bool:
        with self._sent:
            return self.sent >= self.asked

    def _serve(self) -> None:
        faults: set[str] = set()
        if not self.deals:
            self.deals.append([])
        while not self.stopped:
            try:
                what, card = self._requests.get(timeout=0.05)
            except queue.Empty:
                continue
            if what == "hand":
                faults = self.round_faults()
                if self.deals[-1]:
                    self.deals.append([])
                if self.game == "holdem":
                    self._cards = []
                continue
            self.read(card if card is not None else self.draw(), faults)

    # --- reading --------------------------------------------------------------------------

    def read(self, card: Card, faults: set[str]) -> bool:
        if not self.sleep(self.timings["card"]):
            return False
        if not self.deals:
            self.deals.append([])
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
        ok = self.send(data)
        with self._sent:
            self.sent += 1
            self._sent.notify_all()
        return ok

    def run(self) -> None:
        if self.on_demand:
            self._serve()
            return
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
            while total(hand) < 21 and wants_hit(hand, dealer[0]) and not self.stopped:
                hand.append(self.draw())
                self.read(hand[-1], faults)
        while blackjack.dealer_must_draw(dealer, self.rules) and not self.stopped:
            dealer.append(self.draw())
            self.read(dealer[-1], faults)

    def holdem(self, faults: set[str]) -> None:
        for _ in range(2):
            for _seat in range(self.seats + 1):  # the dealer is last in each turn
                self.read(self.draw(), faults)
        for _ in range(5):  # flop, turn, river
            self.read(self.draw(), faults)
