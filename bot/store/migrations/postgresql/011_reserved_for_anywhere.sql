-- PLACEHOLDER, NOT A MIGRATION OF ITS OWN: number 011 is reserved for the `anywhere` branch, which was
-- not merged when the `events2` branch added 013 (tournament organisers, paused rounds).  The
-- migration runner refuses a gap in the numbers, so this no-op keeps 013 runnable on its own.
-- Delete this file (both backends) when anywhere's 011 lands: two 011s make the runner refuse to start,
-- so it cannot be forgotten silently.  (If anywhere adds no migration, this no-op may stay.)
SELECT 1;
