"""Blackjack (docs/rules.md, Blackjack): hand values, the dealer's drawing rule and the settlement of
a whole round.

A round is settled from the cards as they lie: every seat's hands (one, or two after a split, each in
the order dealt) and the dealer's cards (up card first, hole card second, then his draws). The cards
are checked against the rules (no draw on 21, one card on a double or on split aces, the dealer
draws to 17), so an impossible layout is refused instead of paid.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, Mapping

from .base import (ROUNDINGS, GameInputError, Rounding, cards_of, check_amount, check_choice, check_flags,
                   check_fraction, check_pays, round_cents)
from .cards import Card


@dataclass(frozen=True)
class BlackjackSettings:
    """House options, defaults from docs/rules.md."""

    blackjack_pays: Fraction = Fraction(3, 2)
    insurance_pays: int = 2                 # "2 to 1"
    dealer_hits_soft_17: bool = False       # the house stands on all 17s
    # What a dealer blackjack found after play (ten up, no peek) takes from a seat that doubled or
    # split: "original_bet" (only the bet placed before the deal) or "all_bets".
    late_blackjack_takes: Literal["original_bet", "all_bets"] = "original_bet"
    payout_rounding: Rounding = "down"      # 3:2 on an odd number of cents
    split_aces_one_card: bool = True
    double_after_split: bool = True

    def __post_init__(self) -> None:
        check_fraction(self, "blackjack_pays")
        check_pays(self, "insurance_pays")
        check_flags(self, "dealer_hits_soft_17", "split_aces_one_card", "double_after_split")
        check_choice(self, "late_blackjack_takes", ("original_bet", "all_bets"))
        check_choice(self, "payout_rounding", ROUNDINGS)


DEFAULT = BlackjackSettings()


def card_value(card: Card) -> int:
    """2-10 face value, J/Q/K 10, ace 1 (hand_value counts one ace as 11 when it fits)."""
    if card.rank == 14:
        return 1
    return min(card.rank, 10)


def hand_value(cards) -> tuple[int, bool]:
    """(best total, soft): soft when an ace counts 11."""
    cards = cards_of(cards, "blackjack hand")
    total = sum(card_value(c) for c in cards)
    if total <= 11 and any(c.rank == 14 for c in cards):
        return total + 10, True
    return total, False


def is_blackjack(cards) -> bool:
    """Two cards making 21. (A split hand's 21 is never blackjack; ``settle`` takes care of that.)"""
    cards = cards_of(cards, "blackjack hand")
    return len(cards) == 2 and hand_value(cards)[0] == 21


def dealer_must_draw(cards, settings: BlackjackSettings) -> bool:
    """The dealer draws below 17, and on soft 17 only where the house hits it."""
    total, soft = hand_value(cards)
    return total < 17 or (total == 17 and soft and settings.dealer_hits_soft_17)


# --- a round -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PlayerHand:
    """One hand in the order dealt. ``doubled`` is the extra stake put on a double (0: not doubled)."""

    cards: tuple[Card, ...]
    doubled: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", cards_of(self.cards, "player hand"))
        check_amount(self.doubled, "double")


@dataclass(frozen=True)
class Seat:
    """A seat's wager and its hands: one hand, or two after a split (each carries ``bet`` again).
    ``insurance`` is the insurance bet (at most half of ``bet``, only when the dealer shows an ace)."""

    bet: int
    hands: tuple[PlayerHand, ...]
    insurance: int = 0

    def __post_init__(self) -> None:
        hands = self.hands
        if isinstance(hands, (str, PlayerHand)):
            hands = (hands,)
        object.__setattr__(self, "hands", tuple(h if isinstance(h, PlayerHand) else PlayerHand(h)
                                                for h in hands))


@dataclass(frozen=True)
class HandResult:
    returned: int  # handed back on this hand: its bet plus any double, plus winnings; 0 if lost
    outcome: Literal["blackjack", "win", "push", "lose", "bust"]
    total: int


@dataclass(frozen=True)
class SeatResult:
    hands: tuple[HandResult, ...]
    insurance: int = 0  # handed back on the insurance bet

    @property
    def returned(self) -> int:
        return sum(h.returned for h in self.hands) + self.insurance


def _check_seat(name, seat: Seat, up: Card, settings: BlackjackSettings) -> None:
    check_amount(seat.bet, f"seat {name} bet")
    if seat.bet == 0:
        raise GameInputError("seat {name}: a hand is dealt only to a seat with a bet", name=name)
    check_amount(seat.insurance, f"seat {name} insurance")
    if seat.insurance:
        if up.rank != 14:
            raise GameInputError("seat {name}: insurance is offered only when the dealer shows an ace", name=name)
        if 2 * seat.insurance > seat.bet:
            raise GameInputError("seat {name}: insurance {insurance} is more than half the bet {bet}", name=name, insurance=seat.insurance, bet=seat.bet)
    if len(seat.hands) not in (1, 2):
        raise GameInputError("seat {name}: {hands} hands; one, or two after the one split allowed", name=name, hands=len(seat.hands))
    split = len(seat.hands) == 2
    if split and card_value(seat.hands[0].cards[0]) != card_value(seat.hands[1].cards[0]):
        raise GameInputError("seat {name}: split hands must start with the two cards of a pair", name=name)
    for n, hand in enumerate(seat.hands, 1):
        cards, where = hand.cards, f"seat {name} hand {n}"
        if len(cards) < 2:
            raise GameInputError("{where}: {count} card(s); every hand gets at least two", where=where, count=len(cards))
        for k in range(2, len(cards)):
            if hand_value(cards[:k])[0] >= 21:
                raise GameInputError("{where}: drew {card} on {total}", where=where, card=cards[k], total=hand_value(cards[:k])[0])
        if split and cards[0].rank == 14 and settings.split_aces_one_card:
            if len(cards) != 2 or hand.doubled:
                raise GameInputError("{where}: split aces get one card each", where=where)
        if hand.doubled:
            if hand.doubled > seat.bet:
                raise GameInputError("{where}: doubled {doubled}, more than the bet {bet}", where=where, doubled=hand.doubled, bet=seat.bet)
            if len(cards) != 3:
                raise GameInputError("{where}: a double gets exactly one card ({count} cards)", where=where, count=len(cards))
            if split and not settings.double_after_split:
                raise GameInputError("{where}: no double after a split in this house", where=where)


def settle(seats: Mapping[object, Seat], dealer, settings: BlackjackSettings) -> dict[object, SeatResult]:
    """Settle a round: {seat: SeatResult} with what each hand and insurance bet hands back.

    A dealer blackjack under a ten shows only after play. With ``late_blackjack_takes="original_bet"``
    it takes one original bet from each seat: from its first hand still standing (doubles and the
    second split hand come back), or nothing more if one of the seat's hands had already busted
    (that bust paid the original bet). Busted hands always lose; a player's blackjack pushes."""
    dealer = cards_of(dealer, "dealer's hand")
    if len(dealer) < 2:
        raise GameInputError("dealer's hand: {count} card(s), at least 2 expected", count=len(dealer))
    up = dealer[0]
    dealer_bj = is_blackjack(dealer[:2])
    if dealer_bj and len(dealer) > 2:
        raise GameInputError("dealer's hand: a dealer blackjack draws no card")
    for k in range(2, len(dealer)):
        if not dealer_must_draw(dealer[:k], settings):
            raise GameInputError("dealer's hand: drew {card} standing on {total}", card=dealer[k], total=hand_value(dealer[:k])[0])
    for name, seat in seats.items():
        _check_seat(name, seat, up, settings)

    peeked = dealer_bj and up.rank == 14  # with an ace up the round ends at the peek
    if peeked:
        for name, seat in seats.items():
            if len(seat.hands) != 1 or len(seat.hands[0].cards) != 2 or seat.hands[0].doubled:
                raise GameInputError("seat {name}: played on after the dealer's ace peeked a blackjack", name=name)

    def natural(seat: Seat, hand: PlayerHand) -> bool:
        return len(seat.hands) == 1 and is_blackjack(hand.cards)

    live = any(hand_value(h.cards)[0] <= 21 and not natural(s, h) for s in seats.values() for h in s.hands)
    if live and not dealer_bj and dealer_must_draw(dealer, settings):
        raise GameInputError("dealer's hand: stopped on {total} with hands still to beat", total=hand_value(dealer)[0])

    d_total = hand_value(dealer)[0]
    results: dict[object, SeatResult] = {}
    for name, seat in seats.items():
        any_bust = any(hand_value(h.cards)[0] > 21 for h in seat.hands)
        original_taken = any_bust  # a hand the player busted already paid the original bet
        hands = []
        for hand in seat.hands:
            total = hand_value(hand.cards)[0]
            stake = seat.bet + hand.doubled
            if total > 21:
                hands.append(HandResult(0, "bust", total))
            elif natural(seat, hand):
                if dealer_bj:
                    hands.append(HandResult(seat.bet, "push", total))
                else:
                    won = round_cents(seat.bet * settings.blackjack_pays, settings.payout_rounding)
                    hands.append(HandResult(seat.bet + won, "blackjack", total))
            elif dealer_bj:
                if peeked or settings.late_blackjack_takes == "all_bets":
                    hands.append(HandResult(0, "lose", total))
                elif not original_taken:
                    original_taken = True
                    hands.append(HandResult(stake - seat.bet, "lose", total))
                else:
                    hands.append(HandResult(stake, "push", total))
            elif d_total > 21 or total > d_total:
                hands.append(HandResult(2 * stake, "win", total))
            elif total == d_total:
                hands.append(HandResult(stake, "push", total))
            else:
                hands.append(HandResult(0, "lose", total))
        insurance = seat.insurance * (1 + settings.insurance_pays) if dealer_bj else 0
        results[name] = SeatResult(tuple(hands), insurance)
    return results
