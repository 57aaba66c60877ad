-- PLACEHOLDER, NOT A MIGRATION OF ITS OWN: number 012 is reserved for the `i18n` branch, which was
-- not merged when the `events2` branch added 013 (tournament organisers, paused rounds).  The
-- migration runner refuses a gap in the numbers, so this no-op keeps 013 runnable on its own.
-- Delete this file (both backends) when i18n's 012 lands: two 012s make the runner refuse to start,
-- so it cannot be forgotten silently.  (If i18n adds no migration, this no-op may stay.)
SELECT 1;
