-- 002: the server league (standings, ratings, stats, game history, seasons, settings).
-- Self-contained: references no table of 001.  Times are unix seconds (REAL, UTC).

-- One row per server that changed a setting (no row: the defaults of bot/league/settings.py).
CREATE TABLE league_settings (
    guild_id       INTEGER PRIMARY KEY,
    preset         TEXT    NOT NULL DEFAULT 'standard',
    target         INTEGER,                          -- NULL: the preset's target
    turn_timer     INTEGER NOT NULL DEFAULT 0,       -- seconds, 0 = off
    min_games      INTEGER NOT NULL DEFAULT 0,
    rate_bot_games INTEGER NOT NULL DEFAULT 0,
    current_season INTEGER NOT NULL DEFAULT 1
);

-- Channels where tables may be opened (none: every channel).
CREATE TABLE league_allowed_channels (
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
) WITHOUT ROWID;

CREATE TABLE league_seasons (
    guild_id   INTEGER NOT NULL,
    season     INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    started_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, season)
) WITHOUT ROWID;

CREATE TABLE league_games (
    game_id    INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    season     INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    table_id   TEXT    NOT NULL,
    started_at REAL    NOT NULL,
    ended_at   REAL    NOT NULL,
    abandoned  INTEGER NOT NULL,
    rated      INTEGER NOT NULL,
    preset     TEXT    NOT NULL,
    rules      TEXT    NOT NULL,                     -- JSON: the record's rules object
    hands      INTEGER NOT NULL,                     -- completed hands
    score_ns   INTEGER NOT NULL,
    score_ew   INTEGER NOT NULL,
    winner     TEXT CHECK (winner IN ('NS', 'EW'))   -- NULL: abandoned
);

-- The whole spades-record/1 document, compressed JSON (encoding 'bz2-json' or 'zlib-json';
-- see bot/league/recording.py), kept apart so that game rows stay small.
CREATE TABLE league_records (
    game_id  INTEGER PRIMARY KEY REFERENCES league_games (game_id) ON DELETE CASCADE,
    encoding TEXT NOT NULL,
    data     BLOB NOT NULL
);

-- Seats of every game: who sat there, and for rated member seats the rating before and after
-- (the rating history behind the trend and the chart).
CREATE TABLE league_seats (
    game_id      INTEGER NOT NULL REFERENCES league_games (game_id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),   -- N, E, S, W
    guild_id     INTEGER NOT NULL,
    season       INTEGER NOT NULL,
    user_id      INTEGER,                                        -- NULL: a computer player
    display_name TEXT    NOT NULL,
    bot_level    TEXT,
    mu_before    REAL,
    sigma_before REAL,
    mu_after     REAL,
    sigma_after  REAL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
-- /history and the rating history: a member's games in a server, newest first.
CREATE INDEX league_seats_player ON league_seats (guild_id, user_id, game_id)
    WHERE user_id IS NOT NULL;

-- Standings: one row per member per server per season, updated with every recorded game, so
-- that /leaderboard and /stats never read the games themselves.
CREATE TABLE league_standings (
    guild_id       INTEGER NOT NULL,
    season         INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    display_name   TEXT    NOT NULL,                 -- as of the latest game
    mu             REAL    NOT NULL,
    sigma          REAL    NOT NULL,
    rating         REAL    NOT NULL,                 -- mu - 3 sigma (sort key)
    games          INTEGER NOT NULL,
    wins           INTEGER NOT NULL,
    losses         INTEGER NOT NULL,
    abandoned      INTEGER NOT NULL,
    rated_games    INTEGER NOT NULL,
    win_rate       REAL    NOT NULL,                 -- wins / (wins + losses), 0 without any
    hands          INTEGER NOT NULL,
    contract_hands INTEGER NOT NULL,
    contracts_made INTEGER NOT NULL,
    bid_hands      INTEGER NOT NULL,
    bid_sum        INTEGER NOT NULL,
    bid_tricks     INTEGER NOT NULL,
    nil_bids       INTEGER NOT NULL,
    nil_made       INTEGER NOT NULL,
    blind_nil_bids INTEGER NOT NULL,
    blind_nil_made INTEGER NOT NULL,
    bags           INTEGER NOT NULL,
    sets           INTEGER NOT NULL,
    last_game_id   INTEGER NOT NULL,
    PRIMARY KEY (guild_id, season, user_id)
) WITHOUT ROWID;
-- One index per leaderboard order (ties broken as in bot/league/models.py LeaderboardSort);
-- each holds `games` so the min_games filter and the rank count read the index only.
CREATE INDEX league_standings_by_rating
    ON league_standings (guild_id, season, rating DESC, games DESC, user_id);
CREATE INDEX league_standings_by_wins
    ON league_standings (guild_id, season, wins DESC, games, user_id);
CREATE INDEX league_standings_by_win_rate
    ON league_standings (guild_id, season, win_rate DESC, games DESC, user_id);
CREATE INDEX league_standings_by_games
    ON league_standings (guild_id, season, games DESC, wins DESC, user_id);

-- Partnerships: two members who played on the same team (user_a < user_b), finished games only.
CREATE TABLE league_partnerships (
    guild_id     INTEGER NOT NULL,
    season       INTEGER NOT NULL,
    user_a       INTEGER NOT NULL,
    user_b       INTEGER NOT NULL,
    games        INTEGER NOT NULL,
    wins         INTEGER NOT NULL,
    score        REAL    NOT NULL,                   -- (wins + 1) / (games + 2): best-pairs order
    last_game_id INTEGER NOT NULL,
    PRIMARY KEY (guild_id, season, user_a, user_b),
    CHECK (user_a < user_b)
) WITHOUT ROWID;
CREATE INDEX league_partnerships_user_b ON league_partnerships (guild_id, season, user_b);
CREATE INDEX league_partnerships_best
    ON league_partnerships (guild_id, season, score DESC, games DESC, user_a, user_b);
