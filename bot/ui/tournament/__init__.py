"""A tournament's messages: sign-up, standings, podium, results, and its publisher."""
