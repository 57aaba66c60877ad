-- PostgreSQL twin of sqlite/009_tournaments.sql.
-- 009: tournaments (issue 25, docs/tournaments.md).  A tournament, its entries (teams or solo
-- players) and members, and the games of its rounds — each game one ordinary table.  Every
-- state change is committed here before it is announced, so a restarted bot resumes it.
CREATE TABLE tournaments (
    id             BIGSERIAL PRIMARY KEY,
    guild_id       BIGINT  NOT NULL,
    channel_id     BIGINT  NOT NULL,
    organiser_id   BIGINT  NOT NULL,
    name           TEXT    NOT NULL,
    name_key       TEXT    NOT NULL,            -- the name folded, for "already running"
    status         TEXT    NOT NULL
        CHECK (status IN ('signup', 'running', 'paused', 'finished', 'cancelled')),
    settings       TEXT    NOT NULL,            -- JSON: bot/events/model.py Settings
    starts_at      DOUBLE PRECISION    NOT NULL,
    round          INTEGER NOT NULL DEFAULT 0,
    round_deadline DOUBLE PRECISION,
    message_id     BIGINT ,                     -- the sign-up, then standings, message
    created_at     DOUBLE PRECISION    NOT NULL,
    ended_at       DOUBLE PRECISION,
    note           TEXT,                        -- why it ended (cancelled), for the record
    secret         TEXT    NOT NULL             -- duplicate rounds' deals derive from it
);
-- One tournament of a name running per server at a time.
CREATE UNIQUE INDEX tournaments_running_name ON tournaments (guild_id, name_key)
    WHERE status IN ('signup', 'running', 'paused');
CREATE INDEX tournaments_open ON tournaments (status, guild_id);

CREATE TABLE tournament_entries (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    entry         INTEGER NOT NULL,             -- 1, 2, … in sign-up order
    rating        DOUBLE PRECISION    NOT NULL DEFAULT 0,
    status        TEXT    NOT NULL DEFAULT 'in'
        CHECK (status IN ('in', 'dropped', 'disqualified', 'computer')),
    checked_in    INTEGER NOT NULL DEFAULT 0,
    place         INTEGER,                      -- final place, once the tournament is over
    PRIMARY KEY (tournament_id, entry)
);

-- A member is in a tournament once: the key makes two joins at once take one seat.
CREATE TABLE tournament_members (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       BIGINT  NOT NULL,
    entry         INTEGER,                      -- NULL: signed up alone, drawn at the start
    name          TEXT    NOT NULL,
    joined_at     DOUBLE PRECISION    NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_members_user ON tournament_members (user_id, tournament_id);

-- The games of each round: a table (or a bye).  table_id is set in the very transaction that
-- opens the table, so a game is never seated twice.
CREATE TABLE tournament_games (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    slot          INTEGER NOT NULL,
    game_no       INTEGER NOT NULL,
    entries       TEXT    NOT NULL,             -- JSON list of entry numbers, North–South first
    status        TEXT    NOT NULL CHECK (status IN ('pending', 'playing', 'done', 'bye')),
    thread_id     BIGINT ,
    table_id      TEXT,
    scores        TEXT,                         -- JSON list, by entry
    winner        INTEGER,
    decided       INTEGER NOT NULL DEFAULT 0,   -- 1: ended by the deadline or the organiser
    boards        TEXT,                         -- JSON: each hand's points by entry
    PRIMARY KEY (tournament_id, round, slot, game_no)
);
CREATE UNIQUE INDEX tournament_games_table ON tournament_games (table_id)
    WHERE table_id IS NOT NULL;
