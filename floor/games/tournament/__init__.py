"""Pure rules of live poker tournaments: structure and clock, payouts, the seat draw, balancing and
breaking tables, finishing places, bounties, heads-up positions, deals (ICM, chip chop) and
cancellation. No I/O, no clock reads, no global randomness: times, settings and seeds come in.

Modules: ``structure`` (levels, breaks, clock), ``payouts``, ``draw`` (the seeded stream),
``seating`` (seat draw, balancing, breaking), ``places`` (places, blinds, heads-up), ``bounty``,
``deals`` (ICM, chip chop, the save), ``cancellation``, ``cents`` (exact splitting of cents).
"""
from .bounty import (BountyAward, MysteryDraw, draw_mystery_bounty, knockout_awards, mystery_stage_open,
                     progressive_awards)
from .cancellation import (RULES as CANCELLATION_RULES, CancellationRule, CancellationShare, Settlement,
                           Survivor, cancel_from_prize_pool, cancel_online_room, cancel_random_prize_sit_and_go,
                           cancel_sit_and_go, guarantee_topup, refund_all, settle_cancellation)
from .draw import ALGORITHM as DRAW_ALGORITHM, Draw, DrawStream, card_strength, draw_deck
from .deals import Deal, chip_chop, deal, icm, icm_equities
from .payouts import (STANDARD_PAYOUTS, PayoutBand, PayoutTable, payout_table, payout_table_to_data, payouts,
                      prize_pool, split_pool)
from .places import (BlindPositions, Bust, HandPostings, Place, Posting, blind_positions, bust_places,
                     clockwise_from_button, deal_final_places, hand_postings)
from .seating import (ButtonDraw, Move, SeatAssignment, SeatDraw, TablePlan, draw_late_seat, draw_seats,
                      rebalance)
from .structure import (DAILY_TURBO, TEMPLATES, WEEKLY_DEEP_STACK, AddOn, Break, Rebuys, purchase_refusal, ClockReading, Level, Structure,
                        bubble_action, clock, hand_for_hand, running_seconds, structure_from_data, structure_to_data)

__all__ = [
    "BountyAward", "MysteryDraw", "draw_mystery_bounty", "knockout_awards", "mystery_stage_open",
    "progressive_awards",
    "CANCELLATION_RULES", "CancellationRule", "CancellationShare", "Settlement", "Survivor",
    "cancel_from_prize_pool", "cancel_online_room", "cancel_random_prize_sit_and_go", "cancel_sit_and_go",
    "guarantee_topup", "refund_all", "settle_cancellation",
    "DRAW_ALGORITHM", "Draw", "DrawStream", "card_strength", "draw_deck",
    "Deal", "chip_chop", "deal", "icm", "icm_equities",
    "STANDARD_PAYOUTS", "PayoutBand", "PayoutTable", "payout_table", "payout_table_to_data", "payouts",
    "prize_pool", "split_pool",
    "BlindPositions", "Bust", "HandPostings", "Place", "Posting", "blind_positions", "bust_places",
    "clockwise_from_button", "deal_final_places", "hand_postings",
    "ButtonDraw", "Move", "SeatAssignment", "SeatDraw", "TablePlan", "draw_late_seat", "draw_seats", "rebalance",
    "DAILY_TURBO", "TEMPLATES", "WEEKLY_DEEP_STACK", "AddOn", "Break", "Rebuys", "purchase_refusal", "ClockReading", "Level", "Structure",
    "bubble_action", "clock", "hand_for_hand", "running_seconds", "structure_from_data", "structure_to_data",
]
