"""The rules the live tables play, handed to the pure rules of floor.games (which take them as an
argument and assume none).

Baccarat's commission and the shoes' decks are house settings. Blackjack (stand on all 17s, 3:2,
doubles after splits, one card to split aces), roulette (single zero, straight up 35:1) and Casino
Hold'em (the paytable and the dealer qualifying with a pair of fours) are played by the standard rules
as floor.games writes them: the house sets no variant of them. A variant becomes a HouseSettings field
read in ``table_rules``.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from floor.games import baccarat, blackjack, casino_holdem, roulette
from floor.settings import HouseSettings

BLACKJACK = blackjack.BlackjackSettings()
ROULETTE = roulette.RouletteSettings()
CASINO_HOLDEM = casino_holdem.CasinoHoldemSettings()


@dataclass(frozen=True)
class TableRules:
    roulette: roulette.RouletteSettings
    baccarat: baccarat.BaccaratSettings
    blackjack: blackjack.BlackjackSettings
    casino_holdem: casino_holdem.CasinoHoldemSettings


def baccarat_rules(commission_percent: int) -> baccarat.BaccaratSettings:
    return baccarat.BaccaratSettings(banker_commission=Fraction(commission_percent, 100))


def table_rules(house: HouseSettings) -> TableRules:
    return TableRules(roulette=ROULETTE, baccarat=baccarat_rules(house.baccarat_commission_percent),
                      blackjack=BLACKJACK, casino_holdem=CASINO_HOLDEM)
