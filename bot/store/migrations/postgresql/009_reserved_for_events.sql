-- PLACEHOLDER, NOT A MIGRATION OF ITS OWN: number 009 belongs to the `events` branch, which was
-- not merged when the `anywhere` branch added 011 (play anywhere).  The migration runner refuses
-- a gap in the numbers, so this no-op keeps 011 runnable on its own.  Delete this file (both
-- backends) when events's 009 lands: two 009s make the runner refuse to start, so it cannot be
-- forgotten silently.
SELECT 1;
