"""The host rules of each device kind as pure transitions: (state, event, now) -> (state, outcomes)."""
