-- PostgreSQL twin of sqlite/001_tables.sql (same tables, columns and constraints).
-- Tables in play: their seats, and the log of every accepted game action.
-- A table's live state is rebuilt by replaying its actions through the engine.
CREATE TABLE tables (
    id            TEXT PRIMARY KEY,
    guild_id      BIGINT  NOT NULL,
    channel_id    BIGINT  NOT NULL,
    host_id       BIGINT  NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'abandoned')),
    rules         TEXT NOT NULL,            -- JSON: the "rules" object of a spades-record/1
    turn_timer    INTEGER NOT NULL DEFAULT 0,
    handover      TEXT NOT NULL DEFAULT 'normal',
    first_dealer  TEXT,
    dealer_draw   TEXT,                     -- JSON: the draw for first dealer, for display
    message_id    BIGINT,
    deadline      DOUBLE PRECISION,                     -- unix time the seat on turn must act by
    created_at    DOUBLE PRECISION NOT NULL,
    started_at    DOUBLE PRECISION,
    ended_at      DOUBLE PRECISION
);
-- At most one unfinished table per channel (or thread).
CREATE UNIQUE INDEX tables_open_channel ON tables(channel_id)
    WHERE status IN ('lobby', 'playing');
CREATE INDEX tables_status ON tables(status);

CREATE TABLE seats (
    table_id   TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seat       TEXT NOT NULL CHECK (seat IN ('N', 'E', 'S', 'W')),
    user_id    BIGINT,                     -- NULL for a computer player
    name       TEXT NOT NULL,
    bot_level  TEXT,                        -- set while a computer plays the seat
    timeouts   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX seats_user ON seats(user_id) WHERE user_id IS NOT NULL;

CREATE TABLE actions (
    table_id       TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seq            INTEGER NOT NULL,
    action         TEXT NOT NULL,           -- JSON, see bot/store/tables.py
    interaction_id BIGINT,                 -- the Discord interaction that made it, if any
    created_at     DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, seq)
);
-- The same interaction delivered twice is applied once.
CREATE UNIQUE INDEX actions_interaction ON actions(interaction_id)
    WHERE interaction_id IS NOT NULL;

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
