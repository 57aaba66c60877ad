"""A player's private hand: the message, what its buttons ask for, hints, and its live edits."""
