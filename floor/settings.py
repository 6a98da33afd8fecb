"""House settings: the numbers that differ between casinos (docs/rules.md), with its defaults.

Domain functions take a HouseSettings (or the fields they need) as an argument; nothing reads a global.
config/default.toml's [house] section lists the same values; a test keeps the two equal.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Mapping


@dataclass(frozen=True)
class HouseSettings:
    # The gaming day: when the business day rolls over, in the casino's local time.
    timezone: str = "Europe/Zurich"
    gaming_day_rollover: str = "06:00"
    currency: str = "CHF"
    # Languages (en, fr, de): the house's default, the region that shapes numbers and dates (de_CH...),
    # and the TV board's rotation ("de,fr,en": each shown board_language_seconds; "" = one language).
    language: str = "en"
    region: str = "CH"
    board_languages: str = ""
    board_language_seconds: int = 15
    board_page_seconds: int = 10              # a list longer than its column shows in pages, each this long

    # Waiting lists (004; practice of every card room)
    call_response_minutes: int = 5
    call_expiry_first: str = "end_of_list"   # end_of_list | remove
    call_expiry_second: str = "remove"       # end_of_list | remove
    chip_pickup_minutes: int = 20
    board_name_format: str = "first_initial"  # first_initial | full | initials | card_tail
    rathole_minutes: int = 120                # 000: back within 7,200 s needs what he left with
    board_wait_window_hours: int = 3          # estimated waits on the board: seat turnover of the last hours
    table_open_min_waiting: int = 5           # not in the seeds: players waiting to prompt opening a table
    table_open_minutes: int = 10              # how long the floor takes to open a table for its list (wait estimates)

    # Must-move (004)
    mustmove_keep_main_full_above: int = 8    # while MM1 has more than this, main is kept full
    mustmove_main_below: int = 8              # else a move happens when main has fewer than this
    mustmove_annex_wait_minutes: int = 60     # leaving main: wait before an annex table

    # Blinds, tickets, conduct (004, 002, 000)
    missed_blind_tickets_to_forfeit: int = 3
    missed_blind_policy: str = "bern"     # bern | online_network | swiss_online
    dead_button: bool = False
    warnings_to_ban: int = 3
    warning_window: str = "gaming_day"        # gaming_day | hours:N
    seat_change_blind_distance: int = 3       # more than this many occupied seats from the button
    missed_blind_ticket_on: str = "each_blind"  # each_blind | big_blind: which passing blind earns a ticket
    third_blind: bool = False                 # 002: a compulsory third blind (straddle) each hand
    straddle_big_blinds: int = 2              # 004, 000: the straddle (and third blind) is 2 big blinds

    # Buy-ins (001): in big blinds / big bets
    nl_min_buyin_bb: int = 20
    nl_max_buyin_bb: int = 100
    pl_min_buyin_bb: int = 20
    pl_max_buyin_big_bets: int = 100
    fl_min_buyin_big_bets: int = 10

    # Live games (002)
    betting_seconds: int = 30
    decision_seconds: int = 20
    baccarat_commission_percent: int = 5
    baccarat_decks: int = 8
    blackjack_decks: int = 6
    dispute_two_person_cents: int = 100_000   # corrections/voids above this need a second pit boss
    line_lag_ms: int = 500                    # device process behind its line by more: betting pauses
    device_wait_seconds: int = 30             # no card from the device mid-deal this long: the round is held

    # Money at the boundary: any amount a person types (credit, debit, bet...) is a whole number of
    # cents from 1 to this; a cashier's credit or debit above cashier_two_person_cents waits for a
    # second pit boss.
    max_amount_cents: int = 100_000_000
    cashier_two_person_cents: int = 1_000_000
    # What one person alone may move of one kind of money in a gaming day, whatever the players
    # (floor.ledger's check): past it, a second person approves each further move.
    actor_day_two_person_cents: int = 10_000_000

    # A table's chips (docs/table-accounting.md): the house's denominations in cents, smallest first;
    # a shift whose tray win and rounds' win differ by more than this raises an alert for the pit
    chip_denominations: str = "100,500,2500,10000,50000,100000"
    table_reconciliation_alert_cents: int = 1_000
    slip_two_person_cents: int = 1_000_000     # a fill or credit above this needs a second person's approval
    count_at_dealer_change: bool = False       # the house counts the tray whenever a new dealer takes the table

    # Tournaments (docs/tournament-rules.md); each tournament copies what it needs when created
    tournament_tie_rule: str = "seat_order"          # seat_order | random: equal chips out on one hand
    tournament_payout_unit: int = 100                # places rounded down to this many cents
    tournament_seats_per_table: int = 9
    tournament_final_table_size: int = 9
    tournament_progressive_cash_percent: int = 50    # of a progressive bounty, paid in cash
    tournament_mystery_start: str = "in_the_money"   # late_registration_end | in_the_money
    tournament_cancellation_rule: str = "fees_and_bounty_back"   # fees_back | fees_and_bounty_back
    tournament_bubble_policy: str = "none"           # none | pause | close_registration: near the money, late reg. open
    tournament_large_pool_from: int = 100_000        # random-prize cancellation: the large-pool rule from this pool (cents)
    tournament_bubble_pause_minutes: int = 5         # the bubble pause resumes by itself after this (0: the floor resumes)
    # The pit's numbers: a player's visit ends after this long without a bet
    rating_gap_minutes: int = 30
    # Game pace: the house's target range of rounds an hour per game, the rolling window the live
    # pace is measured over, and how long a table may run below its target before the pit is alerted
    pace_baccarat_min: int = 45
    pace_baccarat_max: int = 70
    pace_roulette_min: int = 30
    pace_roulette_max: int = 40
    pace_blackjack_min: int = 50
    pace_blackjack_max: int = 80
    pace_casino_holdem_min: int = 40
    pace_casino_holdem_max: int = 60
    pace_window_minutes: int = 30
    pace_alert_minutes: int = 20
    # Wheel integrity: the spins tested together, the false-alarm rate accepted per window, the arc
    # scanned for a hot sector, and the speed ranges (rpm; the ball's only where the wheel reports it)
    wheel_window_spins: int = 500
    wheel_bias_p: float = 0.01
    wheel_arc_pockets: int = 9
    wheel_rotor_rpm_min: int = 15
    wheel_rotor_rpm_max: int = 35
    wheel_ball_rpm_min: int = 60
    wheel_ball_rpm_max: int = 120
    # Dealer rotation: minutes at a table, minutes of break, and the tables it runs through in order
    # ("10,12,14"; empty: every open live-game table)
    rotation_on_minutes: int = 60
    rotation_off_minutes: int = 20
    rotation_max_on_minutes: int = 80
    rotation_tables: str = ""

    # The game modules' own settings (docs/rules.md, Settings): the config's [rules.<game>] sections,
    # read and checked at start by floor.rounds.table_rules (which owns their type: this module sits
    # below the games); None plays the games' own defaults. Not a [house] key.
    games: Any = dataclasses.field(default=None, repr=False)

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any] | None) -> "HouseSettings":
        values = dict(values or {})
        names = {f.name: f for f in dataclasses.fields(cls) if f.name not in NOT_HOUSE_KEYS}
        unknown = set(values) - set(names)
        if unknown:
            raise ValueError(f"unknown house settings: {sorted(unknown)}")
        for key, val in values.items():
            expected = type(getattr(cls, key)) if hasattr(cls, key) else None
            if expected is not None and not isinstance(val, expected):
                if expected is int and isinstance(val, bool):
                    raise ValueError(f"house setting {key} must be an integer")
                if not (expected is int and isinstance(val, int)):
                    raise ValueError(f"house setting {key} must be {expected.__name__}, not {type(val).__name__}")
        return cls(**values)

    def as_dict(self) -> dict[str, Any]:
        """The [house] values (the game rules aside)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name not in NOT_HOUSE_KEYS}


NOT_HOUSE_KEYS = ("games",)


def house_fields() -> list[str]:
    """The names of the [house] settings."""
    return [f.name for f in dataclasses.fields(HouseSettings) if f.name not in NOT_HOUSE_KEYS]
