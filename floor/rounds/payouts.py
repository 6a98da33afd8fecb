"""What each bet hands back, from the round's recorded result, by the pure rules in floor.games.

``payouts(kind, result, bets, house)`` returns one ``(returned, commission)`` per bet, in order:
``returned`` is what goes back to the bet's account (stake included, 0 for a loss), ``commission``
what the house took out of a win (baccarat banker), so ``returned + commission`` is the gross.
"""
from __future__ import annotations

from floor.games import baccarat, blackjack, casino_holdem, roulette
from floor.rounds.table_rules import TableRules, table_rules
from floor.settings import HouseSettings


def _roulette(result: dict, bets: list[dict], rules: TableRules) -> list[tuple[int, int]]:
    number = result["number"]
    out = []
    cache: dict = {}
    for b in bets:
        key = (b["spot"], tuple(b["numbers"] or ()))
        rb = cache.get(key)
        if rb is None:
            rb = cache[key] = roulette.bet(b["spot"], b["numbers"] or None)
        out.append((roulette.returned(rb, b["amount"], number, rules.roulette), 0))
    return out


def _baccarat(result: dict, bets: list[dict], rules: TableRules) -> list[tuple[int, int]]:
    settings = rules.baccarat
    coup = baccarat.play(result["cards"])
    out = []
    for b in bets:
        back = baccarat.returned(b["spot"], b["amount"], coup, settings)
        comm = 0
        if b["spot"] == "banker" and coup.winner == "banker":
            comm = b["amount"] * (1 + settings.banker_pays) - back
        out.append((back, comm))
    return out


def _split_hand(returned: int, base: int, doubled: int) -> tuple[int, int]:
    """Share what a hand hands back between its base bet and its double."""
    stake = base + doubled
    if returned == 0:
        return 0, 0
    if returned >= stake:
        d = doubled * returned // stake
        return returned - d, d
    return 0, returned   # a late dealer blackjack took the original bet only: the double comes back


def _blackjack(result: dict, bets: list[dict], rules: TableRules) -> list[tuple[int, int]]:
    seats = {}
    for seat, s in result["seats"].items():
        hands = tuple(blackjack.PlayerHand(tuple(h["cards"]), h.get("doubled", 0)) for h in s["hands"])
        seats[int(seat)] = blackjack.Seat(s["bet"], hands, s.get("insurance", 0))
    res = blackjack.settle(seats, result["dealer"], rules.blackjack) if seats else {}
    share: dict[tuple, int] = {}
    for seat, sr in res.items():
        s = result["seats"][str(seat)] if str(seat) in result["seats"] else result["seats"][seat]
        for h, (hand, hr) in enumerate(zip(s["hands"], sr.hands), start=1):
            base, dbl = _split_hand(hr.returned, s["bet"], hand.get("doubled", 0))
            share[(seat, h, "base")] = base
            share[(seat, h, "double")] = dbl
        share[(seat, 1, "insurance")] = sr.insurance
    out = []
    for b in bets:
        seat, hand = b["seat"], b["hand"] or 1
        if b["spot"] in ("bet", "split"):
            out.append((share.get((seat, hand, "base"), 0), 0))
        elif b["spot"] == "double":
            out.append((share.get((seat, hand, "double"), 0), 0))
        elif b["spot"] == "insurance":
            out.append((share.get((seat, 1, "insurance"), 0), 0))
        else:
            out.append((0, 0))
    return out


def _holdem(result: dict, bets: list[dict], rules: TableRules) -> list[tuple[int, int]]:
    dealer, board = result["dealer"], result["board"]
    stakes: dict[int, dict[str, int]] = {}
    for b in bets:
        stakes.setdefault(b["seat"], {}).setdefault(b["spot"], 0)
        stakes[b["seat"]][b["spot"]] += b["amount"]
    share: dict[tuple, int] = {}
    for seat, s in result["seats"].items():
        seat = int(seat)
        st = stakes.get(seat, {})
        ante, aa, called = st.get("ante", 0), st.get("aa_bonus", 0), bool(s["called"])
        if not ante:
            continue
        cards = s["cards"]
        shown = board if called else board[:3]
        total = casino_holdem.returned(ante, aa, called, cards, dealer, shown, rules.casino_holdem)
        main = casino_holdem.returned(ante, 0, called, cards, dealer, shown, rules.casino_holdem)
        call = 2 * ante
        if not called or main == 0:
            ante_part, call_part = main, 0
        elif not casino_holdem.dealer_qualifies(dealer, board, rules.casino_holdem):
            ante_part, call_part = main - call, call              # ante by the paytable, the call pushes
        elif main == ante + call:
            ante_part, call_part = ante, call                     # a tie: both push
        else:
            ante_part, call_part = main - 2 * call, 2 * call      # the player wins: the call pays 1:1
        share[(seat, "ante")], share[(seat, "call")], share[(seat, "aa_bonus")] = ante_part, call_part, total - main
    # several bets on one spot (rare) share in proportion to their stakes
    out, given = [], {}
    for b in bets:
        key = (b["seat"], b["spot"])
        whole = share.get(key, 0)
        spot_stake = stakes.get(b["seat"], {}).get(b["spot"], 0) or 1
        part = whole * b["amount"] // spot_stake
        given[key] = given.get(key, 0) + part
        out.append([part, 0])
    # any cent left by the proportional split goes to the spot's first bet
    first: dict = {}
    for i, b in enumerate(bets):
        first.setdefault((b["seat"], b["spot"]), i)
    for key, i in first.items():
        out[i][0] += share.get(key, 0) - given.get(key, 0)
    return [tuple(x) for x in out]


def payouts(kind: str, result: dict, bets: list[dict], house: HouseSettings) -> list[tuple[int, int]]:
    fn = {"roulette": _roulette, "baccarat": _baccarat, "blackjack": _blackjack, "casino_holdem": _holdem}[kind]
    return fn(result, bets, table_rules(house))
