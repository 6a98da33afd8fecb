"""Live rounds of the table games: one state machine per table, settled from the devices.

Entry points for the device bridge (plain values; one DB session per event; the caller commits,
then, when ``Outcome.settle`` is set, calls ``settle(session, outcome.settle)`` in a new
transaction and commits again (``commit_then_settle`` does both); ``Outcome.command`` is bytes-to-be for the device, e.g. ``*R``):

    wheel_status(session, table_id, state, spin, flags, at, *, winning=None, raw=None, device=None)
    wheel_number(session, table_id, spin, number, at, *, raw=None, device=None)
    card(session, table_id, card, source, target=None, at=None, *, index=None, raw=None, device=None)
    shoe_result(session, table_id, winner, player_pair, banker_pair, at=None, *, raw=None, device=None)
    coup_start(session, table_id, at=None, *, raw=None, device=None)
    cut_card(session, table_id, at=None, *, raw=None, device=None)
    shoe_lock(session, table_id, locked, at=None, *, raw=None, device=None)
    refused_frame(session, table_id, reason, at=None, *, raw=None, device=None)
    device_fault(session, table_id, reason, at=None, *, raw=None, device=None)
    device_frame(session, table_id, device, raw, summary="", at=None)
    settle(session, round_id, at=None) / recover(session, at=None)
"""

from floor.rounds.cards import (  # noqa: F401
    build_flow,
    card,
    cut_card,
    decide,
    decision_timeout,
    new_shoe,
    shoe_lock,
    shoe_result,
    shown_flow,
)
from floor.rounds.core import (  # noqa: F401
                                Outcome,
                                active_round,
                                current_shoe,
                                device_frame,
                                get_round,
                                last_round,
                                recover,
                                paid_by_bet,
                                settle,
                                void,
)
from floor.rounds.table import (  # noqa: F401
                                baccarat_roads,
                                board_games,
                                close_betting,
                                coup_start,
                                device_fault,
                                held_moves,
                                held_result,
                                refused_frame,
                                held_rounds,
                                open_betting,
                                roulette_history,
                                settle_held,
                                TableState,
                                round_detail,
                                table_state,
                                void_round,
)
from floor.rounds.unit import commit_then_settle  # noqa: F401
from floor.rounds import hand  # noqa: F401
from floor.rounds.wheel import no_ball_due, wheel_number, wheel_status  # noqa: F401
