"""spades-bot: play Spades in Discord."""
