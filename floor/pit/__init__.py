"""The pit boss: round timelines and replays, rulings (confirm, void, correct) under the two-person
rule with compensating transfers, shift figures, and the conduct and poker-hand reviews.

    timeline(session, round_id, house)                      floor.pit.timeline
    rule(session, actor, round_id, kind, reason, correction=None, at=None, house=...)
    approve(session, actor, ruling_id, reason="", at=None, house=...) / reject(...)
    replay_check(session, round, house)                     floor.pit.rulings
    figures(session, day, house, table_number=None) / to_csv(figures)   floor.pit.shift
    identify / leave / seated (who sits at a live-game seat)               floor.pit.visits
    visits / players_of_day / player_history (player ratings)             floor.pit.ratings
    conduct_review(session, days) / poker_hands(session, table_id)      floor.pit.review
"""
from floor.pit.review import conduct_review, poker_hands, poker_rulings, ruling_hand  # noqa: F401
from floor.pit.rulings import (  # noqa: F401
                               approve,
                               pending,
                               recent,
                               reject,
                               replay_check,
                               rule,
                               Ruling,
                               ruling_of,
                               rulings_for_round,
                               state,
)
from floor.pit.shift import figures, hourly, to_csv, today  # noqa: F401
from floor.pit.timeline import find_round, recent_rounds, timeline  # noqa: F401
