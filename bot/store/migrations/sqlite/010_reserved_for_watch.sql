-- PLACEHOLDER, NOT A MIGRATION OF ITS OWN: number 010 belongs to the `watch` branch, which was
-- not merged when the `anywhere` branch added 011 (play anywhere).  The migration runner refuses
-- a gap in the numbers, so this no-op keeps 011 runnable on its own.  Delete this file (both
-- backends) when watch's 010 lands: two 010s make the runner refuse to start, so it cannot be
-- forgotten silently.
SELECT 1;
