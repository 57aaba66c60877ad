-- 006: Whist and Euchre beside Spades.  Every recorded game, rated seat, standing and
-- partnership belongs to one game ('spades', 'whist' or 'euchre'): the league keeps each game
-- apart (standings, ratings and stats per game); games recorded before are Spades games.
-- New per-member counts: tricks taken (every game) and Euchre's makers, lone hands, marches
-- and euchres (bot/league/stats.py).
ALTER TABLE league_games ADD COLUMN game TEXT NOT NULL DEFAULT 'spades';
ALTER TABLE league_seats ADD COLUMN game TEXT NOT NULL DEFAULT 'spades';
-- The rating history and trend of one game.
CREATE INDEX league_seats_rating ON league_seats (guild_id, user_id, game, season, game_id)
    WHERE mu_after IS NOT NULL;

-- Standings: the key gains the game (SQLite cannot change a primary key: copy the table; the
-- new columns come last, as PostgreSQL's ALTER TABLE puts them).
CREATE TABLE league_standings_new (
    guild_id       INTEGER NOT NULL,
    season         INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    display_name   TEXT    NOT NULL,
    mu             REAL    NOT NULL,
    sigma          REAL    NOT NULL,
    rating         REAL    NOT NULL,
    games          INTEGER NOT NULL,
    wins           INTEGER NOT NULL,
    losses         INTEGER NOT NULL,
    abandoned      INTEGER NOT NULL,
    rated_games    INTEGER NOT NULL,
    win_rate       REAL    NOT NULL,
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
    claims         INTEGER NOT NULL DEFAULT 0,
    claims_won     INTEGER NOT NULL DEFAULT 0,
    caught         INTEGER NOT NULL DEFAULT 0,
    game           TEXT    NOT NULL,
    tricks         INTEGER NOT NULL DEFAULT 0,
    maker_hands    INTEGER NOT NULL DEFAULT 0,
    maker_made     INTEGER NOT NULL DEFAULT 0,
    alone_hands    INTEGER NOT NULL DEFAULT 0,
    alone_made     INTEGER NOT NULL DEFAULT 0,
    marches        INTEGER NOT NULL DEFAULT 0,
    euchres        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, season, game, user_id)
) WITHOUT ROWID;
INSERT INTO league_standings_new (
    guild_id, season, game, user_id, display_name, mu, sigma, rating, games, wins, losses,
    abandoned, rated_games, win_rate, hands, contract_hands, contracts_made, bid_hands, bid_sum,
    bid_tricks, nil_bids, nil_made, blind_nil_bids, blind_nil_made, bags, sets, last_game_id,
    claims, claims_won, caught)
SELECT guild_id, season, 'spades', user_id, display_name, mu, sigma, rating, games, wins, losses,
    abandoned, rated_games, win_rate, hands, contract_hands, contracts_made, bid_hands, bid_sum,
    bid_tricks, nil_bids, nil_made, blind_nil_bids, blind_nil_made, bags, sets, last_game_id,
    claims, claims_won, caught
FROM league_standings;
DROP TABLE league_standings;
ALTER TABLE league_standings_new RENAME TO league_standings;
CREATE INDEX league_standings_by_rating
    ON league_standings (guild_id, season, game, rating DESC, rated_games DESC, user_id);
CREATE INDEX league_standings_by_wins
    ON league_standings (guild_id, season, game, wins DESC, rated_games, user_id);
CREATE INDEX league_standings_by_win_rate
    ON league_standings (guild_id, season, game, win_rate DESC, rated_games DESC, user_id);
CREATE INDEX league_standings_by_games
    ON league_standings (guild_id, season, game, rated_games DESC, wins DESC, user_id);

-- Partnerships, per game too.
CREATE TABLE league_partnerships_new (
    guild_id     INTEGER NOT NULL,
    season       INTEGER NOT NULL,
    user_a       INTEGER NOT NULL,
    user_b       INTEGER NOT NULL,
    games        INTEGER NOT NULL,
    wins         INTEGER NOT NULL,
    score        REAL    NOT NULL,
    last_game_id INTEGER NOT NULL,
    game         TEXT    NOT NULL,
    PRIMARY KEY (guild_id, season, game, user_a, user_b),
    CHECK (user_a < user_b)
) WITHOUT ROWID;
INSERT INTO league_partnerships_new
    (guild_id, season, game, user_a, user_b, games, wins, score, last_game_id)
SELECT guild_id, season, 'spades', user_a, user_b, games, wins, score, last_game_id
FROM league_partnerships;
DROP TABLE league_partnerships;
ALTER TABLE league_partnerships_new RENAME TO league_partnerships;
CREATE INDEX league_partnerships_user_b
    ON league_partnerships (guild_id, season, game, user_b);
CREATE INDEX league_partnerships_best
    ON league_partnerships (guild_id, season, game, score DESC, games DESC, user_a, user_b);
