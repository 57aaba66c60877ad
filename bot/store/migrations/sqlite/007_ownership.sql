-- 007: one writer per table, and one league game per table.
-- tables.revision counts the committed writes of a table.  Every write of a table's state
-- first bumps it, on condition that it still holds the value the writer last saw
-- (bot/tables/persistence.py): when two processes serve one table (overlapping SHARD_IDS in a
-- rolling deploy, a duplicated container) the one that wrote last is refused and reloads the
-- table instead of overwriting the other's moves.
ALTER TABLE tables ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;

-- A table's game is recorded once.  Should a game have been recorded twice already, the
-- first recording keeps the table's id and each later one is renamed '<table id>~dup<game id>'
-- (kept, not deleted: the standings and rating history already count it, and only a full
-- recomputation could take it out of them).
UPDATE league_games SET table_id = table_id || '~dup' || CAST(game_id AS TEXT)
WHERE EXISTS (
    SELECT 1 FROM league_games AS first
    WHERE first.table_id = league_games.table_id AND first.game_id < league_games.game_id
);
CREATE UNIQUE INDEX league_games_table ON league_games (table_id);
