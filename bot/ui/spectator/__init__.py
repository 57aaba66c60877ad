"""A spectator's view of a table and its live edits."""
