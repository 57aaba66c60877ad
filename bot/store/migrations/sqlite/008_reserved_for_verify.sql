-- PLACEHOLDER, NOT A MIGRATION OF ITS OWN: number 008 belongs to the `verify` branch, which was
-- not merged when the `events` branch added 009 (tournaments).  The migration runner refuses a
-- gap in the numbers, so this no-op keeps 009 runnable on its own.  Delete this file (both
-- backends) when verify's 008 lands: two 008s make the runner refuse to start, so it cannot be
-- forgotten silently.
SELECT 1;
