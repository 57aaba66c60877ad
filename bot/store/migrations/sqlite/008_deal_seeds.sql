-- 008: verifiable deals (docs/verifiable-deals.md).  Each game draws a 32-byte secret seed at
-- its start; every deal and the draw for first dealer are derived from it.  The table shows
-- only the seed's SHA-256 (the commitment) until the game is over; a restored table keeps
-- its seed.  NULL: a table of a game started before this migration (dealt without a seed).
ALTER TABLE tables ADD COLUMN seed TEXT CHECK (seed IS NULL OR length(seed) = 64);
