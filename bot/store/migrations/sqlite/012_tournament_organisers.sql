-- 012: tournaments, continued (issue 25; docs/tournaments.md): the organiser role, a paused
-- round's time left, and the threads tables play in.
-- The role a server's admins name to run tournaments besides Manage Server (NULL: none).
ALTER TABLE league_settings ADD COLUMN organiser_role INTEGER;
-- A paused round's time left (seconds) until its deadline; going on restores it.  NULL: not
-- paused, or the round has no deadline.
ALTER TABLE tournaments ADD COLUMN round_left REAL;
-- The thread each table number plays in: table k of every round plays in thread k, made once
-- (the first round's during sign-up), so a round's turn makes no thread (Discord lets a
-- channel make only a few a second).
CREATE TABLE tournament_threads (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    slot          INTEGER NOT NULL,             -- the table number
    thread_id     INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, slot)
);
