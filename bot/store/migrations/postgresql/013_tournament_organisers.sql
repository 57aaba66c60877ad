-- PostgreSQL twin of sqlite/013_tournament_organisers.sql.
-- 013: tournaments, continued (issue 25; docs/tournaments.md).
-- The role a server's admins name to run tournaments besides Manage Server (NULL: none).
ALTER TABLE league_settings ADD COLUMN organiser_role BIGINT;
-- A paused round's time left (seconds) until its deadline; going on restores it.  NULL: not
-- paused, or the round has no deadline.
ALTER TABLE tournaments ADD COLUMN round_left DOUBLE PRECISION;
