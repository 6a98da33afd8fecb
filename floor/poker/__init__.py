"""The poker room: seating, waiting lists, conduct, must-move, blinds and the dealer's table. Layered bottom-up: queries -> seating -> waitlist -> conduct -> mustmove -> table / floor_state."""
