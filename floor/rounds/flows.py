"""Pure deal flows for the scanner games: where the next card goes and whose decision it is.

A flow is rebuilt from the round's rows (bets, accepted cards and decisions in step order) at each
event, so the state is never held in memory and a dispute replays the same way.

Blackjack (docs/rules.md): one card to each seat with a bet from the dealer's left (seat 1 first),
one up to the dealer, a second to each seat, the dealer's hole card; insurance when the dealer
shows an ace (seat by seat), then the peek; each seat's hands in turn (hit, stand, double, split;
21 or bust moves on); the dealer draws by the rules unless every hand is already decided.

Casino Hold'em (the Casino Hold'em rules, dealt as *ours*): one card to each seat then one to the dealer, twice,
then the flop; every seat calls or folds (any order); turn and river when someone called.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from floor.errors import BadInput, Conflict, Money, Msg
from floor.games import blackjack
from floor.games.cards import Card


class NotExpected(Conflict):
    code = "not_expected"


@dataclass
class BJHand:
    bet: int
    cards: list[Card] = field(default_factory=list)
    doubled: int = 0
    split: bool = False
    want: bool = False     # asked for a card (hit or double) that has not come yet
    stood: bool = False


class BlackjackFlow:
    def __init__(self, seats: dict[int, int], settings: blackjack.BlackjackSettings):
        self.settings = settings
        self.order = sorted(seats)
        self.hands: dict[int, list[BJHand]] = {s: [BJHand(seats[s])] for s in self.order}
        self.insurance: dict[int, int] = {}
        self.dealer: list[Card] = []
        self.queue = [f"seat:{s}:1" for s in self.order] + ["dealer"] + [f"seat:{s}:1" for s in self.order] + ["dealer"]
        self.dealt = 0

    # --- reading the state ---
    def _initial_done(self) -> bool:
        return self.dealt >= len(self.queue)

    def _ace_up(self) -> bool:
        return bool(self.dealer) and self.dealer[0].rank == 14

    def peeked_blackjack(self) -> bool:
        return self._initial_done() and self._ace_up() and blackjack.is_blackjack(self.dealer[:2])

    def _natural(self, seat: int, hand: BJHand) -> bool:
        return len(self.hands[seat]) == 1 and len(hand.cards) == 2 and blackjack.hand_value(hand.cards)[0] == 21

    def _hand_finished(self, hand: BJHand) -> bool:
        if hand.want or len(hand.cards) < 2:
            return False
        if hand.stood or blackjack.hand_value(hand.cards)[0] >= 21:
            return True
        if hand.doubled and len(hand.cards) >= 3:
            return True
        return hand.split and hand.cards[0].rank == 14 and self.settings.split_aces_one_card

    def _current(self) -> tuple[int, int, BJHand] | None:
        for s in self.order:
            for i, h in enumerate(self.hands[s], start=1):
                if not self._hand_finished(h):
                    return s, i, h
        return None

    def _dealer_draws(self) -> bool:
        live = any(blackjack.hand_value(h.cards)[0] <= 21 and not self._natural(s, h)
                   for s in self.order for h in self.hands[s])
        if not live or blackjack.is_blackjack(self.dealer[:2]):
            return False
        return blackjack.dealer_must_draw(self.dealer, self.settings)

    def options(self, seat: int, hand_no: int) -> list[str]:
        hands = self.hands[seat]
        h = hands[hand_no - 1]
        opts = ["hit", "stand"]
        if len(h.cards) == 2 and not h.doubled and (not h.split or self.settings.double_after_split):
            opts.append("double")
        if (len(hands) == 1 and len(h.cards) == 2
                and blackjack.card_value(h.cards[0]) == blackjack.card_value(h.cards[1])):
            opts.append("split")
        return opts

    def expecting(self) -> tuple:
        """("card", target) | ("insurance", seat) | ("decision", seat, hand, options) | ("done",)."""
        if not self._initial_done():
            return ("card", self.queue[self.dealt])
        if self._ace_up():
            for s in self.order:
                if s not in self.insurance:
                    return ("insurance", s)
            if self.peeked_blackjack():
                return ("done",)
        cur = self._current()
        if cur is not None:
            s, i, h = cur
            if h.want or len(h.cards) < 2:
                return ("card", f"seat:{s}:{i}")
            return ("decision", s, i, self.options(s, i))
        if self._dealer_draws():
            return ("card", "dealer")
        return ("done",)

    # --- moving it ---
    def apply_card(self, card: Card) -> str:
        exp = self.expecting()
        if exp[0] != "card":
            seat = exp[1] if len(exp) > 1 else "?"
            what = {"insurance": Msg("seat {seat}'s insurance decision", seat=seat),
                    "decision": Msg("seat {seat}'s decision", seat=seat),
                    "done": Msg("nothing: the round is complete")}[exp[0]]
            raise NotExpected("a card ({card}) came while waiting for {what}", card=str(card), what=what)
        target = exp[1]
        if target == "dealer":
            self.dealer.append(card)
        else:
            _, s, i = target.split(":")
            h = self.hands[int(s)][int(i) - 1]
            h.cards.append(card)
            h.want = False
        if not self._initial_done():
            self.dealt += 1
        return target

    def apply_decision(self, seat: int, action: str, hand: int | None = None, amount: int | None = None) -> dict:
        """Apply a decision; returns the extra bet it needs ({"spot", "amount", "hand"}) or {}."""
        exp = self.expecting()
        if exp[0] == "insurance":
            if exp[1] != seat:
                raise NotExpected("it is seat {seat}'s turn to decide on insurance", seat=exp[1])
            if action == "no_insurance":
                self.insurance[seat] = 0
                return {}
            if action != "insurance":
                raise NotExpected("the dealer shows an ace: insurance or no_insurance first")
            bet = self.hands[seat][0].bet
            amount = bet // 2 if amount is None else amount
            if amount <= 0 or 2 * amount > bet:
                raise BadInput("insurance is at most half the bet ({amount})", field="amount", amount=Money(bet // 2))
            self.insurance[seat] = amount
            return {"spot": "insurance", "amount": amount, "hand": 1}
        if exp[0] != "decision":
            if exp[0] == "done":
                raise NotExpected("no decision is expected now")
            raise NotExpected("waiting for a card")
        _, s, i, opts = exp
        if seat != s or (hand is not None and hand != i):
            raise NotExpected("it is seat {seat}'s turn (hand {hand})", seat=s, hand=i)
        if action not in opts:
            raise NotExpected("seat {seat} hand {hand} may {options}; not {action}", seat=s, hand=i, options=", ".join(opts),
                              action=action)
        h = self.hands[s][i - 1]
        if action == "stand":
            h.stood = True
            return {}
        if action == "hit":
            h.want = True
            return {}
        if action == "double":
            amount = h.bet if amount is None else amount
            if amount <= 0 or amount > h.bet:
                raise BadInput("a double is at most the original bet ({bet})", field="amount", bet=Money(h.bet))
            h.doubled, h.want = amount, True
            return {"spot": "double", "amount": amount, "hand": i}
        # split: the pair becomes two hands, each with the original bet
        c1, c2 = h.cards
        self.hands[s] = [BJHand(h.bet, [c1], split=True), BJHand(h.bet, [c2], split=True)]
        return {"spot": "split", "amount": h.bet, "hand": 2}

    def default_decision(self) -> tuple[int, str] | None:
        """What the timer does when nobody answers: no insurance, or stand."""
        exp = self.expecting()
        if exp[0] == "insurance":
            return exp[1], "no_insurance"
        if exp[0] == "decision":
            return exp[1], "stand"
        return None

    def result(self) -> dict:
        return {"seats": {str(s): {"bet": self.hands[s][0].bet, "insurance": self.insurance.get(s, 0),
                                   "hands": [{"cards": [str(c) for c in h.cards], "doubled": h.doubled}
                                             for h in self.hands[s]]} for s in self.order},
                "dealer": [str(c) for c in self.dealer]}

    def view(self, hide_hole: bool = True) -> dict:
        exp = self.expecting()
        dealer = [str(c) for c in self.dealer]
        if hide_hole and exp[0] != "done" and len(dealer) >= 2 and not (exp[0] == "card" and exp[1] == "dealer"):
            dealer[1] = "??"
        return {"seats": {str(s): {"hands": [{"cards": [str(c) for c in h.cards], "doubled": h.doubled,
                                              "total": blackjack.hand_value(h.cards)[0] if h.cards else 0}
                                             for h in self.hands[s]],
                                   "insurance": self.insurance.get(s)} for s in self.order},
                "dealer": dealer, "expecting": list(exp[:3]) if exp[0] == "decision" else list(exp),
                "options": exp[3] if exp[0] == "decision" else (["insurance", "no_insurance"] if exp[0] == "insurance" else [])}


class HoldemFlow:
    def __init__(self, seats: dict[int, int]):
        self.order = sorted(seats)
        self.ante = dict(seats)
        self.cards: dict[int, list[Card]] = {s: [] for s in self.order}
        self.dealer: list[Card] = []
        self.board: list[Card] = []
        self.decisions: dict[int, str] = {}
        self.queue = ([f"seat:{s}" for s in self.order] + ["dealer"]) * 2 + ["board"] * 3
        self.dealt = 0

    def _deciding(self) -> list[int]:
        return [s for s in self.order if s not in self.decisions]

    def expecting(self) -> tuple:
        if self.dealt < len(self.queue):
            return ("card", self.queue[self.dealt])
        pending = self._deciding()
        if pending:
            return ("decision", pending)
        if any(d == "call" for d in self.decisions.values()) and len(self.board) < 5:
            return ("card", "board")
        return ("done",)

    def apply_card(self, card: Card) -> str:
        exp = self.expecting()
        if exp[0] != "card":
            if exp[0] == "decision":
                raise NotExpected("a card ({card}) came while waiting for call or fold", card=card)
            raise NotExpected("a card ({card}) came when the round is complete", card=card)
        target = exp[1]
        if target == "dealer":
            self.dealer.append(card)
        elif target == "board":
            self.board.append(card)
        else:
            self.cards[int(target.split(":")[1])].append(card)
        if self.dealt < len(self.queue):
            self.dealt += 1
        return target

    def apply_decision(self, seat: int, action: str) -> dict:
        exp = self.expecting()
        if exp[0] != "decision":
            raise NotExpected("no call or fold is expected now")
        if seat not in exp[1]:
            raise NotExpected("seat {seat} has no decision to make", seat=seat)
        if action not in ("call", "fold"):
            raise NotExpected("seat {seat} may call or fold, not {action}", seat=seat, action=action)
        self.decisions[seat] = action
        return {"spot": "call", "amount": 2 * self.ante[seat], "hand": 1} if action == "call" else {}

    def default_decisions(self) -> list[tuple[int, str]]:
        exp = self.expecting()
        return [(s, "fold") for s in exp[1]] if exp[0] == "decision" else []

    def result(self) -> dict:
        board = [str(c) for c in self.board]
        return {"seats": {str(s): {"cards": [str(c) for c in self.cards[s]], "called": self.decisions.get(s) == "call"}
                          for s in self.order},
                "dealer": [str(c) for c in self.dealer], "board": board}

    def view(self) -> dict:
        exp = self.expecting()
        done = exp[0] == "done"
        return {"seats": {str(s): {"cards": [str(c) for c in self.cards[s]], "decision": self.decisions.get(s)}
                          for s in self.order},
                "dealer": [str(c) for c in self.dealer] if done else ["??" for _ in self.dealer],
                "board": [str(c) for c in self.board], "expecting": [exp[0], exp[1]] if len(exp) > 1 else list(exp),
                "options": ["call", "fold"] if exp[0] == "decision" else []}
