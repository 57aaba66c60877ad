"""Post-game reviews and shared replays: their pages and buttons."""
