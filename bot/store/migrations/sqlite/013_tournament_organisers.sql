-- 013: tournaments, continued (issue 25; docs/tournaments.md).
-- The role a server's admins name to run tournaments besides Manage Server (NULL: none).
ALTER TABLE league_settings ADD COLUMN organiser_role INTEGER;
-- A paused round's time left (seconds) until its deadline; going on restores it.  NULL: not
-- paused, or the round has no deadline.
ALTER TABLE tournaments ADD COLUMN round_left REAL;
