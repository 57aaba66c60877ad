-- PLACEHOLDER, NOT A MIGRATION OF ITS OWN: number 010 is reserved for the `watch` branch, which was
-- not merged when the `events2` branch added 013 (tournament organisers, paused rounds).  The
-- migration runner refuses a gap in the numbers, so this no-op keeps 013 runnable on its own.
-- Delete this file (both backends) when watch's 010 lands: two 010s make the runner refuse to start,
-- so it cannot be forgotten silently.  (If watch adds no migration, this no-op may stay.)
SELECT 1;
