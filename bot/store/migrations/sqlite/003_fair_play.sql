-- 003: leaving a rated game is charged as a loss, and ranking counts rated games.
-- A member who left a game in progress keeps their seat (a computer plays it) so that the
-- league can charge them; league_seats remembers that they left (the "forfeit").
ALTER TABLE seats ADD COLUMN left_game INTEGER NOT NULL DEFAULT 0;
ALTER TABLE league_seats ADD COLUMN forfeit INTEGER NOT NULL DEFAULT 0;

-- Ranking (min_games, ties, the games order) counts rated games: the indexes follow.
DROP INDEX league_standings_by_rating;
DROP INDEX league_standings_by_wins;
DROP INDEX league_standings_by_win_rate;
DROP INDEX league_standings_by_games;
CREATE INDEX league_standings_by_rating
    ON league_standings (guild_id, season, rating DESC, rated_games DESC, user_id);
CREATE INDEX league_standings_by_wins
    ON league_standings (guild_id, season, wins DESC, rated_games, user_id);
CREATE INDEX league_standings_by_win_rate
    ON league_standings (guild_id, season, win_rate DESC, rated_games DESC, user_id);
CREATE INDEX league_standings_by_games
    ON league_standings (guild_id, season, rated_games DESC, wins DESC, user_id);
