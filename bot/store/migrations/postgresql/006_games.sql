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

-- Standings: the key gains the game.
ALTER TABLE league_standings ADD COLUMN game TEXT NOT NULL DEFAULT 'spades';
ALTER TABLE league_standings ALTER COLUMN game DROP DEFAULT;
ALTER TABLE league_standings ADD COLUMN tricks INTEGER NOT NULL DEFAULT 0;
ALTER TABLE league_standings ADD COLUMN maker_hands INTEGER NOT NULL DEFAULT 0;
ALTER TABLE league_standings ADD COLUMN maker_made INTEGER NOT NULL DEFAULT 0;
ALTER TABLE league_standings ADD COLUMN alone_hands INTEGER NOT NULL DEFAULT 0;
ALTER TABLE league_standings ADD COLUMN alone_made INTEGER NOT NULL DEFAULT 0;
ALTER TABLE league_standings ADD COLUMN marches INTEGER NOT NULL DEFAULT 0;
ALTER TABLE league_standings ADD COLUMN euchres INTEGER NOT NULL DEFAULT 0;
ALTER TABLE league_standings DROP CONSTRAINT league_standings_pkey;
ALTER TABLE league_standings ADD PRIMARY KEY (guild_id, season, game, user_id);
DROP INDEX league_standings_by_rating;
DROP INDEX league_standings_by_wins;
DROP INDEX league_standings_by_win_rate;
DROP INDEX league_standings_by_games;
CREATE INDEX league_standings_by_rating
    ON league_standings (guild_id, season, game, rating DESC, rated_games DESC, user_id);
CREATE INDEX league_standings_by_wins
    ON league_standings (guild_id, season, game, wins DESC, rated_games, user_id);
CREATE INDEX league_standings_by_win_rate
    ON league_standings (guild_id, season, game, win_rate DESC, rated_games DESC, user_id);
CREATE INDEX league_standings_by_games
    ON league_standings (guild_id, season, game, rated_games DESC, wins DESC, user_id);

-- Partnerships, per game too.
ALTER TABLE league_partnerships ADD COLUMN game TEXT NOT NULL DEFAULT 'spades';
ALTER TABLE league_partnerships ALTER COLUMN game DROP DEFAULT;
ALTER TABLE league_partnerships DROP CONSTRAINT league_partnerships_pkey;
ALTER TABLE league_partnerships ADD PRIMARY KEY (guild_id, season, game, user_a, user_b);
DROP INDEX league_partnerships_user_b;
DROP INDEX league_partnerships_best;
CREATE INDEX league_partnerships_user_b
    ON league_partnerships (guild_id, season, game, user_b);
CREATE INDEX league_partnerships_best
    ON league_partnerships (guild_id, season, game, score DESC, games DESC, user_a, user_b);
