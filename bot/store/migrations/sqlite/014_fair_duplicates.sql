-- 014: fair duplicate rounds (issue 32; docs/tournaments.md, docs/verifiable-deals.md).
-- A seed held back by its owner until released: a duplicate round's deal key from the moment
-- its games are stored until every game of the round is over (a game not yet seated
-- included), so no table of the round reveals it early (bot.store.tables.seed_in_play).
CREATE TABLE seed_holds (
    seed    TEXT PRIMARY KEY CHECK (length(seed) = 64),
    held_at REAL NOT NULL
);
-- Why a tournament could not be loaded or caught up at the last start (NULL: it was): shown
-- to its organiser, and the bot starts all the same.
ALTER TABLE tournaments ADD COLUMN fault TEXT;
