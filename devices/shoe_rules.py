"""The host's rules for a baccarat shoe (docs/protocols.md, the shoe), pure.

The shoe sends no shoe, coup or round id: the host numbers them. ``ShoeRules.feed(event)`` turns
decoded shoe events into outcomes:

- ``CoupOpened(shoe, coup)`` on ``S``; ``CardAccepted`` for each card that fits the tableau;
- ``CardRejected(…, reason)`` for a card while no coup is dealing, after the shoe finished, out of
  the tableau's order (an overdraw) or beyond the copies the shoe's decks hold — never settled;
- ``LastCoup(shoe, coup)`` on the cut card: cards after it belong to the last coup;
- ``CoupResult`` with the host's own result; the shoe's ``G`` only confirms it: a disagreement,
  a forced quit, a result before the coup is complete or a shoe error mid-coup is a ``ShoeHold``;
- ``ShoeFinished(shoe)`` after the last coup: nothing is accepted until ``new_shoe()``.

The tableau is the private one in ``devices.simulate._tableau`` until floor.games.baccarat lands.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from devices.shoe import CardDealt, CardDrawn, CoupStart, CutCard, ShoeError, ShoeResult
from devices.tableau import next_target, outcome
from floor.games.cards import Card

__all__ = ["CoupOpened", "CardAccepted", "CardRejected", "LastCoup", "CoupResult", "ShoeHold",
           "ShoeFinished", "ShoeRules"]


@dataclass(frozen=True, slots=True)
class CoupOpened:
    shoe: int
    coup: int


@dataclass(frozen=True, slots=True)
class CardAccepted:
    shoe: int
    coup: int | None  # None: drawn outside a coup (burn or check)
    target: str
    index: int
    card: Card


@dataclass(frozen=True, slots=True)
class CardRejected:
    shoe: int
    coup: int | None
    card: Card
    reason: str


@dataclass(frozen=True, slots=True)
class LastCoup:
    shoe: int
    coup: int


@dataclass(frozen=True, slots=True)
class CoupResult:
    shoe: int
    coup: int
    winner: str  # computed by the host from the cards
    player_pair: bool
    banker_pair: bool


@dataclass(frozen=True, slots=True)
class ShoeHold:
    shoe: int
    coup: int | None
    reason: str


@dataclass(frozen=True, slots=True)
class ShoeFinished:
    shoe: int


class ShoeRules:
    def __init__(self, decks: int = 8, shoe: int = 1) -> None:
        self.decks = decks
        self.shoe = shoe
        self._reset()

    def _reset(self) -> None:
        self.coup = 0
        self.dealing = False
        self.last_coup = False
        self.finished = False
        self.held = False
        self.player: list[Card] = []
        self.banker: list[Card] = []
        self.copies: Counter[Card] = Counter()

    @property
    def round_in_progress(self) -> bool:
        return self.dealing

    def new_shoe(self) -> list:
        """The dealer confirmed a new shoe (the host sends ``GP 00``)."""
        self.shoe += 1
        self._reset()
        return []

    def tick(self, now: float | None = None) -> list:
        return []

    def feed(self, event, now: float | None = None) -> list:
        out: list = []
        if isinstance(event, CoupStart):
            if self.finished:
                out.append(ShoeHold(self.shoe, None, "coup after the last coup: confirm a new shoe"))
                return out
            if self.dealing:
                out.append(ShoeHold(self.shoe, self.coup, "coup ended without a result"))
            self.coup += 1
            self.dealing, self.held = True, False
            self.player, self.banker = [], []
            out.append(CoupOpened(self.shoe, self.coup))
        elif isinstance(event, (CardDealt, CardDrawn)):
            self._card(event, out)
        elif isinstance(event, CutCard):
            if not self.last_coup and not self.finished:
                self.last_coup = True
                out.append(LastCoup(self.shoe, self.coup if self.dealing else self.coup + 1))
        elif isinstance(event, ShoeError):
            if self.dealing:
                self._hold(f"shoe error {event.code}", out)
        elif isinstance(event, ShoeResult):
            self._result(event, out)
        return out

    def _card(self, event, out: list) -> None:
        card = event.card
        coup = self.coup if self.dealing else None
        if self.finished:
            out.append(CardRejected(self.shoe, None, card, "shoe finished: confirm a new shoe"))
            return
        if self.copies[card] >= self.decks:
            out.append(CardRejected(self.shoe, coup, card, f"more than {self.decks} copies in the shoe"))
            self._hold("impossible card", out)
            return
        if isinstance(event, CardDrawn) or event.target == "burn":
            self.copies[card] += 1
            index = getattr(event, "index", 1)
            out.append(CardAccepted(self.shoe, coup, "burn", index, card))
            return
        if not self.dealing:
            out.append(CardRejected(self.shoe, None, card, "no coup dealing"))
            return
        hand = self.player if event.target == "player" else self.banker
        if next_target(self.player, self.banker) != event.target or event.index != len(hand) + 1:
            out.append(CardRejected(self.shoe, coup, card, "not the tableau's next card (overdraw)"))
            self._hold("card out of order", out)
            return
        self.copies[card] += 1
        hand.append(card)
        out.append(CardAccepted(self.shoe, coup, event.target, event.index, card))

    def _result(self, event: ShoeResult, out: list) -> None:
        if not self.dealing:
            out.append(ShoeHold(self.shoe, None, "result without a coup"))
            return
        self.dealing = False
        if self.held:
            pass  # already with the pit boss: this coup settles by hand
        elif event.winner == "quit":
            self._hold("forced quit", out)
        elif len(self.player) < 2 or len(self.banker) < 2 or next_target(self.player, self.banker):
            self._hold("result before the coup is complete", out)
        else:
            winner, pp, bp = outcome(self.player, self.banker)
            if (winner, pp, bp) != (event.winner, event.player_pair, event.banker_pair):
                self._hold("the shoe's result disagrees with the cards", out)
            else:
                out.append(CoupResult(self.shoe, self.coup, winner, pp, bp))
        if self.last_coup:
            self.finished = True
            out.append(ShoeFinished(self.shoe))

    def _hold(self, reason: str, out: list) -> None:
        if not self.held:
            self.held = True
            out.append(ShoeHold(self.shoe, self.coup if self.coup else None, reason))
