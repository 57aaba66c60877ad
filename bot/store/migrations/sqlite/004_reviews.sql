-- 004: post-game reviews (stored analyses) and each server's card colours (issue 14).

-- The hard player's analysis of a recorded game, per analysis version: a second review of a
-- game reads it instead of computing it again.  bz2-compressed JSON (bot/review/analysis.py).
CREATE TABLE review_analyses (
    game_id    INTEGER NOT NULL REFERENCES league_games (game_id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,
    created_at REAL    NOT NULL,
    cpu_s      REAL    NOT NULL,                     -- CPU seconds the analysis took
    data       BLOB    NOT NULL,
    PRIMARY KEY (game_id, version)
);

-- Card faces of a server: 'two' colours (default, no row) or the 'four'-colour deck.
CREATE TABLE card_styles (
    guild_id INTEGER PRIMARY KEY,
    scheme   TEXT    NOT NULL CHECK (scheme IN ('two', 'four'))
);
