"""House edges by game and bet kind, and the theoretical win a player rating is made of.

The house edge of a bet is the expected loss per unit staked, derived from the game modules' own
settlement (``returned``) and the table's settings, never typed in, except where the brief of each
function says a published figure stands in for a computation too big to run (the Casino Hold'em ante)
or supplies a correction (blackjack's number of decks).

Theoretical win = stake x edge, kept exact (a ``Fraction`` of a cent) through every sum and rounded
once, half up to the cent, when shown (``theo_cents``).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Optional, Union

from .baccarat import BaccaratSettings
from .baccarat_odds import baccarat_edge
from .base import GameInputError, check_amount, round_cents
from .blackjack import BlackjackSettings
from .blackjack_odds import blackjack_edge, insurance_edge
from .casino_holdem import CasinoHoldemSettings
from .holdem_odds import aa_bonus_edge, ante_edge
from .roulette import KINDS, RouletteSettings, all_bets, returned

GAMES = ("roulette", "baccarat", "blackjack", "casino_holdem")
Settings = Union[RouletteSettings, BaccaratSettings, BlackjackSettings, CasinoHoldemSettings]


def roulette_edge(kind: str, settings: RouletteSettings) -> Fraction:
    """Edge of a kind of roulette bet over the 37 pockets at the table's payout for that kind.

    Every layout of the kind is settled on every pocket by ``roulette.returned``; they all cover the
    same count of numbers, so they share one edge (1/37 at the standard payouts)."""
    if kind not in KINDS:
        raise GameInputError("no roulette bet kind {kind!r} (one of {kinds})", kind=kind, kinds=', '.join(KINDS))
    edges = set()
    for b in all_bets():
        if b.kind == kind:
            back = sum(returned(b, 1, n, settings) for n in range(37))
            edges.add(1 - Fraction(back, 37))
    (edge,) = edges  # one value per kind; two would mean the layout itself is wrong
    return edge


def house_edge(game: str, bet: str, settings: Settings, *, decks: Optional[int] = None) -> Fraction:
    """The house edge of ``bet`` in ``game`` under the table's ``settings``.

    ``bet`` is a roulette bet kind (``straight``, ``red``...), a baccarat spot (``banker``, ``player``,
    ``tie``, ``player_pair``, ``banker_pair``), blackjack ``main`` or ``insurance``, Casino Hold'em
    ``ante`` or ``aa_bonus``. Baccarat and blackjack need ``decks``, the number of decks in the shoe."""
    expected = {"roulette": RouletteSettings, "baccarat": BaccaratSettings,
                "blackjack": BlackjackSettings, "casino_holdem": CasinoHoldemSettings}
    if game not in expected:
        raise GameInputError("no game {game!r} (one of {games})", game=game, games=', '.join(GAMES))
    if not isinstance(settings, expected[game]):
        raise GameInputError("{game} needs {__name__}, got {__name__2}", game=game, __name__=expected[game].__name__, __name__2=type(settings).__name__)
    if game == "roulette":
        return roulette_edge(bet, settings)
    if game == "casino_holdem":
        if bet == "ante":
            return ante_edge(settings)
        if bet == "aa_bonus":
            return aa_bonus_edge(settings)
        raise GameInputError("no Casino Hold'em bet {bet!r} (ante or aa_bonus)", bet=bet)
    if decks is None:
        raise GameInputError("the {game} edge depends on the number of decks: pass decks", game=game)
    if game == "baccarat":
        return baccarat_edge(bet, decks, settings)
    if bet == "main":
        return blackjack_edge(settings, decks)
    if bet == "insurance":
        return insurance_edge(settings, decks)
    raise GameInputError("no blackjack bet {bet!r} (main or insurance)", bet=bet)


def theoretical_win(stake_cents: int, edge: Fraction) -> Fraction:
    """What the house expects to keep from ``stake_cents`` at ``edge``: exact, in cents."""
    check_amount(stake_cents, "stake")
    if not isinstance(edge, (Fraction, int)) or isinstance(edge, bool):
        raise GameInputError("an edge is an exact Fraction, got {edge!r}", edge=edge)
    return stake_cents * Fraction(edge)


def theo_cents(theo: Fraction) -> int:
    """The reporting rule: sum theoretical wins exactly, then round once, half up, to the cent."""
    return round_cents(Fraction(theo), "half_up")


def edge_percent(edge: Fraction, places: int = 4) -> str:
    """An edge as a percentage for a report or an alert, e.g. ``1.0579 %``."""
    return f"{float(edge) * 100:.{places}f} %"
