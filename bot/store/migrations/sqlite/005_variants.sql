-- 005: the Spades variants of games.md G1-G2 in the league.
-- Solo games (partnerships off) have a winning seat instead of a winning team, and a final
-- score per player: league_games.winner stays NULL for them (its CHECK names the teams),
-- winner_seat holds the seat (0-3) and score_ns/score_ew are 0; every game's seats carry their
-- side's final score.  players: 3 or 4 seats.
ALTER TABLE league_games ADD COLUMN solo INTEGER NOT NULL DEFAULT 0;
ALTER TABLE league_games ADD COLUMN players INTEGER NOT NULL DEFAULT 4;
ALTER TABLE league_games ADD COLUMN winner_seat INTEGER CHECK (winner_seat BETWEEN 0 AND 3);
ALTER TABLE league_seats ADD COLUMN score INTEGER;

-- Renege claims (G1): claims a member made, those that were correct, and hands in which a
-- correct claim caught them.
ALTER TABLE league_standings ADD COLUMN claims INTEGER NOT NULL DEFAULT 0;
ALTER TABLE league_standings ADD COLUMN claims_won INTEGER NOT NULL DEFAULT 0;
ALTER TABLE league_standings ADD COLUMN caught INTEGER NOT NULL DEFAULT 0;
