"""Baccarat's host rules as one pure transition: ``step(state, event, now) -> (state, outcomes)``.

The live rounds (``floor/rounds/cards.py``) load the state from the table's rows (the round dealing,
its accepted cards, the shoe's counts and lock), step it with each card (from the smart shoe, a
scanner or the dealer) or the shoe's own result, and turn the outcomes into rows. The rules
(docs/protocols.md, "What the host counts (the shoe)"):

- a card goes where the tableau says (``floor.games.baccarat.next_target``); a shoe card for
  another hand or another place in it is a misdeal (held), the very card already given for that
  place is a repeat (nothing);
- a burn belongs to no hand; a card with no coup dealing is alerted, never settled;
- a card while the shoe reports itself locked, or beyond the copies the shoe's decks hold, is refused
  and the coup held;
- the result is the host's: with a smart shoe it waits for the shoe's ``G`` and compares (a
  mismatch, a forced quit, or a ``G`` before the coup is complete holds the round); a ``G`` with
  no coup dealing is alerted unless it repeats the last coup's result within 30 s.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from floor.errors import Msg, Term
from floor.games import baccarat
from floor.games.cards import Card

REPEAT_WINDOW = timedelta(seconds=30)


# --- state -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CoupState:
    status: str | None = None                 # the round's status (None: no round)
    cards: tuple[Card, ...] = ()              # accepted, in shoe order
    from_shoe: bool = False                   # a smart shoe deals this coup: wait for its G
    decks: int | None = None                  # the shoe's decks (None: no shoe confirmed)
    counts: dict = field(default_factory=dict)   # card code -> copies of it the shoe gave so far
    locked: bool = False                      # the shoe reports itself locked
    last: dict | None = None                  # the last round's result, its status and when
    table: int | None = None                  # the table's number, for the floor's alerts


# --- events ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Dealt:
    card: Card
    source: str                               # shoe | scanner | dealer
    target: str | None = None                 # what the shoe says: player | banker | burn
    index: int | None = None                  # the shoe's place in that hand (1-3)


@dataclass(frozen=True)
class ShoeSays:
    winner: str
    player_pair: bool
    banker_pair: bool


# --- outcomes ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Accept:
    card: Card
    target: str                               # player | banker | burn


@dataclass(frozen=True)
class Repeat:
    card: Card


@dataclass(frozen=True)
class Refuse:
    card: Card
    target: str | None
    reason: Msg
    in_round: bool                            # the card is filed against the round


@dataclass(frozen=True)
class Hold:
    reason: Msg
    data: dict | None = None


@dataclass(frozen=True)
class Stray:
    kind: str
    message: Msg                              # for the floor's alert, in the reader's language
    data: dict
    in_round: bool = False


@dataclass(frozen=True)
class Waiting:
    note: str


@dataclass(frozen=True)
class Result:
    result: dict


# --- the transition ----------------------------------------------------------------------------------

def step(state: CoupState, event, now: datetime) -> tuple[CoupState, list]:
    if isinstance(event, Dealt):
        return _card(state, event)
    if isinstance(event, ShoeSays):
        return _shoe_says(state, event, now)
    return state, []


def hands(cards) -> dict[str, list[Card]]:
    """The Player's and the Banker's cards of a coup in shoe order."""
    out: dict[str, list[Card]] = {"player": [], "banker": []}
    for n, card in enumerate(cards):
        out[baccarat.next_target(cards[:n])].append(card)
    return out


def result_of(cards) -> dict:
    """A coup's result as the round keeps it (GameInputError when the cards make no coup)."""
    coup = baccarat.play(cards)
    used = [c if isinstance(c, Card) else Card.parse(c) for c in cards][:coup.cards_used]
    return {"cards": [str(c) for c in used], "player": [str(c) for c in coup.player],
            "banker": [str(c) for c in coup.banker], "player_total": coup.player_total,
            "banker_total": coup.banker_total, "winner": coup.winner, "player_pair": coup.player_pair,
            "banker_pair": coup.banker_pair, "natural": coup.natural}


