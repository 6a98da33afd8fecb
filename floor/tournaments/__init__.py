"""Tournaments on the live floor, on top of the pure rules of floor.games.tournament.

Modules, in the order a tournament goes: ``setup`` (the event, its templates and tables),
``registration`` (the ledger, late seats, alternates, re-entries), ``clock`` (the start and seat
draw, levels by timer, pauses), ``eliminations`` (places, bounties, prizes), ``balancing`` (moves,
broken tables, the final table), ``deals``, ``cancellation``, ``results``; ``core`` holds what they
share and ``jobs`` the clock's timer job. Every function takes a session (and the house settings
where a rule depends on them), never commits and never imports flask.
"""