def _card(s: CoupState, e: Dealt) -> tuple[CoupState, list]:
    c, dealing = e.card, s.status == "dealing"
    if e.source == "shoe" and s.locked:
        out: list = [Refuse(c, e.target, Msg("the shoe reports itself locked"), s.status is not None)]
        if s.status in ("betting", "locked", "dealing"):
            return replace(s, status="held"), out + [
                Hold(Msg("card {card} dealt while the shoe reports itself locked", card=str(c)), {"card": str(c)})]
        return s, out + [Stray("card_no_round", Msg("Table {table}: card {card} dealt while the shoe reports itself "
                                                    "locked; not settled", table=s.table, card=str(c)), {"card": str(c)})]
    if s.decks is not None and s.counts.get(str(c), 0) >= s.decks:
        out = [Refuse(c, e.target, Msg("more than {decks} copies in the shoe", decks=s.decks), s.status is not None),
               Stray("impossible_card", Msg("Table {table}: card {card} beyond the {decks} decks of the shoe; "
                                            "not settled", table=s.table, card=str(c), decks=s.decks),
                     {"card": str(c)}, in_round=True)]
        if dealing:
            return replace(s, status="held"), out + [Hold(Msg("card {card} beyond the shoe's {decks} decks", card=str(c), decks=s.decks))]
        return s, out
    counted = replace(s, counts={**s.counts, str(c): s.counts.get(str(c), 0) + 1})
    if e.target == "burn":
        return counted, [Accept(c, "burn")]
    if not dealing or (e.source == "shoe" and s.status == "betting"):
        return s, [Refuse(c, e.target, Msg("no round dealing"), False),
                   Stray("card_no_round", Msg("Table {table}: card {card} with no round dealing; not settled",
                             table=s.table, card=str(c)), {"card": str(c)})]
    expected = baccarat.next_target(s.cards)
    if e.target is not None and e.index is not None:
        hand = hands(s.cards)[e.target] if e.target in ("player", "banker") else []
        if e.index <= len(hand) and hand[e.index - 1] == c:
            return s, [Repeat(c)]   # the very card already given for that place
        if expected == e.target and e.index != len(hand) + 1:
            return replace(s, status="held"), [
                Refuse(c, e.target, Msg("misdeal: the tableau wants {expected} {place}, the shoe dealt to {target} {index}",
                                        expected=Term(expected), place=len(hand) + 1, target=Term(e.target),
                                        index=e.index), True),
                Hold(Msg("misdeal: card {card} to {target} {index}, the tableau wants {expected} {place}", card=str(c),
                         target=Term(e.target), index=e.index, expected=Term(expected), place=len(hand) + 1))]
    if expected is None or (e.target is not None and e.target != expected):
        return replace(s, status="held"), [
            Refuse(c, e.target, Msg("misdeal: the tableau wants {expected}, the shoe dealt to {target}",
                                    expected=Term(expected), target=Term(e.target or "none")) if expected else
                   Msg("misdeal: the tableau wants no card, the shoe dealt to {target}", target=Term(e.target or "none")),
                   True),
            (Hold(Msg("misdeal: card {card} to {target}, the tableau wants {expected}", card=str(c),
                      target=Term(e.target or "none"), expected=Term(expected))) if expected else
             Hold(Msg("misdeal: card {card} to {target}, the tableau wants no more cards", card=str(c),
                      target=Term(e.target or "none"))))]
    cards = s.cards + (c,)
    s = replace(counted, cards=cards, from_shoe=s.from_shoe or e.source == "shoe")
    out: list = [Accept(c, expected)]
    if baccarat.next_target(cards) is not None:
        return s, out
    if s.from_shoe:
        return s, out + [Waiting("coup complete: waiting for the shoe's result")]
    return replace(s, status="result"), out + [Result(result_of(cards))]


def _shoe_says(s: CoupState, e: ShoeSays, now: datetime) -> tuple[CoupState, list]:
    shown = {"winner": e.winner, "player_pair": bool(e.player_pair), "banker_pair": bool(e.banker_pair)}
    if s.status == "result":
        return s, []   # the same G again: one result
    if s.status != "dealing":
        last = s.last or {}
        repeat = (s.status is None and last.get("result") is not None and last.get("status") in ("settled", "result")
                  and {k: last["result"].get(k) for k in shown} == shown
                  and (last.get("at") is None or now - last["at"] < REPEAT_WINDOW))
        if repeat:
            return s, []
        out: list = [Stray("result_without_no_more_bets",
                           Msg("Shoe at table {table}: result {outcome} with no coup dealing; not settled", table=s.table,
                               outcome=Term(e.winner)), shown, in_round=True)]
        if s.status == "betting":
            return replace(s, status="held"), out + [Hold(Msg("the shoe gave a result before no more bets"), shown)]
        return s, out
    if e.winner not in ("player", "banker", "tie"):
        return replace(s, status="held"), [Hold(Msg("the shoe reports {outcome}", outcome=e.winner), shown)]
    if len(s.cards) < 4 or baccarat.next_target(s.cards) is not None:
        return replace(s, status="held"), [Hold(Msg("the shoe gave a result before the coup was complete"), shown)]
    mine = result_of(s.cards)
    if {k: mine[k] for k in shown} != shown:
        return replace(s, status="held"), [Hold(Msg("the shoe says {shoe}, the cards say {cards}", shoe=Term(e.winner), cards=Term(mine["winner"])),
                                                {"shoe": shown, "host": {k: mine[k] for k in shown}})]
    return replace(s, status="result"), [Result(mine)]
